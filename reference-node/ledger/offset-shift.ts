// `--offset-shift N`: the same network as another participant of it would show it. Offsets are a node's own
// numbering (the description: they may differ across nodes and are never compared between nodes), so the
// shift is applied only where offsets cross the wire: numbers under the offset fields of a request are read
// back into the node's own numbering, and those of an answer are rendered N higher. Offset 0 (the ledger's
// start, "nothing pruned") stays 0, so a shifted node is as conformant as an unshifted one.
import type { FastifyInstance } from 'fastify';
import { isInt, isObject } from '../../common/json.ts';

/** Fields of requests that carry an offset. */
const REQUEST_FIELDS: ReadonlySet<string> = new Set([
  'beginExclusive',
  'endInclusive',
  'activeAtOffset',
  'offset',
  'beginOffsetExclusive',
  'endOffsetInclusive',
]);
/** Fields of answers that carry an offset. */
const ANSWER_FIELDS: ReadonlySet<string> = new Set([
  'offset',
  'completionOffset',
  'activeAtOffset',
  'participantPrunedUpToInclusive',
  'allDivulgedContractsPrunedUpToInclusive',
  'beginOffsetExclusive',
  'endOffsetInclusive',
  'lowestPageOffsetExclusive',
  'highestPageOffsetInclusive',
]);
/** Daml values: their fields are the templates', whatever they are named. */
const OPAQUE: ReadonlySet<string> = new Set(['createArgument', 'choiceArgument', 'exerciseResult', 'interfaceViews', 'contractKey', 'commands']);

function mapFields(value: unknown, fields: ReadonlySet<string>, map: (n: number) => number): unknown {
  if (Array.isArray(value)) return value.map((v) => mapFields(v, fields, map));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (fields.has(k) && isInt(v)) out[k] = map(v);
    else out[k] = OPAQUE.has(k) ? v : mapFields(v, fields, map);
  }
  return out;
}

/** The translation both ways: a request's offsets into the node's numbering, an answer's out of it. */
export interface OffsetShift {
  request(body: unknown): unknown;
  answer(payload: unknown): unknown;
}

/** The translation of a shift; undefined when the shift is 0. */
export function offsetShift(shift: number): OffsetShift | undefined {
  if (shift === 0) return undefined;
  // Invalid values (negative, not integers) pass unchanged, for the node to refuse as it would unshifted.
  const read = (n: number) => (n < 0 ? n : Math.max(0, n - shift));
  const render = (n: number) => (n > 0 ? n + shift : n);
  return { request: (body) => mapFields(body, REQUEST_FIELDS, read), answer: (payload) => mapFields(payload, ANSWER_FIELDS, render) };
}

/** Registers the translation on the ledger's scope; nothing when the shift is 0. */
export function shiftOffsets(app: FastifyInstance, shift: number): void {
  const translation = offsetShift(shift);
  if (!translation) return;
  app.addHook('preHandler', async (req) => {
    if (isObject(req.body)) req.body = translation.request(req.body);
  });
  app.addHook('preSerialization', async (_req, _reply, payload) => translation.answer(payload));
}
