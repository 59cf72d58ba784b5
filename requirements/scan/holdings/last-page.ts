// Holdings walks that end on a partial and on an exactly full last page (description/bounds.ts): page sizes
// chosen from the discovered number N of holdings (N-1, N, N+1, a divisor of N and a size that divides it
// not), on every version. Each walk must bring the whole set, no page beyond its page_size, and a token on its
// last page only where that page is full: a token after a full last page that opens an empty page is what
// real scans do (they cannot know the page was the last), a token on a short last page is not.
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { endingPageSizes } from '../../../engine/paging.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { hasRequestedStakeholder } from './paging.ts';
import {
  baseQuery,
  contractIdOf,
  DRAWN_WALK_PAGES,
  HOLDINGS_NEEDS,
  HOLDINGS_OPS,
  HOLDINGS_VERSIONS,
  LARGE_PAGE,
  pageEvents,
  pageExchange,
  usableWalk,
  walkEvents,
  walkHoldings,
  type HoldingsNeed,
  type HoldingsWalk,
} from './walk.ts';

/** The requested owners' contracts of a walk, by id. */
function ownedIds(ctx: CheckContext<HoldingsNeed>, walk: HoldingsWalk): Set<string> {
  const owners = new Set(ctx.fixtures.holdingOwners);
  const ids = new Set<string>();
  for (const e of walkEvents(walk)) if (hasRequestedStakeholder(e, owners)) ids.add(contractIdOf(e));
  return ids;
}

const lastPage = rule({
  id: 'SCAN-HOLDINGS-PAGING-LAST-PAGE',
  cites: ['C.holdings-v1.9', 'C.holdings-v1.13', 'C.holdings-v1.14', 'C.holdings-v0.1'],
  needs: [...HOLDINGS_NEEDS],
  tags: ['holdings', 'paging', 'bounds'],
  async check(ctx) {
    for (const version of HOLDINGS_VERSIONS) {
      const reference = usableWalk(ctx, await walkHoldings(ctx, version, baseQuery(ctx, LARGE_PAGE)));
      const want = ownedIds(ctx, reference);
      const n = reference.count;
      if (n === 0) ctx.skip(`the ${version} holdings of the fixture owners are empty: no last page to end on`);
      for (const size of endingPageSizes(n, DRAWN_WALK_PAGES)) {
        const walk = usableWalk(ctx, await walkHoldings(ctx, version, baseQuery(ctx, size)));
        const what = `${version}, page_size ${size} over ${n} holdings`;
        // A node may serve fewer than page_size per page (a maximum of its own): a page is full at the most any
        // page of the walk held.
        const full = Math.min(size, Math.max(...walk.pages.map((p) => p.count)));
        for (const [k, page] of walk.pages.entries()) {
          if (page.count > size) ctx.expect(pageExchange(page)).fail(`${what}: page ${k + 1} carries ${page.count} created events`, '/created_events');
          const before = walk.pages[k - 1];
          if (before && page.count === 0 && before.count < full)
            ctx
              .expect(pageExchange(before))
              .fail(
                `${what}: page ${k} (attached) held ${before.count} contracts, fewer than the ${full} of a full page, and carried next_page_token ${JSON.stringify(before.token)}, which opens a page of none: a token on the last page, where it must be absent`,
                '/next_page_token',
              );
        }
        const got = ownedIds(ctx, walk);
        const missing = [...want].find((id) => !got.has(id));
        const extra = [...got].find((id) => !want.has(id));
        const last = walk.pages.at(-1)!;
        if (missing !== undefined)
          ctx
            .expect(pageExchange(last))
            .fail(
              `${what}: contract ${missing} of the page_size ${LARGE_PAGE} walk is on no page of this walk (${walk.pages.length} pages, last attached, ${pageEvents(last).length} contracts on it)`,
            );
        if (extra !== undefined)
          ctx.expect(pageExchange(last)).fail(`${what}: contract ${extra} is on a page of this walk but on no page of the page_size ${LARGE_PAGE} walk`);
      }
    }
  },
});

export const HOLDINGS_LAST_PAGE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: HOLDINGS_OPS }, [lastPage]);
