// GET /v0/ans-entries pages of different sizes: "older non-expired entries first" with page_size the maximum
// number of results means a page holds the oldest entries, so a small page is the start of a larger one.
// Entries may expire or appear between two requests: a mismatch is asked again once before it fails.
import fc from 'fast-check';
import { isObject, type Json } from '../../common/json.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { LIST_SIZE, list, OP } from './ans.ts';

const identity = (e: Json) => JSON.stringify(isObject(e) ? [e.contract_id, e.user, e.name] : e);

/** The first position where the small page is not the start of the large one, or -1. */
async function mismatch(ctx: CheckContext, size: number) {
  const whole = await list(ctx, LIST_SIZE);
  const page = await list(ctx, size);
  const k = page.entries.findIndex((e, i) => identity(e) !== identity(whole.entries[i]));
  return { k, page, whole };
}

export const ANS_PAGE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: [OP] }, [
  {
    id: 'SCAN-ANS-OLDEST-FIRST',
    cites: ['C.ans.5'],
    tags: ['ans', 'paging'],
    async check(ctx) {
      const total = (await list(ctx, LIST_SIZE)).entries.length;
      if (total < 2) ctx.skip(`the name service lists ${total} entr${total === 1 ? 'y' : 'ies'}: no smaller page to compare`);
      await ctx.property(fc.integer({ min: 1, max: total - 1 }), async (size) => {
        const m = (await mismatch(ctx, size)).k < 0 ? undefined : await mismatch(ctx, size);
        if (m && m.k >= 0)
          ctx
            .expect(m.page.x)
            .fail(
              `page_size ${size}: entry ${m.k} (${identity(m.page.entries[m.k])}) is not entry ${m.k} of the page_size ${LIST_SIZE} list (${identity(m.whole.entries[m.k])}): the smaller page does not hold the oldest entries`,
              `/entries/${m.k}`,
            );
      });
    },
  },
]);
