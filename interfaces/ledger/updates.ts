// Building `POST /v2/updates` requests and reading their answers, for the ledger requirements. Field names
// are those of release line 3.5 (the update-stream facts): each answer element is `{update: {<Kind>: {value:
// record}}}`, transaction events are `{<EventKind>: record}`. Nothing here judges: checks do. The reads the
// update rules take their elements from (readWindow, sampleStream) return the elements and the exchange to
// cite, no HTTP answer to inspect, so that those rules can run over another transport of the stream (the
// ledger's WebSocket) unchanged.
import fc from 'fast-check';
import { appendPointer, isObject, pointer, type Json } from '../../common/json.ts';
import { describeAnswer, type Exchange, type Query, type RequestOptions } from '../../engine/transport/http.ts';
import { exactIntegers } from '../../engine/int64.ts';
import { LIMITED_TOKEN_VARIABLE } from '../../engine/fixtures.ts';
import type { CheckContext, Citable } from '../../engine/model.ts';
import { channelAnswer, channelRead, channelSample } from './update-channel.ts';

export const OPERATION = 'getUpdates';
export const UPDATES_PATH = '/v2/updates';
export const UPDATE_KINDS = ['OffsetCheckpoint', 'Reassignment', 'TopologyTransaction', 'Transaction'] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];
export const ACS_DELTA = 'TRANSACTION_SHAPE_ACS_DELTA';
export const LEDGER_EFFECTS = 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
export type Shape = typeof ACS_DELTA | typeof LEDGER_EFFECTS;

/** Idle timeout for reads without endInclusive: they end this long after the last element. */
export const IDLE_MS = 50;
/** Elements of the stream sampled to find real offsets; windows are chosen among them. */
export const SAMPLE_SIZE = 100;
/** At most this many ledger parties are used in one request. */
const MAX_PARTIES = 5;

// ---------------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------------

/** Cumulative filter entries: a wildcard, and one template. */
export const wildcardEntry = (includeCreatedEventBlob = false): Json => ({ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob } } } });
export const templateEntry = (templateId: string, includeCreatedEventBlob = false): Json => ({
  identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob } } },
});

export const WILDCARD: Json = { cumulative: [wildcardEntry()] };

export const templateFilter = (templateId: string): Json => ({ cumulative: [templateEntry(templateId)] });

/** An EventFormat (or legacy TransactionFilter) giving every party the same filters. */
export const byParties = (parties: readonly string[], filters: Json = WILDCARD): Json => ({
  filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])),
});

export type Part = 'transactions' | 'reassignments' | 'topology';
export const PARTS: readonly Part[] = ['transactions', 'reassignments', 'topology'];
/** The update kind each part of an UpdateFormat asks for. */
export const KIND_OF_PART: Record<Part, UpdateKind> = { transactions: 'Transaction', reassignments: 'Reassignment', topology: 'TopologyTransaction' };

/** An UpdateFormat with the given parts, all for `parties`. */
export function updateFormat(parties: readonly string[], parts: readonly Part[] = PARTS, shape: Shape = ACS_DELTA, filters: Json = WILDCARD): Json {
  const f: Json = {};
  if (parts.includes('transactions')) f.includeTransactions = { eventFormat: byParties(parties, filters), transactionShape: shape };
  if (parts.includes('reassignments')) f.includeReassignments = byParties(parties, filters);
  if (parts.includes('topology')) f.includeTopologyEvents = { includeParticipantAuthorizationEvents: { parties: [...parties] } };
  return f;
}

/** Transactions (ACS delta unless asked otherwise) and reassignments of every party on the participant, by filtersForAnyParty. */
export const anyPartyFormat = (filters: Json = WILDCARD, shape: Shape = ACS_DELTA): Json => ({
  includeTransactions: { eventFormat: { filtersForAnyParty: filters }, transactionShape: shape },
  includeReassignments: { filtersForAnyParty: filters },
});

export interface Window {
  beginExclusive: number;
  endInclusive?: number;
}

export const body = (w: Window, format: Json, extra: Json = {}): Json => ({ ...w, updateFormat: format, ...extra });

/**
 * The parties requests read as: the fixture's, capped. A party listed twice counts once, so that it takes
 * no second place under the cap and is never drawn as a "pair" with itself.
 */
export function readParties(ctx: CheckContext): string[] {
  return [...new Set(ctx.fixtures.ledgerParties ?? [])].slice(0, MAX_PARTIES);
}

/**
 * The limited user's token as requests send it. Discovery may take the ledger token itself or the wallet
 * token for it; evidence then names the variable that already holds it, so curl lines run as pasted.
 */
export function limitedAuth(ctx: CheckContext): { bearer: string; variable: string } {
  const bearer = ctx.fixtures.ledgerLimitedToken ?? '';
  return { bearer, variable: ctx.credentialVariable(bearer) ?? LIMITED_TOKEN_VARIABLE };
}

export function postUpdates(ctx: CheckContext, requestBody: unknown, query?: Query, auth?: RequestOptions['auth']): Promise<Exchange> {
  return ctx.ledger.post(UPDATES_PATH, requestBody, { query, auth });
}

/** An open-ended read from the start of the ledger that ends `limit` elements in, or when idle. */
export function openRead(ctx: CheckContext, format: Json, limit?: number, auth?: RequestOptions['auth'], extra: Json = {}): Promise<Exchange> {
  return postUpdates(ctx, body({ beginExclusive: 0 }, format, extra), { limit, stream_idle_timeout_ms: IDLE_MS }, auth);
}

/** The elements of an HTTP answer that must be a 200 JSON array (for the rules of the endpoint's statuses and query parameters). */
export function elementsOf(ctx: CheckContext, x: Exchange): Json[] {
  ctx.expect(x).status(200);
  const els = ctx.expect(x).json();
  if (!Array.isArray(els)) ctx.expect(x).fail('the 200 answer of the update stream is not a JSON array');
  return els as Json[];
}

/** A read of the update stream as a rule judges it: its elements, and the exchange that carried them as evidence. */
export interface UpdatesRead {
  els: Json[];
  /** Cite it (ctx.fail); which transport carried the read is not the rule's concern. */
  x: Citable;
}

/**
 * A bounded read that must succeed; its elements. Windows lie within the sampled part of the stream, but a
 * read with another format (ledger effects, other kinds) may hold more elements than the sample, so a 413
 * is the node's list limit speaking, not a broken rule: the requirement cannot run this window.
 */
export async function readWindow(ctx: CheckContext, w: Window, format: Json, extra: Json = {}): Promise<UpdatesRead> {
  if (ctx.transport === 'websocket') {
    const { els, cite } = await channelRead(ctx, body(w, format, extra), 'bounded');
    return { x: cite, els };
  }
  const x = await postUpdates(ctx, body(w, format, extra));
  if (x.status === 413) ctx.skip(`the read of (${w.beginExclusive}, ${w.endInclusive}] exceeds the node's list limit (413)`);
  return { x, els: elementsOf(ctx, x) };
}

/**
 * A read whose status the rule judges (a refusal it expects, a list limit it skips on), on the check's transport:
 * the HTTP answer, or the channel's (see channelAnswer). `els` only for a 200 with a JSON array of elements.
 */
export interface StreamAnswer {
  status: number;
  x: Citable;
  els?: Json[];
  /** The answer in a few words, for reasons. */
  said: string;
}

export async function readRequest(ctx: CheckContext, requestBody: Json): Promise<StreamAnswer> {
  if (ctx.transport === 'websocket') return channelAnswer(ctx, requestBody);
  const x = await postUpdates(ctx, requestBody);
  return { status: x.status, x, said: describeAnswer(x), ...(x.status === 200 ? { els: elementsOf(ctx, x) } : {}) };
}

/** The elements of an answer that must be a 200 with them (over HTTP judged as elementsOf judges it). */
export function answerElements(ctx: CheckContext, a: StreamAnswer): Json[] {
  if (a.els) return a.els;
  if (ctx.transport === 'http') return elementsOf(ctx, a.x as Exchange);
  return ctx.expect(a.x).fail(`the WebSocket stream answered ${a.said}, not the stream of the read`);
}

// ---------------------------------------------------------------------------------------------------
// Reading elements
// ---------------------------------------------------------------------------------------------------

/** The update kind of an element (its first key), or undefined when it has none. */
export function kindOf(e: unknown): string | undefined {
  const u = isObject(e) ? e.update : undefined;
  return isObject(u) ? Object.keys(u)[0] : undefined;
}

/** The record of an element (`update.<Kind>.value`), or undefined. */
export function recordOf(e: unknown): Json | undefined {
  const k = kindOf(e);
  const v = k === undefined ? undefined : (e as Json).update[k];
  return isObject(v) && isObject(v.value) ? v.value : undefined;
}

export function offsetOf(e: unknown): number | undefined {
  const o = recordOf(e)?.offset;
  return typeof o === 'number' ? o : undefined;
}

/** Where the next page of a stream read begins: after its last offset; undefined after the last page (short, or no progress). */
export function nextBegin(els: Json[], begin: number, pageSize: number): number | undefined {
  const last = Math.max(begin, ...els.map(offsetOf).filter((o): o is number => o !== undefined));
  return els.length < pageSize || last <= begin ? undefined : last;
}

export const isCheckpoint = (e: unknown) => kindOf(e) === 'OffsetCheckpoint';

/** Identity of a non-checkpoint update: kind, offset and update id. */
export const updateKey = (e: unknown) => `${kindOf(e)}@${offsetOf(e)}#${recordOf(e)?.updateId}`;

/** Identities of the updates of an answer, checkpoints left out (a node may place those as it likes). */
export function updateKeys(els: Json[], inWindow?: Window): string[] {
  return els
    .filter((e) => !isCheckpoint(e))
    .filter((e) => !inWindow || within(offsetOf(e), inWindow))
    .map(updateKey)
    .sort();
}

/** The same identities in answer order (a limited read is judged by its order). */
export const orderedUpdateKeys = (els: Json[]): string[] => els.filter((e) => !isCheckpoint(e)).map(updateKey);

export function within(offset: number | undefined, w: Window): boolean {
  return offset !== undefined && offset > w.beginExclusive && (w.endInclusive === undefined || offset <= w.endInclusive);
}

/** JSON pointer into the record of element `i` of an answer: `/i/update/<Kind>/value/...rest`. */
export const recordPointer = (i: number, e: unknown, ...rest: Array<string | number>) => pointer(i, 'update', String(kindOf(e)), 'value', ...rest);

export interface FlatEvent {
  /** Index of the element in the answer. */
  index: number;
  /** Event kind: CreatedEvent, ArchivedEvent, ExercisedEvent (transactions), JsAssignmentEvent, JsUnassignedEvent. */
  kind: string;
  /** The event record (for an assignment: its createdEvent). */
  ev: Json;
  /** The update record carrying it. */
  record: Json;
  /** JSON pointer of the event record in the answer. */
  pointer: string;
  from: 'Transaction' | 'Reassignment';
}

/** Every event of the transactions and reassignments of an answer. */
export function eventsOf(els: Json[]): FlatEvent[] {
  const out: FlatEvent[] = [];
  els.forEach((e, index) => {
    const kind = kindOf(e);
    const record = recordOf(e);
    if (!record || !Array.isArray(record.events) || (kind !== 'Transaction' && kind !== 'Reassignment')) return;
    record.events.forEach((wrapped: unknown, j: number) => {
      if (!isObject(wrapped)) return;
      const evKind = Object.keys(wrapped)[0];
      if (evKind === undefined) return;
      const at = recordPointer(index, e, 'events', j, evKind);
      const inner = wrapped[evKind];
      if (!isObject(inner)) return;
      if (evKind === 'JsAssignmentEvent') {
        if (isObject(inner.createdEvent))
          out.push({ index, kind: evKind, ev: inner.createdEvent, record, pointer: appendPointer(at, 'createdEvent'), from: kind });
      } else if (evKind === 'JsUnassignedEvent') {
        if (isObject(inner.value)) out.push({ index, kind: evKind, ev: inner.value, record, pointer: appendPointer(at, 'value'), from: kind });
      } else {
        out.push({ index, kind: evKind, ev: inner, record, pointer: at, from: kind });
      }
    });
  });
  return out;
}

/**
 * Identity of an event whoever reads it: update offset, event kind, contract and node id (witnessParties,
 * which name the requesting parties, are left aside).
 */
export const eventKey = (e: FlatEvent) => `${e.record.offset}/${e.kind}/${e.ev.contractId}/${e.ev.nodeId}`;

export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

// ---------------------------------------------------------------------------------------------------
// Sampling the stream for real offsets
// ---------------------------------------------------------------------------------------------------

export interface Sample {
  parties: string[];
  /** The first elements of the stream for `parties` (every kind, ACS-delta transactions). */
  elements: Json[];
  /** The read that gave them, to cite. */
  exchange: Citable;
  /** Distinct offsets of those elements, ascending. */
  offsets: number[];
}

/**
 * Reads the first SAMPLE_SIZE elements of the stream for the ledger parties, so that windows can be chosen
 * among offsets that exist (an endInclusive beyond the ledger end may be refused). A 413 means the node's
 * list limit is below the size asked: smaller sizes are tried. Anything else that is not a 200 leaves the
 * requirement unable to run (skipped with that answer), rather than failed for another rule.
 */
export async function sampleStream(ctx: CheckContext, minOffsets = 3): Promise<Sample> {
  const parties = readParties(ctx);
  if (ctx.transport === 'websocket') {
    // The channel has no list limit and no limit parameter: the client stops once it holds the sample.
    const { els, cite } = await channelSample(ctx, body({ beginExclusive: 0 }, updateFormat(parties)), SAMPLE_SIZE);
    return sampled(ctx, parties, els, cite, minOffsets);
  }
  let x: Exchange | undefined;
  for (const size of [SAMPLE_SIZE, 50, 20, 10]) {
    x = await openRead(ctx, updateFormat(parties), size);
    if (x.status !== 413) break;
  }
  if (x!.status !== 200) ctx.skip(`could not sample the update stream of the ledger parties: ${describeAnswer(x!)}`, { exchange: x });
  const els = ctx.expect(x!).json();
  if (!Array.isArray(els)) ctx.skip('could not sample the update stream: the answer is not a JSON array', { exchange: x });
  return sampled(ctx, parties, els as Json[], x!, minOffsets);
}

/** The sample of the stream's first elements, once read over either transport. */
function sampled(ctx: CheckContext, parties: string[], els: Json[], x: Citable, minOffsets: number): Sample {
  const offsets = [...new Set((els as Json[]).map(offsetOf).filter((o): o is number => o !== undefined))].sort((a, b) => a - b);
  // Windows are built from these offsets and sent back: one that a double does not hold exactly would be sent
  // back rounded, asking for another window than the one judged (engine/int64.ts).
  if (!exactIntegers(...offsets))
    ctx.skip(`the update stream has offsets beyond 2^53 (${offsets.find((o) => !Number.isSafeInteger(o))}), which this suite cannot send back exactly`);
  if (offsets.length < minOffsets)
    ctx.skip(`the update stream of the ledger parties has only ${offsets.length} element offset(s); at least ${minOffsets} are needed`);
  return { parties, elements: els, exchange: x, offsets };
}

/** The window (0, last sampled offset]: every sampled element, bounded. */
export const sampleWindow = (s: Sample): Window => ({ beginExclusive: 0, endInclusive: s.offsets.at(-1)! });

/**
 * Windows (offsets[i], offsets[j]] of at most `maxSpan` sampled offsets. `beginAtOffset` keeps the begin on
 * an existing offset (never 0); `leaveTail` keeps at least one sampled offset after the end.
 */
export function windowArb(s: Sample, o: { beginAtOffset?: boolean; leaveTail?: boolean; maxSpan?: number } = {}): fc.Arbitrary<Window> {
  const n = s.offsets.length;
  const lastEnd = o.leaveTail ? n - 2 : n - 1;
  const firstBegin = o.beginAtOffset ? 0 : -1;
  return fc.tuple(fc.integer({ min: firstBegin, max: lastEnd - 1 }), fc.integer({ min: 1, max: o.maxSpan ?? 30 })).map(([i, span]) => ({
    beginExclusive: i < 0 ? 0 : s.offsets[i]!,
    endInclusive: s.offsets[Math.min(i + span, lastEnd)]!,
  }));
}

/** Three offsets a < b < c among the sampled ones (a may be 0), for window composition. */
export function splitArb(s: Sample): fc.Arbitrary<[number, number, number]> {
  const n = s.offsets.length;
  const at = (i: number) => (i < 0 ? 0 : s.offsets[i]!);
  return fc.tuple(fc.integer({ min: -1, max: n - 3 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 })).map(([i, l1, l2]) => {
    const j = Math.min(i + l1, n - 2);
    const k = Math.min(j + l2, n - 1);
    return [at(i), at(j), at(k)] as [number, number, number];
  });
}
