// POST /v0|v1|v2/holdings/state and POST /v0/state/acs/force.
//
// Snapshot matching: with record_time_match `exact` (the default) a record time that is not a snapshot time
// of the migration is a 400 (the request is wrong, the snapshot exists elsewhere); a migration id without any
// snapshot, or `at_or_before` with no snapshot at or before the time, is a 404.
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Snapshot } from '../world/model.ts';
import { isoMicros } from '../world/time.ts';
import { activeContract, createdEvent, creatingNodeId, eventId } from './contracts.ts';
import { badRequest, notFound } from './errors.ts';
import { holdingsPage } from './holdings-page.ts';
import { bodyObject, integerField, pageSize, requiredField, stringField, timestamp } from './params.ts';

/** Largest holdings page_size (the description shows no maximum; larger pages are refused with 400). */
export const MAX_HOLDINGS_PAGE_SIZE = 1000;

type Version = 'v0' | 'v1' | 'v2';

interface HoldingsRequest {
  migrationId: number;
  recordTime: string;
  micros: number;
  match: 'exact' | 'at_or_before';
  pageSize: number;
  owners: string[];
  after: number;
}

/** v2 page tokens are opaque strings; underneath they carry the same position as the v0/v1 integers. */
export function encodeV2Token(seq: number): string {
  return Buffer.from(`holdings:${seq}`).toString('base64url');
}

function decodeV2Token(token: unknown): number {
  if (typeof token !== 'string') throw badRequest('Invalid request: after must be a page token string from next_page_token');
  const m = /^holdings:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw badRequest(`Invalid request: after is not a page token: ${token}`);
  return Number(m[1]);
}

function parseRequest(ctx: NodeContext, raw: unknown, version: Version): HoldingsRequest {
  const body = bodyObject(raw);
  const migrationId = integerField(body, 'migration_id', true);
  const recordTime = stringField(body, 'record_time', true);
  const micros = timestamp(recordTime, 'record_time');
  const match = body.record_time_match ?? 'exact';
  if (match !== 'exact' && match !== 'at_or_before')
    throw badRequest(`Invalid request: record_time_match must be exact or at_or_before, not ${JSON.stringify(match)}`);
  const size = pageSize(requiredField(body, 'page_size'), 'page_size', MAX_HOLDINGS_PAGE_SIZE);
  const owners = requiredField(body, 'owner_party_ids');
  if (!Array.isArray(owners) || owners.some((o) => typeof o !== 'string')) throw badRequest('Invalid request: owner_party_ids must be an array of party ids');
  if (owners.length === 0 && !ctx.faults.has('scan-holdings-empty-owners-accepted')) throw badRequest('Invalid request: owner_party_ids must not be empty');
  let after = -1;
  if (body.after !== undefined && body.after !== null) {
    if (version === 'v2') after = decodeV2Token(body.after);
    else {
      after = integerField(body, 'after', true);
      if (after < 0) throw badRequest('Invalid request: after must be a next_page_token of an earlier page');
    }
  }
  return { migrationId, recordTime, micros, match, pageSize: size, owners: owners as string[], after };
}

function findSnapshot(ctx: NodeContext, req: HoldingsRequest): Snapshot {
  const { world } = ctx;
  // scan-holdings-at-or-before-refused: at_or_before is looked up as exact.
  const match = req.match === 'at_or_before' && ctx.faults.has('scan-holdings-at-or-before-refused') ? 'exact' : req.match;
  const found = world.findSnapshot(req.migrationId, req.micros, match);
  if (found) return found;
  const missing = `No ACS snapshot found for migration id ${req.migrationId} at ${req.recordTime}`;
  if (!world.snapshots.some((s) => s.migrationId === req.migrationId) || req.match === 'at_or_before') throw notFound(missing);
  const earlier = world.findSnapshot(req.migrationId, req.micros, 'at_or_before');
  if (earlier && ctx.faults.has('scan-holdings-exact-ignored')) return earlier;
  throw badRequest(
    `${req.recordTime} is not the record time of an ACS snapshot of migration ${req.migrationId}; use a snapshot time or record_time_match at_or_before`,
  );
}

function holdingsState(ctx: NodeContext, raw: unknown, version: Version): JsonObject {
  const { world } = ctx;
  const req = parseRequest(ctx, raw, version);
  const snapshot = findSnapshot(ctx, req);
  const page = holdingsPage(ctx, { snapshot, owners: new Set(req.owners), pageSize: req.pageSize, after: req.after });
  const dropTemplate = version !== 'v0' && ctx.faults.has('scan-required-field-dropped');
  // holdings-v0|v2-missing-contract: that version leaves out about a quarter of the contracts (by contract id,
  // so every page size leaves out the same ones).
  const missing =
    (version === 'v0' && ctx.faults.has('scan-holdings-v0-missing-contract')) || (version === 'v2' && ctx.faults.has('scan-holdings-v2-missing-contract'));
  const items = missing ? page.items.filter(({ contract }) => [...contract.contractId].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 4 !== 0) : page.items;
  const created_events = items.map(({ contract }) => {
    if (version === 'v0') {
      const e = createdEvent(contract, eventId(world.updateId(contract.createdIn), creatingNodeId(world, contract)));
      if (ctx.faults.has('scan-holdings-v0-event-type-missing')) delete e.event_type;
      return e;
    }
    const c = activeContract(world, contract, req.migrationId);
    if (dropTemplate) delete c.template_id;
    // scan-holdings-walked-page-malformed: only pages reached with a token, which a page walk alone asks for.
    if (req.after >= 0 && ctx.faults.has('scan-holdings-walked-page-malformed')) c.created_at = Date.parse(String(c.created_at));
    return c;
  });
  // scan-holdings-time-not-echoed: a microsecond after the requested time.
  const recordTime = ctx.faults.has('scan-holdings-time-not-echoed') ? isoMicros(req.micros + 1) : req.recordTime;
  const out: JsonObject = { record_time: recordTime, migration_id: req.migrationId, created_events };
  if (page.next !== undefined) out.next_page_token = version === 'v2' ? encodeV2Token(page.next) : page.next;
  // scan-holdings-null-page-token: the last page says so with null, as MainNet nodes do.
  else if (ctx.faults.has('scan-holdings-null-page-token')) out.next_page_token = null;
  return out;
}

export async function holdingsRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  for (const version of ['v0', 'v1', 'v2'] as const) {
    app.post(`/${version}/holdings/state`, async (req) => holdingsState(ctx, req.body, version));
  }
  app.post('/v0/state/acs/force', async () => {
    const s = ctx.world.forceSnapshot();
    // scan-force-acs-time-rejected: the reported time is a microsecond off the snapshot actually taken.
    const micros = s.recordTimeMicros + (ctx.faults.has('scan-force-acs-time-rejected') ? 1 : 0);
    return { record_time: isoMicros(micros), migration_id: s.migrationId };
  });
}
