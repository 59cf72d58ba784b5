// The `limit` query parameter and the node's list limit (`http-list-max-elements-limit`).
//
// The list limit of a target is not known, but the description fixes how the two interact, and that is
// enough for a sound check: a limit no bigger than the list limit is honoured (at most `limit` elements);
// a bigger one is ignored, and then the whole result must fit the list limit or be refused with 413. Either
// way, a 200 answer never carries more than `limit` elements. Small limits (surely within any list limit)
// test the honouring; doubling limits find where the node stops honouring them, which is where 413 must
// take over (any other status fails, and so does a 200 cut short, shown on a bounded window). Limits also
// only cut the stream: a smaller one returns a prefix of what a larger one returns.
import fc from 'fast-check';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { parseJson, type Json } from '../../../common/json.ts';
import { describeAnswer } from '../../../engine/transport/http.ts';
import type { CheckContext } from '../../../engine/model.ts';
import {
  IDLE_MS,
  OPERATION,
  body,
  elementsOf,
  isCheckpoint,
  offsetOf,
  openRead,
  orderedUpdateKeys,
  postUpdates,
  readParties,
  sampleStream,
  sampleWindow,
  updateFormat,
  updateKeys,
  windowArb,
} from '../../../interfaces/ledger/updates.ts';
import { passOverRefused, propertyOverVariants, readVariant, streamVariants } from '../../../interfaces/ledger/stream-variants.ts';

/** Limits tried by the 413 check: 16, 32, ... up to 65536. */
const DOUBLING_START = 16;
const DOUBLING_END = 65_536;

export const LIMIT_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [OPERATION] }, [
  rule({
    id: 'LEDGER-UPDATES-LIMIT',
    cites: ['A.updates.2', 'X.limits.2'],
    needs: ['ledgerParties'],
    tags: ['limits'],
    async check(ctx) {
      // In each variant of the read (shape, parties, filter entries): a limit counts what the format selected.
      // A few first elements only give the template of the variant with two filter entries (none when the read
      // is refused: a node ignoring limits may answer it 413, which this rule judges below, not here).
      const parties = readParties(ctx);
      const first = await openRead(ctx, updateFormat(parties), 20);
      const shown = first.status === 200 ? parseJson(first.text) : undefined;
      await propertyOverVariants(
        ctx,
        streamVariants({ parties, elements: Array.isArray(shown) ? shown : [] }),
        fc.integer({ min: 1, max: 20 }),
        async (v, limit) => {
          const format = v.format();
          const x = await openRead(ctx, format, limit);
          passOverRefused(v, x);
          ctx.expect(x).skipUnless([200, 413], 'a read from offset 0');
          if (x.status === 413) {
            // Only legitimate when `limit` exceeds the list limit; a limit of 1 never can.
            const one = await openRead(ctx, format, 1);
            if (one.status === 413) ctx.expect(one).fail(`${v.prefix}limit=1 is answered 413: the limit was not applied (no list limit is below 1)`);
            return;
          }
          const els = elementsOf(ctx, x);
          if (els.length > limit) ctx.expect(x).fail(`${v.prefix}limit=${limit} returned ${els.length} elements`, `/${limit}`);
        },
      );
      // At the count of a bounded window of N elements: limits N-1, N and N+1 (description/bounds.ts).
      const s = await sampleStream(ctx);
      const w = sampleWindow(s);
      const format = updateFormat(parties);
      const whole = await postUpdates(ctx, body(w, format));
      if (whole.status !== 200) return; // a window the list limit refuses: the property above judged the limit
      const n = elementsOf(ctx, whole).length;
      for (const limit of [n - 1, n, n + 1].filter((l) => l >= 1)) {
        const x = await postUpdates(ctx, body(w, format), { limit });
        const els = elementsOf(ctx, x);
        if (els.length > limit)
          ctx
            .expect(x)
            .fail(`limit=${limit} on (${w.beginExclusive}, ${w.endInclusive}], a window of ${n} elements, returned ${els.length} elements`, `/${limit}`);
      }
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-LIST-LIMIT-413',
    cites: ['A.updates.3', 'A.updates.10', 'X.errors.2', 'X.limits.1', 'X.limits.2'],
    needs: ['ledgerParties'],
    tags: ['limits', 'errors'],
    // The walk to the list limit (up to 13 doubling reads and a bisection) is made in one format: the bound
    // is on the number of elements of an answer, which a format changes only by selecting other elements.
    variants: {
      'transaction-shape': 'the list limit bounds how many elements an answer has (A.updates.3, X.limits.1), not their shape',
      parties: 'the list limit bounds how many elements an answer has (A.updates.3, X.limits.1), not whose they are',
      cumulative: 'the list limit bounds how many elements an answer has (A.updates.3, X.limits.1), not which filter entries selected them',
    },
    async check(ctx) {
      const format = updateFormat(readParties(ctx));
      // Every answer beyond the first: 200 (the limit honoured, or the whole result) or 413; nothing else.
      const read = async (limit: number, honoured: number | undefined) => {
        const x = await openRead(ctx, format, limit);
        if (honoured === undefined) ctx.expect(x).skipUnless([200, 413], 'a read from offset 0');
        else if (x.status !== 200 && x.status !== 413)
          ctx
            .expect(x)
            .fail(`limit=${honoured} was answered 200, but limit=${limit} was answered ${describeAnswer(x)}: a result beyond the list limit is answered 413`);
        return x;
      };
      let honoured: number | undefined;
      /** The elements of the answer to the last honoured limit: the start of the stream, which a later 200 must hold. */
      let shown: Json[] = [];
      let over: number | undefined;
      for (let limit = DOUBLING_START; limit <= DOUBLING_END && over === undefined; limit *= 2) {
        const x = await read(limit, honoured);
        if (x.status === 413) over = limit;
        else if (x.truncated)
          return; // too large for this run to read
        else {
          const els = elementsOf(ctx, x);
          if (els.length > limit) {
            // Not honouring the very first (small) limit is the limit rule's concern, not this one's.
            if (honoured === undefined) ctx.skip(`limit=${limit} was not honoured (${els.length} elements); see LEDGER-UPDATES-LIMIT`);
            ctx
              .expect(x)
              .fail(
                `limit=${honoured} was honoured but limit=${limit} returned ${els.length} elements: a limit the node ignores is above its list limit, ` +
                  `so a result of more than ${limit} elements exceeds the list limit and must be answered 413`,
              );
          }
          // Fewer than asked: the whole result, unless the node cut it short (judged on a bounded window).
          if (els.length < limit) return expectNotTruncated(ctx, format, [...shown, ...els], honoured);
          honoured = limit;
          shown = els;
        }
      }
      if (over === undefined || honoured === undefined) return;
      // Between the last honoured limit and the first refused one lies the list limit: bisecting to it probes
      // limits just below, at and just above it, each answer judged by \`read\` (200 or 413, nothing else).
      let [lo, hi] = [honoured, over];
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if ((await read(mid, lo)).status === 413) hi = mid;
        else lo = mid;
      }
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-LIMIT-PREFIX',
    cites: ['R.ledger.19', 'A.updates.2'],
    needs: ['ledgerParties'],
    tags: ['limits', 'order'],
    async check(ctx) {
      const s = await sampleStream(ctx);
      let judged = 0;
      const pick = fc.tuple(windowArb(s, { maxSpan: 20 }), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 12 }), fc.boolean());
      await propertyOverVariants(ctx, streamVariants(s), pick, async (v, [w, small, step, descendingOrder]) => {
        const format = v.format();
        const order = descendingOrder ? { descendingOrder } : {};
        // The limits stay far below any list limit, so both are honoured; the whole window is the largest read.
        const reads = [];
        for (const limit of [small, small + step]) {
          const x = await postUpdates(ctx, body(w, format, order), { limit });
          passOverRefused(v, x);
          reads.push({ label: `limit=${limit}`, x });
        }
        const whole = await readVariant(ctx, v, w, undefined, undefined, order);
        const keys = [
          ...reads.map((r) => ({ ...r, keys: orderedUpdateKeys(elementsOf(ctx, r.x)) })),
          { label: 'no limit', x: whole.x, keys: orderedUpdateKeys(whole.els) },
        ];
        for (let i = 1; i < keys.length; i++) {
          const [shorter, longer] = [keys[i - 1]!, keys[i]!];
          judged += shorter.keys.length;
          const at = shorter.keys.findIndex((k, j) => longer.keys[j] !== k);
          if (at >= 0)
            ctx
              .expect(longer.x)
              .fail(
                `${v.prefix}${descendingOrder ? 'descending ' : ''}reads of (${w.beginExclusive}, ${w.endInclusive}] disagree: update ${at} is ${shorter.keys[at]} with ${shorter.label} but ${longer.keys[at] ?? 'absent'} with ${longer.label}`,
              );
        }
      });
      if (judged === 0) ctx.skip('the limited reads of the sampled windows held no update to compare');
    },
  }),
]);

/**
 * A 200 with fewer elements than an ignored limit is the whole result, or a result the node cut at its list
 * limit without saying so (down to nothing at all). `els` is what the reads from 0 showed: the honoured
 * limit's answer and this one's. The stream goes on after the last offset they show if the node cut it; the
 * window from 0 to an offset read there is bounded (a live ledger cannot grow it), and must come whole (every
 * update shown in it) or as 413.
 */
async function expectNotTruncated(ctx: CheckContext, format: Json, els: Json[], honoured: number | undefined): Promise<void> {
  const last = els
    .map(offsetOf)
    .filter((o) => o !== undefined)
    .reduce<number | undefined>((a, b) => (a === undefined || b > a ? b : a), undefined);
  if (honoured === undefined || last === undefined) return; // no limit known to be honoured to page on with
  const after = await postUpdates(ctx, body({ beginExclusive: last }, format), { limit: honoured, stream_idle_timeout_ms: IDLE_MS });
  if (after.status !== 200) ctx.skip(`could not read on after offset ${last} with limit=${honoured}: ${describeAnswer(after)}`, { exchange: after });
  const beyond = elementsOf(ctx, after).filter((e) => !isCheckpoint(e));
  const end = beyond.map(offsetOf).findLast((o) => o !== undefined);
  if (end === undefined) return; // nothing after the answer: it was the whole result
  const window = await postUpdates(ctx, body({ beginExclusive: 0, endInclusive: end }, format));
  if (window.status === 413) return;
  if (window.status !== 200)
    ctx
      .expect(window)
      .fail(`the read of (0, ${end}] was answered ${describeAnswer(window)}: a result within the list limit is answered 200, one beyond it 413`);
  const held = new Set(updateKeys(elementsOf(ctx, window)));
  const missing = [...new Set([...updateKeys(els), ...updateKeys(beyond)])].filter((k) => !held.has(k));
  if (missing.length)
    ctx
      .expect(window)
      .fail(
        `limit=${2 * honoured} was answered with fewer elements than asked, the reads from 0 ending at offset ${last}, yet the stream goes on after it; the bounded read of (0, ${end}] ` +
          `was answered 200 without ${missing.length} update(s) that exist (${missing.slice(0, 3).join(', ')}): a result beyond the list limit was silently truncated instead of refused with 413`,
      );
}
