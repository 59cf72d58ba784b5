// The positive requests of the three holdings versions: the holdings of the fixture owners at the fixture
// snapshot. Those owners were found holding amulets in that very snapshot (discovery reads its ACS, a fixture
// file names "parties owning holdings at that snapshot"), so the first page of their holdings is not empty: a
// node that answers every request with no contract passes every paging and filtering rule, and fails here.
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule, type RuleOf } from '../../../engine/requirement.ts';
import { acceptedObject } from '../../../interfaces/scan/common.ts';
import { baseQuery, HOLDINGS_NEEDS, HOLDINGS_OP, holdingsPath, judgedPerVersion, SNAPSHOT_MATCHES, type HoldingsNeed, type HoldingsVersion } from './walk.ts';

/** Contracts asked for: a page any node serves, large enough to hold some of several owners' holdings. */
const PAGE_SIZE = 10;

function ofOwners(version: HoldingsVersion): (ctx: CheckContext<HoldingsNeed>) => Promise<void> {
  return async (ctx) => {
    for (const match of SNAPSHOT_MATCHES) {
      const query = { ...baseQuery(ctx, PAGE_SIZE), ...match };
      const x = await ctx.scan.post(holdingsPath(version), query);
      const what = `the holdings of fixtures.holdingOwners at snapshot ${query.record_time}${match.record_time_match ? ` (${match.record_time_match})` : ''} of migration ${query.migration_id} (discovery: owners of amulets in that snapshot's ACS)`;
      const body = acceptedObject(ctx, x, what);
      const events = body.created_events;
      if (Array.isArray(events) && events.length === 0)
        ctx
          .expect(x)
          .fail(
            `${version}: ${what} are answered without any contract${body.next_page_token != null ? ' (but with a next_page_token)' : ''}; those owners hold amulets in that snapshot`,
            '/created_events',
          );
    }
  };
}

const common = (version: HoldingsVersion): Omit<RuleOf<'scan'>, 'id' | 'cites'> =>
  rule({
    operations: [HOLDINGS_OP[version]],
    needs: [...HOLDINGS_NEEDS],
    tags: ['holdings'],
    confirms: HOLDINGS_OP[version],
    variants: judgedPerVersion(version),
    check: ofOwners(version),
  });

export const HOLDINGS_OWNER_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  {
    id: 'SCAN-HOLDINGS-V0-OF-OWNERS',
    ...common('v0'),
    cites: ['C.holdings-v1.2', 'C.holdings-v1.11', 'C.holdings-v0.1'],
  },
  { id: 'SCAN-HOLDINGS-V1-OF-OWNERS', ...common('v1'), cites: ['C.holdings-v1.2', 'C.holdings-v1.11'] },
  {
    id: 'SCAN-HOLDINGS-V2-OF-OWNERS',
    ...common('v2'),
    cites: ['C.holdings-v1.1', 'C.holdings-v1.2', 'C.holdings-v1.11', 'X.versioning.5'],
  },
]);
