// The node's list limit probed at its bound, one below and one above (description/bounds.ts).
//
// From outside, a node that refuses a result of exactly its list limit L (">=" for "exceeds") answers like a
// correct node whose limit is L-1, so LEDGER-UPDATES-LIST-LIMIT-413, which brackets the bound by its answers,
// cannot tell them apart. With the limit the operator set (fixtures.ledgerListLimit) the description fixes
// every side: a `limit` of L-1 or L is honoured and can never make a result beyond the list limit, one of L+1
// is ignored; a result of L-1 or L elements is answered 200, one of L+1 is refused with 413.
import type { Json } from '../../../common/json.ts';
import type { CheckContext } from '../../../engine/model.ts';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { describeAnswer, type Exchange } from '../../../engine/transport/http.ts';
import {
  IDLE_MS,
  OPERATION,
  body,
  elementsOf,
  offsetOf,
  openRead,
  postUpdates,
  readParties,
  updateFormat,
  updateKeys,
} from '../../../interfaces/ledger/updates.ts';

const setting = (limit: number) => `the list limit ${limit} (fixtures.ledgerListLimit)`;

/** The first element after `offset` (offsets of the stream never decrease, so it starts the next offset). */
async function nextOffset(ctx: CheckContext, format: Json, offset: number): Promise<number | undefined> {
  const x = await postUpdates(ctx, body({ beginExclusive: offset }, format), { limit: 1, stream_idle_timeout_ms: IDLE_MS });
  if (x.status !== 200) ctx.skip(`could not read on after offset ${offset} with limit=1: ${describeAnswer(x)}`, { exchange: x });
  return elementsOf(ctx, x)
    .map(offsetOf)
    .find((o) => o !== undefined);
}

/**
 * How many elements (0, end] holds at most, proven by the node's own answers to reads a list limit cannot
 * refuse: the window read with limit=listLimit holds the whole result when it stops short of the limit, and
 * when it does not, a descending read with limit=1 that ends on its last element shows nothing follows it.
 * Undefined when the answers prove nothing (a node that breaks the limit or the order is judged elsewhere).
 */
async function provenCount(ctx: CheckContext, format: Json, end: number, listLimit: number): Promise<number | undefined> {
  const w = { beginExclusive: 0, endInclusive: end };
  const up = await postUpdates(ctx, body(w, format), { limit: listLimit });
  if (up.status !== 200) return undefined;
  const els = ctx.expect(up).json<unknown>();
  if (!Array.isArray(els)) return undefined;
  if (els.length < listLimit) return els.length;
  if (els.length > listLimit) return undefined;
  const down = await postUpdates(ctx, body(w, format, { descendingOrder: true }), { limit: 1 });
  if (down.status !== 200) return undefined;
  const last = ctx.expect(down).json<unknown>();
  return Array.isArray(last) && last.length === 1 && JSON.stringify(last[0]) === JSON.stringify(els.at(-1)) ? els.length : undefined;
}

/**
 * A 200 to the read of (0, end] answers for the whole window: it holds every update the node showed there in
 * another answer (`shown`, the read from 0 with limit=listLimit). One that leaves some out is no answer to
 * the read, whatever its count (an empty 200 in place of a 413 included).
 */
function expectWhole(ctx: CheckContext, x: Exchange, shown: Json[], end: number, what: string): void {
  const held = new Set(updateKeys(elementsOf(ctx, x)));
  const missing = updateKeys(shown, { beginExclusive: 0, endInclusive: end }).filter((k) => !held.has(k));
  if (missing.length)
    ctx
      .expect(x)
      .fail(
        `${what} was answered 200 without ${missing.length} update(s) of the window that the read from 0 with a limit showed (${missing.slice(0, 3).join(', ')}): ` +
          'a 200 carries the whole result; a result beyond the list limit is refused with 413, not cut',
      );
}

/** A read of (0, end] that must not be refused: a 413 is a failure once the window is proven within the limit. */
async function expectServed(ctx: CheckContext, format: Json, end: number, listLimit: number, side: string, shown: Json[]): Promise<void> {
  const x = await postUpdates(ctx, body({ beginExclusive: 0, endInclusive: end }, format));
  if (x.status === 200) return expectWhole(ctx, x, shown, end, `the read of (0, ${end}] (${side})`);
  const what = `the read of (0, ${end}] (${side})`;
  if (x.status !== 413) ctx.expect(x).fail(`${what} was answered ${describeAnswer(x)}: a result within ${setting(listLimit)} is answered 200`);
  const count = await provenCount(ctx, format, end, listLimit);
  if (count === undefined) ctx.skip(`${what} was refused with 413 and the limited reads of it prove no count within ${setting(listLimit)}`, { exchange: x });
  ctx
    .expect(x)
    .fail(
      `${what} was refused with 413, but it holds ${count} elements (its limited reads show), which does not exceed ${setting(listLimit)}: 413 is only for a result count beyond it`,
    );
}

/** A judgment of the answer to a `limit` at or around the list limit: 200 or 413, never more elements than due. */
function judgeLimited(ctx: CheckContext, x: Exchange, limit: number, listLimit: number): void {
  const honoured = limit <= listLimit;
  if (x.status === 413 && honoured)
    ctx
      .expect(x)
      .fail(
        `limit=${limit} is not above ${setting(listLimit)}, so it is honoured and the result holds at most ${limit} elements, which does not exceed the list limit: 413 is only for a result count beyond it`,
      );
  if (x.status === 413) return;
  const els = elementsOf(ctx, x);
  if (honoured && els.length > limit) ctx.expect(x).fail(`limit=${limit} (not above ${setting(listLimit)}) returned ${els.length} elements`, `/${limit}`);
  if (!honoured && els.length > listLimit)
    ctx
      .expect(x)
      .fail(
        `limit=${limit} is above ${setting(listLimit)}, so it is ignored, and the answer of ${els.length} elements exceeds the list limit: it must be refused with 413`,
        `/${listLimit}`,
      );
}

// The list limit bounds how many elements an answer has, whatever the format selected them: the probes at it
// are made in one format (each variant would repeat reads of hundreds of elements).
const ANY_FORMAT = {
  'transaction-shape': 'the list limit bounds how many elements an answer has (A.updates.3, X.limits.1), not their shape',
  parties: 'the list limit bounds how many elements an answer has (A.updates.3, X.limits.1), not whose they are',
  cumulative: 'the list limit bounds how many elements an answer has (A.updates.3, X.limits.1), not which filter entries selected them',
};

export const LIST_LIMIT_BOUND_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], variants: ANY_FORMAT },
  [
    rule({
      id: 'LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT',
      cites: ['A.updates.2', 'A.updates.3', 'A.updates.10', 'X.limits.2'],
      needs: ['ledgerParties', 'ledgerListLimit'],
      tags: ['limits', 'bounds'],
      async check(ctx) {
        const listLimit = ctx.fixtures.ledgerListLimit;
        const format = updateFormat(readParties(ctx));
        // At the bound, one below it (when there is a valid limit below it) and one above it. At it first: the
        // reads below and above then ask for a part of what the node has already shown, whatever ran before.
        const limits = [listLimit, listLimit - 1, listLimit + 1].filter((l) => l >= 1);
        const reads: Array<{ limit: number; x: Exchange }> = [];
        for (const limit of limits) reads.push({ limit, x: await openRead(ctx, format, limit) });
        // No read from offset 0 answered at all (every one refused alike, e.g. the token): not this rule's. Else
        // any other status than 200 or 413, at the bound or on either side of it, breaks it.
        const answered = (x: Exchange) => x.status === 200 || x.status === 413;
        if (!reads.some((r) => answered(r.x))) ctx.expect(reads[0]!.x).skipUnless([200, 413], 'a read from offset 0');
        for (const { limit, x } of reads) {
          if (!answered(x))
            ctx.expect(x).fail(`limit=${limit} was answered ${describeAnswer(x)}: the answer is 200, or 413 for a result beyond ${setting(listLimit)}`);
          judgeLimited(ctx, x, limit, listLimit);
        }
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-LIST-LIMIT-AT-BOUND',
      cites: ['A.updates.10', 'X.errors.2', 'X.limits.1'],
      needs: ['ledgerParties', 'ledgerListLimit'],
      tags: ['limits', 'errors', 'bounds'],
      async check(ctx) {
        const listLimit = ctx.fixtures.ledgerListLimit;
        if (listLimit < 2) ctx.skip(`${setting(listLimit)} leaves no window one below it`);
        const format = updateFormat(readParties(ctx));
        // The first listLimit elements (a limit of the list limit is honoured; a 413 here is the limit rule's).
        const first = await openRead(ctx, format, listLimit);
        ctx.expect(first).skipUnless([200], `the read from offset 0 with limit=${listLimit}`);
        const shown = elementsOf(ctx, first);
        const offsets = shown.map(offsetOf);
        const [below, at] = [offsets.at(-2), offsets.at(-1)];
        if (offsets.length < listLimit || below === undefined || at === undefined || !(below < at))
          return ctx.skip(`the first ${offsets.length} elements of the stream leave no windows of ${listLimit - 1} and ${listLimit} elements to read`);
        if (!Number.isSafeInteger(at)) ctx.skip(`the update stream has offsets beyond 2^53 (${at}), which this suite cannot send back exactly`);
        // One below and at the bound: windows ending on the last two of them, each answered 200.
        await expectServed(ctx, format, below, listLimit, `one element below ${setting(listLimit)}`, shown);
        await expectServed(ctx, format, at, listLimit, `exactly ${setting(listLimit)}`, shown);
        // One above: the window on to the next element holds those and one more; 200 only within the limit.
        const over = await nextOffset(ctx, format, at);
        if (over === undefined)
          return ctx.skip(`the update stream of the ledger parties ends within ${listLimit + 1} elements: no window beyond ${setting(listLimit)}`);
        const x = await postUpdates(ctx, body({ beginExclusive: 0, endInclusive: over }, format));
        if (x.status === 413) return;
        if (x.status !== 200)
          ctx
            .expect(x)
            .fail(
              `the read of (0, ${over}], one element beyond the first ${listLimit}, was answered ${describeAnswer(x)}: the answer is 200 within ${setting(listLimit)}, else 413`,
            );
        const els = elementsOf(ctx, x);
        if (els.length > listLimit)
          ctx
            .expect(x)
            .fail(
              `the read of (0, ${over}] was answered 200 with ${els.length} elements, a result count beyond ${setting(listLimit)}: it must be refused with 413`,
              `/${listLimit}`,
            );
        expectWhole(ctx, x, shown, over, `the read of (0, ${over}], one element beyond the first ${listLimit},`);
      },
    }),
  ],
);
