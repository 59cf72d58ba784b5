// The request fields the ACS snapshot reads share (holdings state and the ACS itself): which snapshot, how its
// time is matched, the page size and an integer page token; and finding that snapshot.
//
// Snapshot matching: with record_time_match `exact` (the default) a record time that is not a snapshot time
// of the migration is a 400 (the request is wrong, the snapshot exists elsewhere); a migration id without any
// snapshot, or `at_or_before` with no snapshot at or before the time, is a 404. The snapshot-matching faults
// act on both reads, which share this lookup as a real scan's do.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Snapshot } from '../world/model.ts';
import { badRequest, notFound } from './errors.ts';
import { integerField, pageSize, requiredField, stringField, timestamp } from './params.ts';

/** Largest page_size of the snapshot reads (the description shows no maximum; larger pages are refused with 400). */
export const MAX_SNAPSHOT_PAGE_SIZE = 1000;

export interface SnapshotQuery {
  migrationId: number;
  /** As sent: answers echo it. */
  recordTime: string;
  micros: number;
  match: 'exact' | 'at_or_before';
  pageSize: number;
}

export function snapshotQuery(body: JsonObject): SnapshotQuery {
  const migrationId = integerField(body, 'migration_id', true);
  const recordTime = stringField(body, 'record_time', true);
  const micros = timestamp(recordTime, 'record_time');
  const match = body.record_time_match ?? 'exact';
  if (match !== 'exact' && match !== 'at_or_before')
    throw badRequest(`Invalid request: record_time_match must be exact or at_or_before, not ${JSON.stringify(match)}`);
  const size = pageSize(requiredField(body, 'page_size'), 'page_size', MAX_SNAPSHOT_PAGE_SIZE);
  return { migrationId, recordTime, micros, match, pageSize: size };
}

/** An integer `after` (a next_page_token of an earlier page); -1 when absent. */
export function integerToken(body: JsonObject): number {
  if (body.after === undefined || body.after === null) return -1;
  const after = integerField(body, 'after', true);
  if (after < 0) throw badRequest('Invalid request: after must be a next_page_token of an earlier page');
  return after;
}

export function findSnapshot(ctx: NodeContext, q: SnapshotQuery): Snapshot {
  const { world } = ctx;
  // scan-holdings-at-or-before-refused: at_or_before is looked up as exact.
  const match = q.match === 'at_or_before' && ctx.faults.has('scan-holdings-at-or-before-refused') ? 'exact' : q.match;
  const found = world.findSnapshot(q.migrationId, q.micros, match);
  if (found && match === 'at_or_before' && found.recordTimeMicros !== q.micros && ctx.faults.has('scan-holdings-at-or-before-rounds-up')) {
    // scan-holdings-at-or-before-rounds-up: between two snapshots the later one is used.
    const later = world.snapshots.filter((s) => s.migrationId === q.migrationId && s.recordTimeMicros > q.micros);
    const next = later.sort((a, b) => a.recordTimeMicros - b.recordTimeMicros)[0];
    if (next) return next;
  }
  if (found) return found;
  const missing = `No ACS snapshot found for migration id ${q.migrationId} at ${q.recordTime}`;
  if (!world.snapshots.some((s) => s.migrationId === q.migrationId) || q.match === 'at_or_before') throw notFound(missing);
  const earlier = world.findSnapshot(q.migrationId, q.micros, 'at_or_before');
  if (earlier && ctx.faults.has('scan-holdings-exact-ignored')) return earlier;
  throw badRequest(
    `${q.recordTime} is not the record time of an ACS snapshot of migration ${q.migrationId}; use a snapshot time or record_time_match at_or_before`,
  );
}
