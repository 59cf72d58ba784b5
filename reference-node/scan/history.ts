// GET /v0/updates/{update_id}, GET /v2/updates/{update_id} and GET /v0/events/{update_id}, and the renderings of
// /v2/updates and /v0/events items that the paged lists (history-lists.ts) share.
// The scan history holds transactions and reassignments; topology updates exist only on the ledger stream,
// so their ids are unknown here (404). Verdicts of rejected transactions exist only as event items; the first
// transactions have no verdict (world.ts).
import type { FastifyInstance } from 'fastify';
import type { Json, JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { ScanFaultName } from './faults.ts';
import type { ReassignmentUpdate, TransactionUpdate, Verdict } from '../world/model.ts';
import type { ValueEncoding } from './daml-values.ts';
import { badRequest, notFound, ScanError } from './errors.ts';
import {
  historyOffset,
  otherId,
  renderAppActivity,
  renderReassignment,
  renderTransaction,
  renderTrafficSummary,
  renderVerdict,
  type HistoryShape,
} from './history-render.ts';
import { booleanText, singleQuery } from './params.ts';
import { eventId } from './contracts.ts';

export type ScanUpdate = TransactionUpdate | ReassignmentUpdate;

/** The update at `index` if the scan history holds it (topology updates it does not). */
export function scanUpdateAt(ctx: NodeContext, index: number): ScanUpdate | undefined {
  const u = ctx.world.getUpdate(index);
  return u.kind === 'topology' ? undefined : u;
}

function lookup(ctx: NodeContext, id: string): ScanUpdate | undefined {
  const index = ctx.world.indexOfUpdateId(id);
  return index === undefined ? undefined : scanUpdateAt(ctx, index);
}

/** The update the history holds after `u` (the first one where `u` is the last): what a lookup off by one answers. */
function nextOf(ctx: NodeContext, u: ScanUpdate): ScanUpdate {
  for (let i = u.index + 1; i < ctx.world.count; i++) {
    const next = scanUpdateAt(ctx, i);
    if (next) return next;
  }
  return scanUpdateAt(ctx, 0) ?? u;
}

/** The update a lookup by id answers: the one asked for, or with `fault` on the one after it. */
function lookupAnswered(ctx: NodeContext, id: string, fault: ScanFaultName): ScanUpdate | undefined {
  const u = lookup(ctx, id);
  return u && ctx.faults.has(fault) ? nextOf(ctx, u) : u;
}

function render(ctx: NodeContext, u: ScanUpdate, shape: HistoryShape): JsonObject {
  return u.kind === 'transaction' ? renderTransaction(ctx, u, shape) : renderReassignment(ctx, u, shape);
}

function verdictParts(ctx: NodeContext, v: Verdict): JsonObject {
  // Read freely: the faults reach into the records just rendered.
  const app: Json = renderAppActivity(v);
  const verdict: Json = renderVerdict(v);
  const traffic: Json = renderTrafficSummary(v);
  const unknownView = Math.max(0, ...v.views.map((view) => view.viewId)) + 1;
  if (ctx.faults.has('scan-verdict-update-id-mismatch')) verdict.update_id = otherId(v.updateId);
  if (ctx.faults.has('scan-verdict-unknown-root-view')) verdict.transaction_views.root_views = [...verdict.transaction_views.root_views, unknownView];
  if (ctx.faults.has('scan-traffic-envelope-unknown-view'))
    traffic.envelope_traffic_summaries = [...traffic.envelope_traffic_summaries, { traffic_cost: 0, view_ids: [unknownView] }];
  if (app && ctx.faults.has('scan-app-activity-weight-missing'))
    app.records = [...app.records, { party: v.submittingParties[0] ?? v.submittingParticipantUid }];
  return { verdict, traffic_summary: traffic, ...(app ? { app_activity_records: app } : {}) };
}

/** A daml_value_encoding value; undefined for one the interface does not name. */
export function valueEncoding(text: string | undefined): ValueEncoding | undefined {
  if (text === undefined || text === 'compact_json') return 'compact';
  return text === 'protobuf_json' ? 'verbose' : undefined;
}

function encodingParam(ctx: NodeContext, query: unknown): ValueEncoding {
  const text = singleQuery(query, 'daml_value_encoding');
  // scan-event-encoding-default-protobuf: no daml_value_encoding reads as protobuf_json.
  if (text === undefined && ctx.faults.has('scan-event-encoding-default-protobuf')) return 'verbose';
  const encoding = valueEncoding(text) ?? (ctx.faults.has('scan-event-encoding-unchecked') ? 'compact' : undefined);
  // scan-protobuf-compact: protobuf_json is answered in the compact encoding.
  if (encoding === 'verbose' && ctx.faults.has('scan-protobuf-compact')) return 'compact';
  if (encoding) return encoding;
  throw badRequest(`Invalid value for query parameter daml_value_encoding: ${text} (expected compact_json or protobuf_json)`);
}

/** An event id no tree of the update has. */
const missingEvent = (u: ScanUpdate) => eventId(u.updateId, 9_999);

/** An update as /v2/updates serves it (by id and in the list). */
export function renderV2Update(ctx: NodeContext, u: ScanUpdate, encoding: ValueEncoding): JsonObject {
  const body = render(ctx, u, { encoding, v2: true });
  // scan-v2-updates-dangling-root: the /v2/updates items only.
  if (ctx.faults.has('scan-v2-updates-dangling-root') && Array.isArray(body.root_event_ids)) body.root_event_ids = [...body.root_event_ids, missingEvent(u)];
  return body;
}

/** The event item of an update, as /v0/events serves it (by id and in the list). */
export function renderEventItem(ctx: NodeContext, u: ScanUpdate, encoding: ValueEncoding): JsonObject {
  const update = render(ctx, u, { encoding, v2: true });
  // scan-events-update-record-time-nanos: this endpoint's rendering only.
  if (ctx.faults.has('scan-events-update-record-time-nanos')) update.record_time = `${update.record_time}`.replace(/Z$/, '123Z');
  // scan-events-update-offset: the transaction carries the offset the V2 record leaves out.
  if (ctx.faults.has('scan-events-update-offset') && u.kind === 'transaction') update.offset = historyOffset(ctx, u.index);
  // scan-events-protobuf-dangling-child: in protobuf_json only, an exercised event names a child the tree lacks.
  if (ctx.faults.has('scan-events-protobuf-dangling-child') && encoding === 'verbose') danglingChild(update, missingEvent(u));
  if (u.kind === 'transaction' && u.verdict) return { update, ...verdictParts(ctx, u.verdict) };
  // scan-events-null-verdict: an item without a verdict says so with null, as MainNet nodes do.
  return ctx.faults.has('scan-events-null-verdict') ? { update, verdict: null } : { update };
}

/** The first exercised event of a transaction's tree lists `missing` among its children. */
function danglingChild(update: JsonObject, missing: string): void {
  const events = update.events_by_id as Record<string, JsonObject> | undefined;
  const parent = Object.values(events ?? {}).find((e) => Array.isArray(e.child_event_ids));
  if (parent) parent.child_event_ids = [...(parent.child_event_ids as string[]), missing];
}

/** The event item of a verdict without an update (a rejected transaction). */
export function renderVerdictItem(ctx: NodeContext, v: Verdict): JsonObject {
  const { app_activity_records: _none, ...parts } = verdictParts(ctx, v);
  // scan-events-null-update: a verdict-only item says so with null, as MainNet nodes do.
  return ctx.faults.has('scan-events-null-update') ? { update: null, ...parts } : parts;
}

export async function historyRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.get('/v0/updates/:update_id', async (req, reply) => {
    // scan-deprecated-update-path-gone: a newer node without the deprecated path; its HTTP layer answers.
    if (ctx.faults.has('scan-deprecated-update-path-gone'))
      return reply.code(404).type('text/plain; charset=utf-8').send('The requested resource could not be found.');
    const { update_id } = req.params as { update_id: string };
    const lossless = singleQuery(req.query, 'lossless');
    // scan-lossless-unchecked: anything but "true" reads as false.
    // scan-lossless-default-true: no lossless reads as true.
    const unset = lossless === undefined && ctx.faults.has('scan-lossless-default-true');
    const verbose = unset || (ctx.faults.has('scan-lossless-unchecked') ? lossless === 'true' : lossless !== undefined && booleanText(lossless, 'lossless'));
    // scan-lossless-ignored: lossless=true is answered in the default, compact encoding.
    const encoding: ValueEncoding = verbose && !ctx.faults.has('scan-lossless-ignored') ? 'verbose' : 'compact';
    // scan-v0-lookup-other-update: the update after the one asked for.
    const u = lookupAnswered(ctx, update_id, 'scan-v0-lookup-other-update');
    if (!u) throw notFound(`Update ${update_id} not found`);
    return render(ctx, u, { encoding, v2: false });
  });

  app.get('/v2/updates/:update_id', async (req) => {
    const { update_id } = req.params as { update_id: string };
    // The official scan document names daml_value_encoding here too (the description does not show this path).
    const text = singleQuery(req.query, 'daml_value_encoding');
    const encoding = valueEncoding(text);
    if (!encoding) throw badRequest(`Invalid value for query parameter daml_value_encoding: ${text} (expected compact_json or protobuf_json)`);
    // scan-v2-lookup-other-update: the update after the one asked for.
    const u = lookupAnswered(ctx, update_id, 'scan-v2-lookup-other-update');
    // scan-v2-unknown-update-500: an id the node has never seen (not even a verdict of) is the node's internal error.
    const unseen = !u && !ctx.world.rejectedVerdicts.some((v) => v.updateId === update_id);
    if (unseen && ctx.faults.has('scan-v2-unknown-update-500')) throw new ScanError(500, `Lookup of update ${update_id} failed`);
    if (!u) throw notFound(`Update ${update_id} not found`);
    return renderV2Update(ctx, u, encoding);
  });

  app.get('/v0/events/:update_id', async (req) => {
    const { update_id } = req.params as { update_id: string };
    const encoding = encodingParam(ctx, req.query);
    // scan-event-lookup-other-update: the item of the update after the one asked for.
    const u = lookupAnswered(ctx, update_id, 'scan-event-lookup-other-update');
    if (u) return renderEventItem(ctx, u, encoding);
    const rejected = ctx.world.rejectedVerdicts.find((v) => v.updateId === update_id);
    if (rejected) return renderVerdictItem(ctx, rejected);
    throw notFound(`Event ${update_id} not found`);
  });
}
