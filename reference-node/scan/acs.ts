// GET /v0/state/acs/snapshot-timestamp and POST /v0/state/acs: the ACS snapshots and their active contracts.
//
// A snapshot's ACS is every holding active in it (the holdings endpoints' data) merged in creation order with
// the reference contracts the network started with (amulet rules, DSO rules, SV node states, validator licenses,
// transfer preapprovals, development fund coupons) and the open mining round of the snapshot's last update.
// The reward coupons and activity records the history creates are left out: the world never archives them,
// where a real network consumes them within a few rounds.
//
// The page token packs the walk's position, (holdings passed, reference contracts passed), into one number.
import type { FastifyInstance } from 'fastify';
import { isStringArray, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Contract, Snapshot } from '../world/model.ts';
import { openMiningRound } from '../world/dso-governance.ts';
import type { World } from '../world/world.ts';
import { isoMicros } from '../world/time.ts';
import { snapshotEvent } from './contracts.ts';
import { badRequest, notFound } from './errors.ts';
import { activeAt, MAX_POSITIONS_PER_PAGE } from './holdings-page.ts';
import { bodyObject, int64Text, singleQuery, timestamp } from './params.ts';
import { findSnapshot, integerToken, snapshotQuery } from './snapshot-query.ts';

/** The templates of the holdings, as `package_name:module:entity`. */
const HOLDING_TEMPLATES = ['splice-amulet:Splice.Amulet:Amulet', 'splice-amulet:Splice.Amulet:LockedAmulet'];

interface AcsFilter {
  parties?: ReadonlySet<string>;
  /** `package_name:module:entity` */
  templates?: ReadonlySet<string>;
}

/** `package_name:module:entity` of a contract (its template id without the package id). */
const qualifiedTemplate = (c: Contract) => `${c.packageName}:${c.templateId.slice(c.templateId.indexOf(':') + 1)}`;

function matches(c: Contract, f: AcsFilter): boolean {
  if (f.templates && !f.templates.has(qualifiedTemplate(c))) return false;
  return !f.parties || c.signatories.some((p) => f.parties!.has(p)) || c.observers.some((p) => f.parties!.has(p));
}

/** An optional list of strings; absent or empty means no filter. */
function stringList(body: JsonObject, name: string): string[] | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (!isStringArray(v)) throw badRequest(`Invalid request: ${name} must be an array of strings`);
  return v.length > 0 ? v : undefined;
}

function acsFilter(body: JsonObject): AcsFilter {
  const parties = stringList(body, 'party_ids');
  const templates = stringList(body, 'templates');
  const malformed = templates?.find((t) => t.split(':').length !== 3);
  if (malformed !== undefined) throw badRequest(`Invalid request: malformed template id ${malformed}, expected package_name:module_name:entity_name`);
  return { ...(parties ? { parties: new Set(parties) } : {}), ...(templates ? { templates: new Set(templates) } : {}) };
}

/** The reference contracts of a snapshot, in creation order. */
function referenceContracts(world: World, s: Snapshot): Contract[] {
  return [...world.governance.referenceContracts, openMiningRound(world, world.round(s.upToIndex))]
    .filter((c) => c.createdIn <= s.upToIndex)
    .sort((a, b) => a.createdIn - b.createdIn);
}

interface AcsPage {
  items: Contract[];
  next?: number;
}

/** Walks holdings and reference contracts side by side (reference contracts first among equals) from the
 *  position `after` names; stops after page_size matches, at the end, or at the bound of positions visited. */
function acsPage(world: World, s: Snapshot, filter: AcsFilter, pageSize: number, after: number): AcsPage {
  const extras = referenceContracts(world, s);
  const slots = extras.length + 1;
  let held = after < 0 ? 0 : Math.floor(after / slots);
  let extra = after < 0 ? 0 : after % slots;
  if (held > world.holdingCount) throw badRequest(`Invalid request: after is not a next_page_token of this snapshot: ${after}`);
  const walkHoldings = !filter.templates || HOLDING_TEMPLATES.some((t) => filter.templates!.has(t));
  const items: Contract[] = [];
  for (let visited = 0; ; visited++) {
    const position = held * slots + extra;
    if (visited >= MAX_POSITIONS_PER_PAGE) return { items, next: position };
    const h = walkHoldings ? world.holdingAt(held) : undefined;
    const holding = h && h.contract.createdIn <= s.upToIndex ? h : undefined;
    const e = extras[extra];
    let c: Contract | undefined;
    if (e && (!holding || e.createdIn <= holding.contract.createdIn)) {
      c = e;
      extra++;
    } else if (holding) {
      c = activeAt(holding, s) ? holding.contract : undefined;
      held++;
    } else return { items };
    if (c && matches(c, filter)) {
      if (items.length === pageSize) return { items, next: position };
      items.push(c);
    }
  }
}

export async function acsRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const { world } = ctx;

  app.get('/v0/state/acs/snapshot-timestamp', async (req) => {
    const before = singleQuery(req.query, 'before');
    const migration = singleQuery(req.query, 'migration_id');
    if (before === undefined) throw badRequest('Missing query parameter before');
    if (migration === undefined) throw badRequest('Missing query parameter migration_id');
    const micros = timestamp(before, 'before');
    const migrationId = int64Text(migration, 'migration_id');
    const s = Number.isSafeInteger(Number(migrationId)) ? world.findSnapshot(Number(migrationId), micros, 'at_or_before') : undefined;
    if (!s) throw notFound(`No ACS snapshot of migration ${migration} found at or before ${before}`);
    return { record_time: isoMicros(s.recordTimeMicros) };
  });

  app.post('/v0/state/acs', async (req) => {
    const body = bodyObject(req.body);
    const query = snapshotQuery(body);
    const filter = acsFilter(body);
    const after = integerToken(body);
    const page = acsPage(world, findSnapshot(ctx, query), filter, query.pageSize, after);
    const created_events = page.items.map((c) => snapshotEvent(world, c));
    return {
      record_time: query.recordTime,
      migration_id: query.migrationId,
      created_events,
      ...(page.next !== undefined ? { next_page_token: page.next } : {}),
    };
  });
}
