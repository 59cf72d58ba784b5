// POST /v0|v1|v2/holdings/state and POST /v0/state/acs/force (snapshot matching: snapshot-query.ts).
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { isoMicros } from '../world/time.ts';
import { activeContract, createArguments, snapshotEvent } from './contracts.ts';
import { badRequest } from './errors.ts';
import { holdingsPage } from './holdings-page.ts';
import { datedRoutes } from './releases.ts';
import { bodyObject, requiredField } from './params.ts';
import { findSnapshot, integerToken, type SnapshotQuery, snapshotQuery } from './snapshot-query.ts';

type Version = 'v0' | 'v1' | 'v2';

interface HoldingsRequest extends SnapshotQuery {
  owners: string[];
  after: number;
}

/** v2 page tokens are opaque strings; underneath they carry the same position as the v0/v1 integers. */
export function encodeV2Token(seq: number): string {
  return Buffer.from(`holdings:${seq}`).toString('base64url');
}

/** The position a v2 `after` names; -1 when absent. */
function decodeV2Token(token: unknown): number {
  if (token === undefined || token === null) return -1;
  if (typeof token !== 'string') throw badRequest('Invalid request: after must be a page token string from next_page_token');
  const m = /^holdings:(\d{1,15})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw badRequest(`Invalid request: after is not a page token: ${token}`);
  return Number(m[1]);
}

function parseRequest(ctx: NodeContext, raw: unknown, version: Version): HoldingsRequest {
  const body = bodyObject(raw);
  const query = snapshotQuery(body);
  const owners = requiredField(body, 'owner_party_ids');
  if (!Array.isArray(owners) || owners.some((o) => typeof o !== 'string')) throw badRequest('Invalid request: owner_party_ids must be an array of party ids');
  if (owners.length === 0 && !ctx.faults.has('scan-holdings-empty-owners-accepted')) throw badRequest('Invalid request: owner_party_ids must not be empty');
  const after = version === 'v2' ? decodeV2Token(body.after) : integerToken(body);
  return { ...query, owners: owners as string[], after };
}

function holdingsState(ctx: NodeContext, raw: unknown, version: Version): JsonObject {
  const { world } = ctx;
  const req = parseRequest(ctx, raw, version);
  const snapshot = findSnapshot(ctx, req);
  // scan-holdings-first-owner-only: the filter keeps to the first of several owners.
  const owners = ctx.faults.has('scan-holdings-first-owner-only') ? req.owners.slice(0, 1) : req.owners;
  // scan-holdings-none-found: no contract is found for anyone (an empty last page).
  const page = ctx.faults.has('scan-holdings-none-found')
    ? { items: [], next: undefined }
    : holdingsPage(ctx, { snapshot, owners: new Set(owners), pageSize: req.pageSize, after: req.after });
  const dropTemplate = version !== 'v0' && ctx.faults.has('scan-required-field-dropped');
  // holdings-v0|v2-missing-contract: that version leaves out about a quarter of the contracts (by contract id,
  // so every page size leaves out the same ones).
  const missing =
    (version === 'v0' && ctx.faults.has('scan-holdings-v0-missing-contract')) || (version === 'v2' && ctx.faults.has('scan-holdings-v2-missing-contract'));
  const items = missing ? page.items.filter(({ contract }) => [...contract.contractId].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 4 !== 0) : page.items;
  const created_events = items.map(({ contract }) => {
    if (version === 'v0') {
      const e = snapshotEvent(world, contract);
      if (ctx.faults.has('scan-holdings-v0-event-type-missing')) delete e.event_type;
      // scan-holdings-v0-created-at-shifted: a microsecond after the creation time v1 gives.
      if (ctx.faults.has('scan-holdings-v0-created-at-shifted')) e.created_at = isoMicros(contract.createdAtMicros + 1);
      return e;
    }
    let c = activeContract(world, contract, req.migrationId);
    if (dropTemplate) delete c.template_id;
    // scan-holdings-v2-created-in-dropped: v2 names no creating update at all.
    if (version === 'v2' && ctx.faults.has('scan-holdings-v2-created-in-dropped')) delete c.created_in_update_id;
    // scan-holdings-created-in-earlier-migration: contracts of earlier migrations name their creating update too.
    if (ctx.faults.has('scan-holdings-created-in-earlier-migration') && c.created_in_update_id === undefined)
      c = { created_in_update_id: world.updateId(contract.createdIn), ...c };
    // scan-holdings-created-at-record-time: created_at is the creating update's record time, not its effective time.
    if (ctx.faults.has('scan-holdings-created-at-record-time')) c.created_at = isoMicros(world.recordTimeMicros(contract.createdIn));
    // scan-holdings-verbose-arguments: create_arguments in the verbose (protobuf_json) encoding.
    if (ctx.faults.has('scan-holdings-verbose-arguments')) c.create_arguments = createArguments(world, contract, 'verbose');
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
  const dated = datedRoutes(app, ctx);
  for (const version of ['v0', 'v1', 'v2'] as const) {
    dated.post(`/${version}/holdings/state`, async (req) => holdingsState(ctx, req.body, version));
  }
  app.post('/v0/state/acs/force', async () => {
    // scan-force-acs-stale-migration: the snapshot is filed under the migration before the current one.
    const s = ctx.world.forceSnapshot(ctx.faults.has('scan-force-acs-stale-migration') ? -1 : 0);
    // scan-force-acs-time-rejected: the reported time is a microsecond off the snapshot actually taken.
    const micros = s.recordTimeMicros + (ctx.faults.has('scan-force-acs-time-rejected') ? 1 : 0);
    return { record_time: isoMicros(micros), migration_id: s.migrationId };
  });
}
