// Holdings paging, ordering and owner filtering (POST /v0|v1|v2/holdings/state). Every rule is checked on
// all three versions: v0 and v2 promise the same behaviour as v1. Versions and page sizes vary by property;
// completeness compares each walk with a walk of the same version with large pages.
import fc from 'fast-check';
import { isObject, type Json } from '../../../common/json.ts';
import { timeNanos } from '../../../interfaces/scan/common.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule, type RuleOf } from '../../../engine/requirement.ts';
import {
  baseQuery,
  snapshotQuery,
  contractIdOf,
  DRAWN_WALK_PAGES,
  HOLDINGS_NEEDS,
  HOLDINGS_OPS,
  HOLDINGS_VERSIONS,
  LARGE_PAGE,
  drawnPageSizes,
  MAX_DRAWN_PAGE,
  pageEvents,
  pageExchange,
  pageWith,
  usableWalk,
  walkEvents,
  walkHoldings,
  type HoldingsPage,
  type HoldingsNeed,
  type HoldingsVersion,
  type HoldingsWalk,
} from './walk.ts';

const OPS = HOLDINGS_OPS;
const NEEDS = HOLDINGS_NEEDS;

/** Ownership is not a field of ActiveContract; a holding's owner is always one of its stakeholders, so a contract
 *  none of whose signatories and observers is a requested party cannot be owned by one of them. */
export function hasRequestedStakeholder(e: Json, owners: ReadonlySet<string>): boolean {
  if (!isObject(e)) return false;
  const parties = [...(Array.isArray(e.signatories) ? e.signatories : []), ...(Array.isArray(e.observers) ? e.observers : [])];
  return parties.some((p) => owners.has(p));
}

/** The large-page walk of a version, whole (skips when the set does not fit the run's bounds). */
const largeWalk = async (ctx: CheckContext<HoldingsNeed>, v: HoldingsVersion) => usableWalk(ctx, await walkHoldings(ctx, v, baseQuery(ctx, LARGE_PAGE)));

/**
 * Versions and page sizes to walk, and the page bound of each drawn walk. When the large-page walk shows the
 * whole set, page sizes are chosen so a walk needs at most DRAWN_WALK_PAGES pages; when the set is larger
 * than the run's bounds, drawn walks are prefixes of DRAWN_WALK_PAGES pages (enough for rules about pages).
 */
async function pagingPlan(ctx: CheckContext<HoldingsNeed>) {
  const reference = await walkHoldings(ctx, 'v1', baseQuery(ctx, LARGE_PAGE));
  const whole = reference.end !== 'bound';
  const sizes = whole ? drawnPageSizes(ctx, reference.count) : { min: 2, max: MAX_DRAWN_PAGE, runs: ctx.runs };
  return {
    arbitrary: fc.record({ version: fc.constantFrom(...HOLDINGS_VERSIONS), pageSize: fc.integer({ min: sizes.min, max: sizes.max }) }),
    runs: sizes.runs,
    walk: (version: HoldingsVersion, pageSize: number) =>
      walkHoldings(ctx, version, baseQuery(ctx, pageSize), whole ? ctx.maxPages : Math.min(ctx.maxPages, DRAWN_WALK_PAGES)),
  };
}

/** Runs `check` on walks of drawn versions and page sizes, as one property of the run. */
async function eachDrawnWalk(
  ctx: CheckContext<HoldingsNeed>,
  check: (d: { version: HoldingsVersion; pageSize: number; walk: HoldingsWalk }) => Promise<void> | void,
): Promise<void> {
  const plan = await pagingPlan(ctx);
  // The drawn walks do not depend on one another: started together (the property then meets them in the run
  // cache), a remote target costs the longest walk, not their sum. The property draws the same cases.
  for (const { version, pageSize } of fc.sample(plan.arbitrary, { seed: ctx.seed, numRuns: plan.runs })) plan.walk(version, pageSize).catch(() => {});
  await ctx.property(plan.arbitrary, async ({ version, pageSize }) => check({ version, pageSize, walk: await plan.walk(version, pageSize) }), {
    runs: plan.runs,
  });
}

const pagingComplete = rule({
  id: 'SCAN-HOLDINGS-PAGING-COMPLETE',
  cites: ['C.holdings-v1.3', 'C.holdings-v1.8', 'C.holdings-v1.14', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'paging'],
  async check(ctx) {
    const owners = new Set(ctx.fixtures.holdingOwners);
    // Only contracts the filter admits are compared: an ownership leak is its own rule (SCAN-HOLDINGS-OWNER-FILTER).
    // The id set of a version's reference walk is built once per check and serves all its drawn walks.
    const referenceSets = new Map<HoldingsWalk, Set<string>>();
    const owned = (w: HoldingsWalk) => {
      let ids = referenceSets.get(w);
      if (!ids) {
        ids = new Set();
        for (const e of walkEvents(w)) if (hasRequestedStakeholder(e, owners)) ids.add(contractIdOf(e));
        referenceSets.set(w, ids);
      }
      return ids;
    };
    await largeWalk(ctx, 'v1');
    await eachDrawnWalk(ctx, async ({ version, pageSize, walk: drawn }) => {
      const reference = await largeWalk(ctx, version);
      const walk = usableWalk(ctx, drawn);
      // A drawn page size of LARGE_PAGE draws the reference walk itself: nothing to compare.
      if (walk === reference) return;
      const want = owned(reference);
      // One pass over the drawn walk: what it lacks remains in `missing` (in reference order), and the first
      // contract outside the reference is kept with its page. No second id set of the walk's own.
      const missing = new Set(want);
      let extra: { id: string; page: HoldingsPage } | undefined;
      for (const page of walk.pages) {
        for (const e of pageEvents(page)) {
          if (!hasRequestedStakeholder(e, owners)) continue;
          const id = contractIdOf(e);
          missing.delete(id);
          if (!extra && !want.has(id)) extra = { id, page };
        }
      }
      if (missing.size > 0) {
        const id = missing.values().next().value!;
        ctx
          .expect(pageExchange(pageWith(reference, id)!))
          .fail(
            `${version}: contract ${id} is on a page of the page_size ${LARGE_PAGE} walk (attached) but on no page of the page_size ${pageSize} walk (${walk.pages.length} pages)`,
          );
      }
      if (extra) {
        ctx
          .expect(pageExchange(extra.page))
          .fail(
            `${version}: contract ${extra.id} is on a page of the page_size ${pageSize} walk (attached) but on no page of the page_size ${LARGE_PAGE} walk`,
          );
      }
    });
  },
});

const pagingUnique = rule({
  id: 'SCAN-HOLDINGS-PAGING-UNIQUE',
  cites: ['C.holdings-v1.3', 'C.holdings-v1.14', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'paging'],
  async check(ctx) {
    await eachDrawnWalk(ctx, ({ version, pageSize, walk }) => {
      const first = new Map<string, number>();
      for (const [n, page] of walk.pages.entries()) {
        for (const [k, e] of pageEvents(page).entries()) {
          const id = contractIdOf(e);
          const earlier = first.get(id);
          if (earlier !== undefined)
            ctx
              .expect(pageExchange(page))
              .fail(
                `${version}, page_size ${pageSize}: contract ${id} is on page ${earlier + 1} and again on page ${n + 1} (attached)`,
                `/created_events/${k}`,
              );
          first.set(id, n);
        }
      }
    });
  },
});

const tokenEnds = rule({
  id: 'SCAN-HOLDINGS-PAGING-TOKEN-ENDS',
  cites: ['C.holdings-v1.14', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'paging'],
  async check(ctx) {
    for (const version of HOLDINGS_VERSIONS) {
      const walk = await walkHoldings(ctx, version, baseQuery(ctx, LARGE_PAGE));
      const last = walk.pages.at(-1)!;
      if (walk.end === 'cycle') {
        ctx
          .expect(pageExchange(last))
          .fail(
            `${version}: page ${walk.pages.length} (attached) returned next_page_token ${JSON.stringify(last.token)}, a token already used in this walk: the walk never ends`,
            '/next_page_token',
          );
      }
      if (walk.end === 'bound' && walk.stalled) {
        ctx
          .expect(pageExchange(last))
          .fail(
            `${version}: after ${walk.pages.length} pages the token is still present although no new contract appeared for the last half of them (last page attached)`,
            '/next_page_token',
          );
      }
      usableWalk(ctx, walk);
    }
  },
});

const pageSizeBound = rule({
  id: 'SCAN-HOLDINGS-PAGE-SIZE-BOUND',
  cites: ['C.holdings-v1.9', 'C.holdings-v1.13', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'paging'],
  async check(ctx) {
    await eachDrawnWalk(ctx, ({ version, pageSize, walk }) => {
      for (const page of walk.pages) {
        if (page.count > pageSize)
          ctx.expect(pageExchange(page)).fail(`${version}: a page of page_size ${pageSize} carries ${page.count} created events`, '/created_events');
      }
    });
  },
});

const creationOrder = rule({
  id: 'SCAN-HOLDINGS-CREATION-ORDER',
  cites: ['C.holdings-v1.3', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'ordering'],
  async check(ctx) {
    await eachDrawnWalk(ctx, ({ version, pageSize, walk }) => {
      // created_at is the ledger effective time of the creating transaction: never decreasing along the walk.
      let previous: { at: bigint; text: string; page: number } | undefined;
      for (const [n, page] of walk.pages.entries()) {
        for (const [k, e] of pageEvents(page).entries()) {
          const at = timeNanos(isObject(e) ? e.created_at : undefined);
          if (at === undefined) continue; // a malformed created_at is a record-shape problem, not an ordering one
          if (previous && at < previous.at) {
            ctx
              .expect(pageExchange(page))
              .fail(
                `${version}, page_size ${pageSize}: created_at ${e.created_at} (page ${n + 1}) comes after ${previous.text} (page ${previous.page + 1}): not in creation order`,
                `/created_events/${k}/created_at`,
              );
          }
          previous = { at, text: e.created_at, page: n };
        }
      }
    });
  },
});

/** What the owner-filter rules share: the sentences they enforce, on every version. */
const ownerRule: Omit<RuleOf<'scan'>, 'id' | 'check'> = {
  cites: ['C.holdings-v1.11', 'C.holdings-v0.1'],
  tags: ['holdings', 'filter'],
};

const ownerFilter = rule({
  ...ownerRule,
  needs: NEEDS,
  id: 'SCAN-HOLDINGS-OWNER-FILTER',
  async check(ctx) {
    const all = ctx.fixtures.holdingOwners;
    const arb = fc.record({ version: fc.constantFrom(...HOLDINGS_VERSIONS), owners: fc.subarray(all, { minLength: 1 }) });
    await ctx.property(arb, async ({ version, owners }) => {
      // Each contract is judged on its own: a prefix of the walk is enough.
      const walk = await walkHoldings(ctx, version, snapshotQuery(ctx, 50, owners), Math.min(ctx.maxPages, DRAWN_WALK_PAGES));
      const wanted = new Set(owners);
      for (const page of walk.pages) {
        for (const [k, e] of pageEvents(page).entries()) {
          if (!hasRequestedStakeholder(e, wanted)) {
            ctx
              .expect(pageExchange(page))
              .fail(
                `${version}: contract ${contractIdOf(e)} has none of owner_party_ids [${owners.join(', ')}] among its signatories or observers, so none of them owns it`,
                `/created_events/${k}`,
              );
          }
        }
      }
    });
  },
});

// Several owners: the filter keeps the contracts owned by any of them, so the answer for several owners holds
// exactly the contracts of the answers for each owner alone (same snapshot). Whole walks are compared by
// contract id; as in SCAN-HOLDINGS-PAGING-COMPLETE only contracts with a requested stakeholder are compared
// (a leak is SCAN-HOLDINGS-OWNER-FILTER's business).
const ownersUnion = rule({
  ...ownerRule,
  needs: NEEDS,
  id: 'SCAN-HOLDINGS-OWNERS-UNION',
  async check(ctx) {
    const owners = ctx.fixtures.holdingOwners;
    if (owners.length < 2) ctx.skip('fixtures.holdingOwners names a single party: a union needs two');
    const named = `[${owners.join(', ')}]`;
    const admitted = new Set(owners);
    for (const version of HOLDINGS_VERSIONS) {
      const all = usableWalk(ctx, await walkHoldings(ctx, version, baseQuery(ctx, LARGE_PAGE)));
      const together = new Set<string>();
      for (const e of walkEvents(all)) if (hasRequestedStakeholder(e, admitted)) together.add(contractIdOf(e));
      // What remains in `unclaimed` is in the answer for all owners but in none for one of them.
      const unclaimed = new Set(together);
      for (const owner of owners) {
        const alone = usableWalk(ctx, await walkHoldings(ctx, version, snapshotQuery(ctx, LARGE_PAGE, [owner])));
        const own = new Set([owner]);
        for (const page of alone.pages) {
          for (const [k, e] of pageEvents(page).entries()) {
            if (!hasRequestedStakeholder(e, own)) continue;
            const id = contractIdOf(e);
            unclaimed.delete(id);
            if (!together.has(id))
              ctx
                .expect(pageExchange(page))
                .fail(
                  `${version}: contract ${id} is in the answer for owner_party_ids [${owner}] (attached) but not in the answer for ${named} of the same snapshot, which names ${owner} too`,
                  `/created_events/${k}`,
                );
          }
        }
      }
      const extra = unclaimed.values().next().value;
      if (extra !== undefined)
        ctx
          .expect(pageExchange(pageWith(all, extra)!))
          .fail(
            `${version}: contract ${extra} is in the answer for owner_party_ids ${named} (attached) but in none of the answers for one of these parties alone (same snapshot)`,
          );
    }
  },
});

export const HOLDINGS_PAGING_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: OPS }, [
  pagingComplete,
  pagingUnique,
  tokenEnds,
  pageSizeBound,
  creationOrder,
  ownerFilter,
  ownersUnion,
]);
