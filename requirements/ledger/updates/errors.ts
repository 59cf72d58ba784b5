// Rejections of the update stream: invalid requests are 400 with a plain-text body, the legacy `filter`
// next to `updateFormat` is refused, and every other error status carries a JsCantonError.
import { isObject } from '../../../common/json.ts';
import { tooLarge, type Exchange } from '../../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  IDLE_MS,
  limitedAuth,
  OPERATION,
  UPDATES_PATH,
  body,
  byParties,
  openRead,
  postUpdates,
  readParties,
  updateFormat,
} from '../../../interfaces/ledger/updates.ts';

/** Requests the description calls invalid (query parameters that are not integers, bodies that are not a request). */
function invalidRequests(ctx: CheckContext): Array<{ label: string; send: () => Promise<Exchange> }> {
  const good = body({ beginExclusive: 0 }, updateFormat(readParties(ctx)));
  const withQuery = (query: Record<string, string | number>) => () => postUpdates(ctx, good, query);
  const raw = (text: string) => () =>
    ctx.ledger.request('POST', UPDATES_PATH, { rawBody: text, contentType: 'application/json', query: { limit: 1, stream_idle_timeout_ms: IDLE_MS } });
  return [
    ...['ten', '1.5', '0x10'].map((v) => ({ label: `limit=${v}`, send: withQuery({ limit: v, stream_idle_timeout_ms: IDLE_MS }) })),
    ...['soon', '2.5'].map((v) => ({ label: `stream_idle_timeout_ms=${v}`, send: withQuery({ limit: 1, stream_idle_timeout_ms: v }) })),
    // Just below the bound of "beginExclusive: Non-negative" (0 itself is LEDGER-UPDATES-BEGIN-ZERO-START's probe).
    {
      label: 'beginExclusive -1 (it must be non-negative)',
      send: () => postUpdates(ctx, body({ beginExclusive: -1 }, updateFormat(readParties(ctx))), { limit: 1, stream_idle_timeout_ms: IDLE_MS }),
    },
    { label: 'a body that is not JSON', send: raw('{"beginExclusive": 0,') },
    { label: 'a body that is a JSON array', send: raw('[1, 2]') },
  ];
}

/**
 * Problems of a JsCantonError body: required code, cause, context, errorCategory; typed optional fields. An
 * optional field sent as null is read as absent (Canton's own error example does so; whether null is fine is
 * LEDGER-ANSWERS-NULL-FOR-ABSENT's question, a SHOULD).
 */
export function cantonErrorProblems(text: string): Array<{ problem: string; pointer: string }> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [{ problem: 'the body is not JSON', pointer: '' }];
  }
  if (!isObject(v)) return [{ problem: 'the body is not a JSON object', pointer: '' }];
  const out: Array<{ problem: string; pointer: string }> = [];
  const need = (field: string, ok: (x: unknown) => boolean, what: string, required: boolean) => {
    if (v[field] === undefined || (v[field] === null && !required)) {
      if (required) out.push({ problem: `required field ${field} is missing`, pointer: `/${field}` });
    } else if (!ok(v[field])) out.push({ problem: `${field} is not ${what}`, pointer: `/${field}` });
  };
  const str = (x: unknown) => typeof x === 'string';
  const int = (x: unknown) => Number.isInteger(x);
  need('code', str, 'a string', true);
  need('cause', str, 'a string', true);
  need('context', (x) => isObject(x) && Object.values(x).every(str), 'a map of strings', true);
  need('errorCategory', int, 'an integer', true);
  need('correlationId', str, 'a string', false);
  need('traceId', str, 'a string', false);
  need('resources', (x) => Array.isArray(x) && x.every((r) => Array.isArray(r) && r.length === 2 && r.every(str)), 'an array of 2-string arrays', false);
  need('grpcCodeValue', int, 'an integer', false);
  need('retryInfo', str, 'a string', false);
  need('definiteAnswer', (x) => typeof x === 'boolean', 'a boolean', false);
  return out;
}

/**
 * Every rule here judges a refusal (its status, its body), which comes before any update is selected: the
 * format's shape, parties and filter entries pick events of an accepted read and do not enter a refusal.
 */
const REFUSED = 'a refusal (status and body of an invalid, unauthenticated or limited request) is answered before any event is selected';
const VARIANTS = {
  'transaction-shape': `${REFUSED}: the shape only selects the events of an accepted read`,
  parties: `${REFUSED}: the party mode only selects whose events an accepted read holds (who may read is LEDGER-UPDATES-READ-RIGHTS')`,
  cumulative: `${REFUSED}: the cumulative entries only widen the events an accepted read holds`,
};

export const ERROR_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [OPERATION], variants: VARIANTS }, [
  rule({
    id: 'LEDGER-UPDATES-FILTER-WITH-FORMAT-REJECTED',
    cites: ['R.ledger.11'],
    needs: ['ledgerParties'],
    tags: ['validation'],
    async check(ctx) {
      const parties = readParties(ctx);
      const x = await openRead(ctx, updateFormat(parties), 1, undefined, { filter: byParties(parties) });
      ctx.expect(x, 'a request with both filter and updateFormat is invalid').status(400);
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-INVALID-REQUEST-400',
    cites: ['R.ledger.2', 'A.updates.5', 'A.updates.7', 'X.errors.1'],
    needs: ['ledgerParties'],
    tags: ['validation', 'errors'],
    async check(ctx) {
      for (const r of invalidRequests(ctx)) ctx.expect(await r.send(), `${r.label} is invalid`).status(400);
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-400-TEXT-PLAIN',
    cites: ['A.updates.8', 'X.errors.1'],
    needs: ['ledgerParties'],
    tags: ['errors'],
    async check(ctx) {
      let judged = 0;
      for (const r of invalidRequests(ctx)) {
        const x = await r.send();
        if (x.status !== 400) continue; // whether it is refused at all is LEDGER-UPDATES-INVALID-REQUEST-400's question
        judged++;
        const type = x.headers['content-type'] ?? '';
        if (!/^text\/plain\b/i.test(type)) ctx.expect(x).fail(`400 for ${r.label} has content type '${type}', not text/plain`);
      }
      if (judged === 0) ctx.skip('no invalid request was answered 400, so no 400 body could be judged');
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-ERROR-BODY',
    cites: ['R.ledger.41', 'R.ledger.42', 'A.updates.9', 'X.errors.3'],
    needs: ['ledgerParties'],
    tags: ['errors'],
    async check(ctx) {
      // Errors that can be provoked without changing anything: no credentials, a party the limited user may
      // not read as, and a read of everything without limit (413 when over the list limit). Whichever of
      // them the target answers with an error status other than 400 is judged.
      const parties = readParties(ctx);
      const format = updateFormat(parties);
      const probes: Exchange[] = [await openRead(ctx, format, 1, 'none')];
      const { ledgerLimitedToken: token, ledgerForbiddenParty: forbidden } = ctx.fixtures;
      if (token && forbidden) probes.push(await openRead(ctx, updateFormat([forbidden], ['transactions']), 1, limitedAuth(ctx)));
      probes.push(await openRead(ctx, format));
      const errors = probes.filter((x) => x.status >= 400 && x.status !== 400);
      if (errors.length === 0) ctx.skip('none of the probes (no credentials, a forbidden party, a read without limit) was answered with an error status');
      for (const x of errors) {
        if (x.truncated) ctx.expect(x).fail(tooLarge(x));
        const problems = cantonErrorProblems(x.text);
        if (problems.length)
          ctx.expect(x).fail(`${x.status} answer is not a JsCantonError: ${problems.map((p) => p.problem).join('; ')}`, problems[0]!.pointer);
      }
    },
  }),
]);
