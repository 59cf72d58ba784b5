// POST /v2/updates and POST /v0/events: the scan history as paged lists in (migration id, record time) order,
// each page strictly after the position the client read last; a short page ends the history. Items are
// rendered exactly as the by-id routes render them (history.ts). A page finds its start by binary search and
// renders only its own items, so its cost does not grow with the world's scale.
import type { FastifyInstance } from 'fastify';
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Verdict } from '../world/model.ts';
import type { World } from '../world/world.ts';
import type { ValueEncoding } from './daml-values.ts';
import { badRequest } from './errors.ts';
import { renderEventItem, renderV2Update, renderVerdictItem, type ScanUpdate, scanUpdateAt, valueEncoding } from './history.ts';
import { bodyObject, pageSize, requiredField, stringField, timestamp } from './params.ts';

/** Largest page_size: the official maximum of the event history, which a real scan applies to the update
 *  history as well (its document names none there). Larger pages are refused rather than cut short, since a
 *  short page would read as the end of the history. */
export const MAX_HISTORY_PAGE_SIZE = 1000;

/** Where an update or a verdict stands in the history. */
type Position = Pick<Verdict, 'migrationId' | 'recordTimeMicros'>;

const compare = (a: Position, b: Position): number => a.migrationId - b.migrationId || a.recordTimeMicros - b.recordTimeMicros;
const later = (a: Position, b: Position): boolean => compare(a, b) > 0;

interface ListRequest {
  pageSize: number;
  after?: Position;
  encoding: ValueEncoding;
}

/** Index of the first update after `p`: migration id and record time both grow with the index. */
function firstIndexAfter(world: World, p: Position): number {
  let lo = 0;
  let hi = world.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (later({ migrationId: world.migrationOf(mid), recordTimeMicros: world.recordTimeMicros(mid) }, p)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The scan history's updates after `after`, lazily. */
function* updatesAfter(ctx: NodeContext, after: Position | undefined): Generator<ScanUpdate> {
  for (let i = after ? firstIndexAfter(ctx.world, after) : 0; i < ctx.world.count; i++) {
    const update = scanUpdateAt(ctx, i);
    if (update) yield update;
  }
}

/** The event history after `after`, lazily: the updates with the rejected verdicts at their record times. */
function* eventsAfter(ctx: NodeContext, after: Position | undefined): Generator<ScanUpdate | Verdict> {
  const verdicts = ctx.world.rejectedVerdicts.filter((v) => !after || later(v, after)).sort(compare);
  let k = 0;
  for (const update of updatesAfter(ctx, after)) {
    while (k < verdicts.length && later(update, verdicts[k]!)) yield verdicts[k++]!;
    yield update;
  }
  yield* verdicts.slice(k);
}

function take<T>(items: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  for (const item of items) if (out.push(item) >= n) break;
  return out;
}

/** An int64 JSON number (one beyond 2^53 compares fine as a float). */
function int64Field(body: JsonObject, name: string): number {
  const v = requiredField(body, name);
  if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) > 2 ** 63) throw badRequest(`Invalid request: ${name} must be an int64`);
  return v;
}

function afterPosition(ctx: NodeContext, value: unknown): Position | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest('Invalid request: after must be an object with after_migration_id and after_record_time');
  const migrationId = int64Field(value, 'after_migration_id');
  let text = stringField(value, 'after_record_time', true);
  // scan-record-time-format: the node reads back the record times it writes.
  if (ctx.faults.has('scan-record-time-format') && /^\d{4}-\d{2}-\d{2} [\d:.]+$/.test(text)) text = `${text.replace(' ', 'T')}Z`;
  return { migrationId, recordTimeMicros: timestamp(text, 'after_record_time') };
}

function listRequest(ctx: NodeContext, raw: unknown): ListRequest {
  const body = bodyObject(raw);
  const size = pageSize(requiredField(body, 'page_size'), 'page_size', MAX_HISTORY_PAGE_SIZE);
  const text = stringField(body, 'daml_value_encoding', false);
  const encoding = valueEncoding(text);
  if (!encoding) throw badRequest(`Invalid request: daml_value_encoding must be compact_json or protobuf_json, not ${text}`);
  const after = afterPosition(ctx, body.after);
  return after ? { pageSize: size, after, encoding } : { pageSize: size, encoding };
}

export async function historyListRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.post('/v2/updates', async (req) => {
    const r = listRequest(ctx, req.body);
    return { transactions: take(updatesAfter(ctx, r.after), r.pageSize).map((u) => renderV2Update(ctx, u, r.encoding)) };
  });

  app.post('/v0/events', async (req) => {
    const r = listRequest(ctx, req.body);
    const items = take(eventsAfter(ctx, r.after), r.pageSize);
    return { events: items.map((e) => ('kind' in e ? renderEventItem(ctx, e, r.encoding) : renderVerdictItem(ctx, e))) };
  });
}
