// The at_or_before probes of the holdings snapshot match, at times taken from the data: the fixture snapshot
// itself, one microsecond after it, and, when the scan reports earlier snapshots of the migration, one
// microsecond before a snapshot and a time strictly between it and the one before. Each answer must be the page of
// the latest snapshot at or before its time (compared with that snapshot's own page, asked with exact). Before
// the first snapshot the description names no answer, so that time is not probed.
import { isObject } from '../../../common/json.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import type { CheckContext } from '../../../engine/model.ts';
import { plusMicros, timeNanos } from '../../../interfaces/scan/common.ts';
import { baseQuery, contractIdOf, HOLDINGS_VERSIONS, type HoldingsNeed, type HoldingsVersion, holdingsPath } from './walk.ts';

const PAGE = 20;

interface Page {
  x: Exchange;
  ids: string;
}

async function page(ctx: CheckContext<HoldingsNeed>, version: HoldingsVersion, time: string, match: 'exact' | 'at_or_before', why: string): Promise<Page> {
  const x = await ctx.scan.post(holdingsPath(version), {
    ...baseQuery(ctx, PAGE),
    record_time: time,
    ...(match === 'exact' ? {} : { record_time_match: match }),
  });
  const body = ctx.expect(x, `${version}: ${why}`).status(200).object();
  if (!Array.isArray(body.created_events)) ctx.expect(x).fail(`${version}: the holdings page (${why}) has no created_events array`, '/created_events');
  return { x, ids: JSON.stringify(body.created_events.map(contractIdOf)) };
}

/** The snapshot of the migration the scan reports as the latest at or before `before` (its record time), if any. */
async function snapshotAtOrBefore(ctx: CheckContext, before: string): Promise<string | undefined> {
  const x = await ctx.scan.get('/v0/state/acs/snapshot-timestamp', { query: { before, migration_id: String(ctx.fixtures.migrationId) } });
  const body = x.status === 200 ? ctx.expect(x).json() : undefined;
  return isObject(body) && typeof body.record_time === 'string' && timeNanos(body.record_time) !== undefined ? body.record_time : undefined;
}

/** A time strictly between two snapshot times (whole microseconds), or undefined when they are adjacent. */
function between(earlier: string, later: string): string | undefined {
  const gap = Number((timeNanos(later)! - timeNanos(earlier)!) / 1000n);
  return gap >= 2 ? plusMicros(earlier, Math.floor(gap / 2)) : undefined;
}

/** How many earlier snapshots are looked at for a pair whose pages differ. */
const MAX_EARLIER = 4;

/**
 * Two consecutive snapshots of the migration whose first pages differ (a later snapshot may hold the same
 * oldest contracts, and then no probe between them can tell which was used), walking back from the fixture
 * snapshot through the snapshot-timestamp endpoint; undefined when the scan reports none.
 */
async function distinctPair(
  ctx: CheckContext<HoldingsNeed>,
  version: HoldingsVersion,
  latest: Page,
): Promise<{ earlier: Snapshot; later: Snapshot } | undefined> {
  let later: Snapshot = { time: ctx.fixtures.snapshotRecordTime, page: latest };
  for (let k = 0; k < MAX_EARLIER; k++) {
    // Asked at or before 1 µs before the later one: strictly before it, whichever way the endpoint reads "before".
    const time = await snapshotAtOrBefore(ctx, plusMicros(later.time, -1)!);
    if (time === undefined || !(timeNanos(time)! < timeNanos(later.time)!)) return undefined;
    const earlier = {
      time,
      page: await page(ctx, version, time, 'exact', `the earlier snapshot time ${time} (from the snapshot-timestamp endpoint) with exact`),
    };
    if (earlier.page.ids !== later.page.ids) return { earlier, later };
    later = earlier;
  }
  return undefined;
}

interface Snapshot {
  time: string;
  page: Page;
}

export async function checkAtOrBefore(ctx: CheckContext<HoldingsNeed>): Promise<void> {
  const snapshot = ctx.fixtures.snapshotRecordTime;
  const after = plusMicros(snapshot, 1) ?? ctx.skip(`fixture snapshotRecordTime is not an ISO 8601 timestamp: ${snapshot}`);
  for (const version of HOLDINGS_VERSIONS) {
    const latest = await page(ctx, version, snapshot, 'exact', `the snapshot time ${snapshot} itself with exact`);
    const probes: Array<{ time: string; want: Snapshot; where: string }> = [
      { time: snapshot, want: { time: snapshot, page: latest }, where: 'exactly at the snapshot' },
      { time: after, want: { time: snapshot, page: latest }, where: '1 µs after the snapshot' },
    ];
    const pair = await distinctPair(ctx, version, latest);
    if (pair) {
      const { earlier, later } = pair;
      probes.push({ time: plusMicros(later.time, -1)!, want: earlier, where: `1 µs before the snapshot ${later.time}` });
      const mid = between(earlier.time, later.time);
      if (mid !== undefined) probes.push({ time: mid, want: earlier, where: `strictly between the snapshots ${earlier.time} and ${later.time}` });
    }
    for (const p of probes) {
      const got = await page(ctx, version, p.time, 'at_or_before', `at_or_before accepts any timestamp (${p.time}, ${p.where})`);
      if (got.ids !== p.want.page.ids)
        ctx
          .expect(got.x)
          .fail(
            `${version}: at_or_before ${p.time} (${p.where}) must use the snapshot ${p.want.time}, the latest at or before it, but its first page differs from that snapshot's`,
            '/created_events',
          );
    }
  }
}
