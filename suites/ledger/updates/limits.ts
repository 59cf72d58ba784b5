// The `limit` query parameter and the node's list limit (`http-list-max-elements-limit`).
//
// The list limit of a target is not known, but the description fixes how the two interact, and that is
// enough for a sound check: a limit no bigger than the list limit is honoured (at most `limit` elements);
// a bigger one is ignored, and then the whole result must fit the list limit or be refused with 413. Either
// way, a 200 answer never carries more than `limit` elements. Small limits (surely within any list limit)
// test the honouring; doubling limits find where the node stops honouring them, which is where 413 must
// take over.
import fc from 'fast-check';
import type { Requirement } from '../../model.ts';
import { defineRequirements } from '../../requirement.ts';
import { OPERATION, elementsOf, expectReadable, openRead, readParties, updateFormat } from './client.ts';

const ENDPOINT_SECTION = 'A. Ledger interface > POST /v2/updates';

/** Limits tried by the 413 check: 16, 32, ... up to 65536. */
const DOUBLING_START = 16;
const DOUBLING_END = 65_536;

export const LIMIT_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'LEDGER-UPDATES-LIMIT',
    kind: 'rule',
    level: 'MUST',
    interface: 'ledger',
    operations: [OPERATION],
    section: ENDPOINT_SECTION,
    sentence: 'limit: maximum elements to return; ignored if bigger than the server setting.',
    needs: ['ledgerParties'],
    tags: ['limits'],
    async check(ctx) {
      const format = updateFormat(readParties(ctx));
      await ctx.property(fc.integer({ min: 1, max: 20 }), async (limit) => {
        const x = await openRead(ctx, format, limit);
        expectReadable(ctx, x);
        if (x.status === 413) {
          // Only legitimate when `limit` exceeds the list limit; a limit of 1 never can.
          const one = await openRead(ctx, format, 1);
          if (one.status === 413) ctx.fail('limit=1 is answered 413: the limit was not applied (no list limit is below 1)', { exchange: one });
          return;
        }
        const els = elementsOf(ctx, x);
        if (els.length > limit) ctx.fail(`limit=${limit} returned ${els.length} elements`, { exchange: x, pointer: `/${limit}` });
      });
    },
  },
  {
    id: 'LEDGER-UPDATES-LIST-LIMIT-413',
    kind: 'rule',
    level: 'MUST',
    interface: 'ledger',
    operations: [OPERATION],
    section: 'A. Ledger interface > POST /v2/updates; Errors; Limits',
    sentence: '413 when the number of results exceeds the node list limit (http-list-max-elements-limit); a limit bigger than the server setting is ignored.',
    needs: ['ledgerParties'],
    tags: ['limits', 'errors'],
    async check(ctx) {
      const format = updateFormat(readParties(ctx));
      let honoured: number | undefined;
      for (let limit = DOUBLING_START; limit <= DOUBLING_END; limit *= 2) {
        const x = await openRead(ctx, format, limit);
        expectReadable(ctx, x);
        if (x.status === 413 || x.truncated) return; // refused as too large, or too large for this run to read
        const els = elementsOf(ctx, x);
        if (els.length > limit) {
          // Not honouring the very first (small) limit is the limit rule's concern, not this one's.
          if (honoured === undefined) ctx.skip(`limit=${limit} was not honoured (${els.length} elements); see LEDGER-UPDATES-LIMIT`);
          ctx.fail(
            `limit=${honoured} was honoured but limit=${limit} returned ${els.length} elements: a limit the node ignores is above its list limit, ` +
              `so a result of more than ${limit} elements exceeds the list limit and must be answered 413`,
            { exchange: x },
          );
        }
        if (els.length < limit) return; // the whole result fits: nothing exceeds any limit
        honoured = limit;
      }
    },
  },
]);
