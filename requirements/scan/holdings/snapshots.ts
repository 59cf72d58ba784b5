// Holdings requests and snapshots: the echoed request fields, the empty owner list, exact versus
// at_or_before snapshot matching, and the force-ACS snapshot time.
import type { Json } from '../../../common/json.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import { acceptedObject, plusMicros, timeNanos } from '../../../interfaces/scan/common.ts';
import { isInt64 } from '../../../engine/int64.ts';
import { checkAtOrBefore } from './at-or-before.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { baseQuery, snapshotQuery, HOLDINGS_NEEDS, HOLDINGS_OPS, HOLDINGS_VERSIONS, type HoldingsNeed, holdingsPath, SNAPSHOT_MATCHES } from './walk.ts';

const OPS = HOLDINGS_OPS;
const NEEDS = HOLDINGS_NEEDS;

/** A record time one microsecond after the fixture snapshot: no snapshot is taken at that instant. */
function notASnapshotTime(ctx: CheckContext<HoldingsNeed>): string {
  const snapshot = ctx.fixtures.snapshotRecordTime;
  return plusMicros(snapshot, 1) ?? ctx.skip(`fixture snapshotRecordTime is not an ISO 8601 timestamp: ${snapshot}`);
}

const echoed = rule({
  id: 'SCAN-HOLDINGS-REQUEST-ECHOED',
  operations: OPS,
  cites: ['C.holdings-v1.12', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings'],
  async check(ctx) {
    for (const [version, match] of HOLDINGS_VERSIONS.flatMap((v) => SNAPSHOT_MATCHES.map((m) => [v, m] as const))) {
      const query = { ...baseQuery(ctx, 5), ...match };
      const x = await ctx.scan.post(holdingsPath(version), query);
      const body = ctx
        .expect(x, `a valid ${version} holdings request${match.record_time_match ? ` (${match.record_time_match} at the snapshot's own time)` : ''}`)
        .status(200)
        .object();
      // Compared as instants: a node may write the same time with other digits.
      if (timeNanos(body.record_time) === undefined || timeNanos(body.record_time) !== timeNanos(query.record_time)) {
        ctx.expect(x).fail(`${version}: record_time ${JSON.stringify(body.record_time)} is not the requested ${query.record_time}`, '/record_time');
      }
      if (body.migration_id !== query.migration_id)
        ctx.expect(x).fail(`${version}: migration_id ${JSON.stringify(body.migration_id)} is not the requested ${query.migration_id}`, '/migration_id');
    }
  },
});

const emptyOwners = rule({
  id: 'SCAN-HOLDINGS-EMPTY-OWNERS-400',
  operations: OPS,
  cites: ['C.holdings-v1.10', 'C.holdings-v0.1', 'X.errors.9', 'X.limits.5'],
  needs: ['migrationId', 'snapshotRecordTime', 'holdingOwners'],
  tags: ['holdings', 'validation'],
  async check(ctx) {
    // The bound of "minimum 1 item" from both sides (description/bounds.ts): none is refused, one and two are served.
    const owners = [ctx.fixtures.holdingOwners.slice(0, 1), ...(ctx.fixtures.holdingOwners.length > 1 ? [ctx.fixtures.holdingOwners.slice(0, 2)] : [])];
    for (const version of HOLDINGS_VERSIONS) {
      for (const match of SNAPSHOT_MATCHES) {
        const x = await ctx.scan.post(holdingsPath(version), { ...snapshotQuery(ctx, 5, []), ...match });
        ctx.expect(x, `${version}: an empty owner_party_ids breaks its minimum of 1 item, whatever the match`).status(400);
      }
      for (const o of owners) {
        const ok = await ctx.scan.post(holdingsPath(version), snapshotQuery(ctx, 5, o));
        ctx.expect(ok, `${version}: owner_party_ids of ${o.length} item(s) meets its minimum of 1 item`).status(200);
      }
    }
  },
});

const exactMatch = rule({
  id: 'SCAN-HOLDINGS-EXACT-MATCH',
  operations: OPS,
  cites: ['C.holdings-v1.5', 'C.holdings-v1.7', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'snapshots'],
  variants: { 'record-time-match': { at_or_before: 'a rule of the exact match; at_or_before is SCAN-HOLDINGS-AT-OR-BEFORE' } },
  async check(ctx) {
    const time = notASnapshotTime(ctx);
    const probes = [...HOLDINGS_VERSIONS.map((version) => ({ version, match: 'exact' as string | undefined })), { version: 'v1' as const, match: undefined }];
    for (const { version, match } of probes) {
      const x = await ctx.scan.post(holdingsPath(version), { ...baseQuery(ctx, 5), record_time: time, ...(match ? { record_time_match: match } : {}) });
      // The description leaves open which client error names the mismatch (400 or 404): any 4xx is a refusal.
      if (x.status < 400 || x.status >= 500) {
        ctx
          .expect(x)
          .fail(
            `${version}: record_time ${time} is no snapshot time (one microsecond after the snapshot ${ctx.fixtures.snapshotRecordTime}) yet ${match ? 'record_time_match exact' : 'the default match (exact)'} was answered ${x.status}, not a client error`,
          );
      }
    }
  },
});

const atOrBefore = rule({
  id: 'SCAN-HOLDINGS-AT-OR-BEFORE',
  operations: OPS,
  cites: ['C.holdings-v1.6', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'snapshots'],
  check: checkAtOrBefore,
});

/**
 * Forces an ACS snapshot, naming it among what the run created. `positive`: the request must be accepted (the
 * positive requirement of force-ACS); otherwise a refusal skips, since that requirement reports it.
 */
export async function forceAcsSnapshot(ctx: CheckContext, positive = false): Promise<{ forced: Exchange; snap: Record<string, Json> }> {
  const forced = await ctx.scan.post('/v0/state/acs/force');
  // Production environments disable it (the description), and its documented refusal is a 400: that refusal is
  // a correct node's answer, so it leaves the operation unconfirmed rather than failed.
  if (positive && forced.status === 400)
    ctx.skip(
      'force-ACS was refused with 400, as a production environment that disables it answers (the description allows that): not judged, so the operation is not confirmed; certify such a scan on a test environment where force-ACS is enabled',
    );
  if (!positive && forced.status !== 200)
    ctx.skip(
      `force-ACS is not available on this target (status ${forced.status}; it is disabled in production environments; SCAN-HOLDINGS-FORCE-ACS-MIGRATION judges the refusal)`,
    );
  const snap = positive
    ? acceptedObject(
        ctx,
        forced,
        'an ACS snapshot at the current time, with mutations allowed (the description has force-ACS disabled in production environments: run against such a node without --allow-mutations)',
      )
    : ctx.expect(forced, 'force-ACS').status(200).object();
  ctx.created(`an ACS snapshot at ${JSON.stringify(snap.record_time)} of migration ${JSON.stringify(snap.migration_id)}, taken by POST /v0/state/acs/force`);
  return { forced, snap };
}

const forceAcs = rule({
  id: 'SCAN-HOLDINGS-FORCE-ACS-EXACT',
  operations: ['forceAcsSnapshotNow', ...OPS],
  cites: ['C.holdings-v1.5', 'C.acs-force.1', 'C.acs-force.3'],
  mutates: true,
  needs: ['holdingOwners'],
  tags: ['holdings', 'snapshots'],
  variants: { 'record-time-match': { at_or_before: 'a rule of the exact match of a forced snapshot; at_or_before is SCAN-HOLDINGS-AT-OR-BEFORE' } },
  async check(ctx) {
    const { forced, snap } = await forceAcsSnapshot(ctx);
    if (timeNanos(snap.record_time) === undefined || !isInt64(snap.migration_id))
      ctx.expect(forced).fail('force-ACS did not return a record_time timestamp and an integer migration_id');
    for (const version of HOLDINGS_VERSIONS) {
      const x = await ctx.scan.post(holdingsPath(version), {
        migration_id: snap.migration_id,
        record_time: snap.record_time,
        page_size: 5,
        owner_party_ids: ctx.fixtures.holdingOwners,
      });
      ctx.expect(x, `${version}: the force-ACS record_time ${snap.record_time} is a snapshot time, so record_time_match exact must accept it`).status(200);
    }
  },
});

export const HOLDINGS_SNAPSHOT_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  echoed,
  emptyOwners,
  exactMatch,
  atOrBefore,
  forceAcs,
]);
