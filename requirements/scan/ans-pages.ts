// GET /v0/ans-entries pages of different sizes: "older non-expired entries first" with page_size the maximum
// number of results means a page holds the oldest entries, so a small page is the start of a larger one.
// Entries may expire or appear between two requests: a mismatch is asked again once before it fails. The
// order is the listing's whatever it is filtered by: the pages are compared without a name_prefix and with
// prefixes that several listed names share (the optional filter is a variant of the same listing).
import fc from 'fast-check';
import { isObject, type Json } from '../../common/json.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { LIST_SIZE, list, nameOf, OP } from './ans.ts';

const identity = (e: Json) => JSON.stringify(isObject(e) ? [e.contract_id, e.user, e.name] : e);

/** Prefixes that two or more of the listed names share: the two that select the most (the longest on a tie). */
function sharedPrefixes(names: string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) for (const p of new Set([1, 2, 4].map((len) => n.slice(0, len)))) if (p) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts]
    .filter(([, c]) => c >= 2)
    .sort(([a, x], [b, y]) => y - x || b.length - a.length || (a < b ? -1 : 1))
    .slice(0, 2)
    .map(([p]) => p);
}

/** The first position where the small page is not the start of the large one, or -1. */
async function mismatch(ctx: CheckContext, size: number, prefix?: string) {
  const whole = await list(ctx, LIST_SIZE, prefix);
  const page = await list(ctx, size, prefix);
  const k = page.entries.findIndex((e, i) => identity(e) !== identity(whole.entries[i]));
  return { k, page, whole };
}

export const ANS_PAGE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: [OP] }, [
  {
    id: 'SCAN-ANS-OLDEST-FIRST',
    cites: ['C.ans.5'],
    tags: ['ans', 'paging'],
    async check(ctx) {
      const all = (await list(ctx, LIST_SIZE)).entries;
      if (all.length < 2) ctx.skip(`the name service lists ${all.length} entr${all.length === 1 ? 'y' : 'ies'}: no smaller page to compare`);
      const names = all.map(nameOf).filter((n): n is string => !!n);
      for (const prefix of [undefined, ...sharedPrefixes(names)]) {
        const total = prefix === undefined ? all.length : (await list(ctx, LIST_SIZE, prefix)).entries.length;
        if (total < 2) continue;
        const asked = prefix === undefined ? '' : `name_prefix ${JSON.stringify(prefix)}, `;
        await ctx.property(fc.integer({ min: 1, max: total - 1 }), async (size) => {
          const m = (await mismatch(ctx, size, prefix)).k < 0 ? undefined : await mismatch(ctx, size, prefix);
          if (m && m.k >= 0)
            ctx
              .expect(m.page.x)
              .fail(
                `${asked}page_size ${size}: entry ${m.k} (${identity(m.page.entries[m.k])}) is not entry ${m.k} of the page_size ${LIST_SIZE} list (${identity(m.whole.entries[m.k])}): the smaller page does not hold the oldest entries`,
                `/entries/${m.k}`,
              );
        });
      }
    },
  },
]);
