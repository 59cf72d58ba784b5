// Shared by the scan tests: a small client for the scan interface of a running reference node, and the
// rule checks that the behaviour tests assert on a clean node and the fault tests expect to fail.
import { createHash } from 'node:crypto';
import type { RunningReferenceNode } from '../../reference-node/index.ts';
import type { Snapshot } from '../../reference-node/world/model.ts';
import { isoMicros } from '../../reference-node/world/time.ts';
import { call } from '../support/response-conformance.ts';
import type { Json as AnyJson } from '../../common/json.ts';

export type Res = Awaited<ReturnType<typeof call>>;
type Json = Record<string, AnyJson>;

export function scanClient(node: RunningReferenceNode) {
  const base = node.urls.scan;
  return {
    get: (path: string) => call(base + path),
    post: (path: string, body?: unknown, raw?: string) =>
      call(base + path, {
        method: 'POST',
        ...(body === undefined && raw === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: raw ?? JSON.stringify(body) }),
      }),
  };
}
export type ScanClient = ReturnType<typeof scanClient>;

const world = (node: RunningReferenceNode) => node.context.world;

// --- holdings --------------------------------------------------------------------------------------

export type HoldingsVersion = 'v0' | 'v1' | 'v2';

/** The latest snapshot of the current migration (it holds the most holdings). */
export function lastSnapshot(node: RunningReferenceNode, migrationId = world(node).currentMigrationId): Snapshot {
  return world(node)
    .snapshots.filter((s) => s.migrationId === migrationId)
    .sort((a, b) => a.recordTimeMicros - b.recordTimeMicros)
    .at(-1)!;
}

export function holdingsBody(s: Snapshot, owners: string[], pageSize: number, extra: Json = {}): Json {
  return { migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros), page_size: pageSize, owner_party_ids: owners, ...extra };
}

/** What the holdings endpoints must return, straight from the world: contract ids in creation order. */
export function expectedHoldings(node: RunningReferenceNode, s: Snapshot, owners: string[]): string[] {
  const w = world(node);
  const out: string[] = [];
  for (let seq = 0; seq < w.holdingCount; seq++) {
    const h = w.holdingAt(seq)!;
    if (h.contract.createdIn > s.upToIndex) break;
    if (h.archivedIn !== undefined && h.archivedIn <= s.upToIndex) continue;
    if (owners.includes(w.holdingOwner(h.contract))) out.push(h.contract.contractId);
  }
  return out;
}

export interface HoldingsWalk {
  pages: Json[];
  ids: string[];
  /** True when the walk stopped at the page limit with a token still present. */
  truncated: boolean;
  statuses: number[];
}

/** Follows next_page_token from the first page, at most `maxPages` pages. */
export async function walkHoldings(client: ScanClient, version: HoldingsVersion, body: Json, maxPages = 400): Promise<HoldingsWalk> {
  const pages: Json[] = [];
  const statuses: number[] = [];
  let after: unknown;
  for (let n = 0; n < maxPages; n++) {
    const res = await client.post(`/${version}/holdings/state`, after === undefined ? body : { ...body, after });
    statuses.push(res.status);
    if (res.status !== 200) break;
    const page = res.json() as Json;
    pages.push(page);
    if (page.next_page_token === undefined)
      return { pages, ids: pages.flatMap((p) => p.created_events.map((e: Json) => e.contract_id)), truncated: false, statuses };
    after = page.next_page_token;
  }
  return { pages, ids: pages.flatMap((p) => (p.created_events ?? []).map((e: Json) => e.contract_id)), truncated: true, statuses };
}

/** Position of each holding in creation order, by contract id. */
export function creationOrder(node: RunningReferenceNode): Map<string, number> {
  const w = world(node);
  const m = new Map<string, number>();
  for (let seq = 0; seq < Math.min(w.holdingCount, 50_000); seq++) m.set(w.holdingAt(seq)!.contract.contractId, seq);
  return m;
}

// --- update history ---------------------------------------------------------------------------------

/** Indices of the updates the scan history serves (transactions and reassignments), in order. */
export function scanIndices(node: RunningReferenceNode, limit = world(node).baseCount): number[] {
  const w = world(node);
  const out: number[] = [];
  for (let i = 0; i < Math.min(limit, w.count); i++) if (w.getUpdate(i).kind !== 'topology') out.push(i);
  return out;
}

export function transactionIndices(node: RunningReferenceNode, limit?: number): number[] {
  return scanIndices(node, limit).filter((i) => world(node).getUpdate(i).kind === 'transaction');
}

export function reassignmentIndices(node: RunningReferenceNode): number[] {
  return scanIndices(node).filter((i) => world(node).getUpdate(i).kind !== 'transaction');
}

/** Violations of the event tree rules of one transaction. */
export function treeProblems(tx: Json): string[] {
  const problems: string[] = [];
  const events = tx.events_by_id as Record<string, Json>;
  for (const r of tx.root_event_ids as string[]) if (!(r in events)) problems.push(`root ${r} is not a key`);
  for (const [key, e] of Object.entries(events)) {
    if (e.event_id !== key) problems.push(`event_id ${e.event_id} differs from its key ${key}`);
    for (const c of (e.child_event_ids ?? []) as string[]) if (!(c in events)) problems.push(`child ${c} of ${key} is not a key`);
  }
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || !(id in events)) return;
    seen.add(id);
    for (const c of (events[id]!.child_event_ids ?? []) as string[]) visit(c);
  };
  (tx.root_event_ids as string[]).forEach(visit);
  for (const key of Object.keys(events)) if (!seen.has(key)) problems.push(`event ${key} is not reachable from the roots`);
  return problems;
}

export const isSorted = (xs: string[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1]! < x);

export const MICROS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export async function fetchUpdates(client: ScanClient, node: RunningReferenceNode, indices: number[], version: 'v0' | 'v2' = 'v0'): Promise<Json[]> {
  const out: Json[] = [];
  for (const i of indices) {
    const res = await client.get(`/${version}/updates/${world(node).updateId(i)}`);
    if (res.status !== 200) throw new Error(`update ${i}: ${res.status} ${res.text}`);
    out.push(res.json() as Json);
  }
  return out;
}

/** Reassignment rule violations: pairs share unassign_id and counter; per contract, unassign counters start
 *  above 0 (0 is the creation) and strictly increase. `items` in update order. */
export function reassignmentProblems(items: Json[]): string[] {
  const problems: string[] = [];
  const byPair = new Map<string, Json[]>();
  const unassignCounters = new Map<string, number[]>();
  for (const it of items) {
    const e = it.event as Json;
    byPair.set(e.unassign_id, [...(byPair.get(e.unassign_id) ?? []), e]);
    if (e.contract_id !== undefined) unassignCounters.set(e.contract_id, [...(unassignCounters.get(e.contract_id) ?? []), e.reassignment_counter]);
  }
  for (const [id, pair] of byPair) {
    if (pair.length !== 2) problems.push(`unassign_id ${id} has ${pair.length} events`);
    else if (pair[0]!.reassignment_counter !== pair[1]!.reassignment_counter)
      problems.push(`pair ${id}: counters ${pair[0]!.reassignment_counter} and ${pair[1]!.reassignment_counter}`);
  }
  for (const [cid, counters] of unassignCounters) {
    if (counters[0]! < 1) problems.push(`${cid}: first unassign counter ${counters[0]}`);
    for (let k = 1; k < counters.length; k++)
      if (counters[k]! <= counters[k - 1]!) problems.push(`${cid}: counters ${counters.join(',')} not strictly increasing`);
  }
  return problems;
}

/** Offsets strictly increase (lexicographically) along updates in record-time order. */
export function offsetProblems(items: Json[]): string[] {
  const problems: string[] = [];
  for (let k = 1; k < items.length; k++) {
    const [a, b] = [items[k - 1]!, items[k]!];
    if (!(a.record_time < b.record_time)) problems.push(`record times not increasing at ${b.update_id}`);
    if (!(a.offset < b.offset)) problems.push(`offset ${b.offset} of ${b.update_id} is not after ${a.offset}`);
  }
  return problems;
}

/** Verdict view references: sub_views, root_views and envelope view ids all name existing views. */
export function verdictProblems(item: Json): string[] {
  const problems: string[] = [];
  const views = (item.verdict?.transaction_views?.views ?? []) as Json[];
  const ids = new Set(views.map((v) => v.view_id));
  for (const v of views) for (const s of v.sub_views as number[]) if (!ids.has(s)) problems.push(`sub view ${s} of ${v.view_id} unknown`);
  for (const r of (item.verdict?.transaction_views?.root_views ?? []) as number[]) if (!ids.has(r)) problems.push(`root view ${r} unknown`);
  for (const e of (item.traffic_summary?.envelope_traffic_summaries ?? []) as Json[])
    for (const id of e.view_ids as number[]) if (!ids.has(id)) problems.push(`envelope view ${id} unknown`);
  return problems;
}

// --- reference data -----------------------------------------------------------------------------------

export function faucetQuery(ids: string[]): string {
  return `/v0/validators/validator-faucets?${ids.map((id) => `validator_ids=${encodeURIComponent(id)}`).join('&')}`;
}

export function faucetArithmeticProblems(records: Json[]): string[] {
  return records
    .filter((r) => r.numRoundsCollected + r.numRoundsMissed !== r.lastCollectedInRound - r.firstCollectedInRound + 1)
    .map((r) => `${r.validator}: ${r.numRoundsCollected} + ${r.numRoundsMissed} != ${r.lastCollectedInRound} - ${r.firstCollectedInRound} + 1`);
}

export const byValidator = (records: Json[]): Json[] => [...records].sort((a, b) => (a.validator < b.validator ? -1 : 1));

export const PARTICIPANT_ID = /^PAR::[^:]+::[^:]+$/;

export function ansUrlOk(url: string): boolean {
  if (url === '') return true;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

export const sha256 = (bytes: Buffer | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Follows the bulk listing's pages for a range; returns the refs (bounded). */
export async function walkBulk(client: ScanClient, body: Json, maxPages = 200): Promise<{ refs: Json[]; pages: number; statuses: number[] }> {
  const refs: Json[] = [];
  const statuses: number[] = [];
  let token: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const res = await client.post('/v0/history/bulk/updates', token === undefined ? body : { ...body, next_page_token: token });
    statuses.push(res.status);
    if (res.status !== 200) break;
    const page = res.json() as Json;
    refs.push(...page.object_refs);
    token = page.next_page_token;
    if (token === undefined) return { refs, pages: n + 1, statuses };
  }
  return { refs, pages: maxPages, statuses };
}

export async function download(url: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, contentType: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A scan error: documented status, JSON, exactly `{error: string}`. */
export function errorShapeProblems(res: Res, status: number): string[] {
  const problems: string[] = [];
  if (res.status !== status) problems.push(`status ${res.status}, expected ${status}: ${res.text.slice(0, 200)}`);
  if (!/^application\/json/.test(res.contentType ?? '')) problems.push(`content type ${res.contentType}`);
  try {
    const body = JSON.parse(res.text) as Json;
    if (typeof body.error !== 'string') problems.push(`body ${res.text.slice(0, 200)} has no error string`);
  } catch {
    problems.push(`body is not JSON: ${res.text.slice(0, 200)}`);
  }
  return problems;
}

// --- requests for every operation ------------------------------------------------------------------

const enc = encodeURIComponent;

export interface WorldRequest {
  op: string;
  path: string;
  init?: RequestInit;
}

const postJson = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Requests for every scan operation built from the world's ids, successes and documented errors alike.
 *  `brief` keeps a few updates and objects instead of all of them. */
export function scanWorldRequests(n: RunningReferenceNode, brief = false): WorldRequest[] {
  const world = n.context.world;
  const out: WorldRequest[] = [];
  const add = (op: string, path: string, init?: RequestInit) => out.push({ op, path, init });
  const owners = world.parties.map((p) => p.id);
  const versions = [
    ['v0', 'getHoldingsStateV0'],
    ['v1', 'getHoldingsStateV1'],
    ['v2', 'getHoldingsStateV2'],
  ] as const;
  for (const s of world.snapshots) {
    for (const [v, op] of versions) {
      add(op, `/${v}/holdings/state`, postJson(holdingsBody(s, owners, 25)));
      add(
        op,
        `/${v}/holdings/state`,
        postJson(holdingsBody(s, [world.bulkHoldingOwners[0]!], 3, { record_time_match: 'at_or_before', record_time: isoMicros(s.recordTimeMicros + 7) })),
      );
    }
  }
  const s0 = world.snapshots[0]!;
  for (const [v, op] of versions) {
    add(op, `/${v}/holdings/state`, postJson(holdingsBody(s0, owners, 5, { after: v === 'v2' ? 'bm90LWEtdG9rZW4' : 3 })));
    add(op, `/${v}/holdings/state`, postJson(holdingsBody(s0, [], 5)));
    add(op, `/${v}/holdings/state`, postJson(holdingsBody(s0, owners, 5, { record_time: isoMicros(s0.recordTimeMicros + 1) })));
    add(op, `/${v}/holdings/state`, postJson(holdingsBody(s0, owners, 5, { migration_id: 99 })));
    add(op, `/${v}/holdings/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"migration_id": 1,' });
  }
  const indices = brief ? scanIndices(n).filter((_, k) => k % 20 === 0) : scanIndices(n);
  for (const i of indices.concat([1, world.count - 1])) {
    const id = world.updateId(i);
    add('getUpdateByIdV0', `/v0/updates/${id}`);
    add('getUpdateByIdV2', `/v2/updates/${id}`);
    add('getEventById', `/v0/events/${id}`);
  }
  for (const i of indices.slice(0, brief ? 4 : 40)) {
    add('getUpdateByIdV0', `/v0/updates/${world.updateId(i)}?lossless=true`);
    add('getEventById', `/v0/events/${world.updateId(i)}?daml_value_encoding=protobuf_json`);
  }
  add('getUpdateByIdV0', `/v0/updates/${world.updateId(3)}?lossless=maybe`);
  add('getEventById', `/v0/events/${world.updateId(3)}?daml_value_encoding=yaml`);
  for (const v of world.rejectedVerdicts) add('getEventById', `/v0/events/${v.updateId}`);
  add('getUpdateByIdV0', '/v0/updates/unknown');
  add('getUpdateByIdV2', '/v2/updates/unknown');
  add('getEventById', '/v0/events/unknown');
  const range = { start_record_time: isoMicros(world.recordTimeMicros(0) - 10), end_record_time: isoMicros(world.recordTimeMicros(world.count - 1)) };
  add('listBulkHistoryUpdates', '/v0/history/bulk/updates', postJson({ ...range, page_size: 4 }));
  add('listBulkHistoryUpdates', '/v0/history/bulk/updates', postJson({ ...range, page_size: 0 }));
  add('listBulkHistoryUpdates', '/v0/history/bulk/updates', postJson({ ...range, page_size: 10, next_page_token: '???' }));
  add(
    'listBulkHistoryUpdates',
    '/v0/history/bulk/updates',
    postJson({ start_record_time: range.end_record_time, end_record_time: range.start_record_time, page_size: 10 }),
  );
  for (let k = 0; k < (brief ? 2 : world.bulkObjectCount); k++) add('downloadBulkHistoryObject', `/v0/history/bulk/download/${enc(world.bulkObject(k)!.key)}`);
  add('downloadBulkHistoryObject', '/v0/history/bulk/download/nothing-here');
  for (const p of [...world.preapprovals.keys(), world.dso.id]) add('getTransferPreapprovalByParty', `/v0/transfer-preapprovals/by-party/${enc(p)}`);
  for (const s of world.synchronizers) {
    for (const m of [...world.memberTraffic.keys(), 'PAR::nobody::1220ab', 'not-a-member'])
      add('getMemberTrafficStatus', `/v0/domains/${enc(s.id)}/members/${enc(m)}/traffic-status`);
    for (const p of [...owners, 'nobody::1220ab']) add('getPartyToParticipantV1', `/v1/domains/${enc(s.id)}/parties/${enc(p)}/participant-id`);
    add('getSynchronizerIdentities', `/v0/synchronizer-identities/${enc(s.id.slice(0, 6))}`);
    add('getSynchronizerIdentities', `/v0/synchronizer-identities/${enc(s.id)}`);
  }
  add('getMemberTrafficStatus', `/v0/domains/unknown/members/${enc(world.validators[0]!.participantId)}/traffic-status`);
  add('getSynchronizerIdentities', '/v0/synchronizer-identities/zzz');
  add('getValidatorFaucetsByValidator', faucetQuery([...world.validators.map((v) => v.party), 'unknown::1220ab']));
  add('getValidatorFaucetsByValidator', '/v0/validators/validator-faucets');
  add('listUnclaimedDevelopmentFundCoupons', '/v0/unclaimed-development-fund-coupons');
  for (const sv of [...world.svParties, world.dso]) {
    add('getPreviousSvRewardWeight', '/v0/admin/sv/previous-sv-reward-weight', postJson({ svParty: sv.id }));
    add(
      'getPreviousSvRewardWeight',
      '/v0/admin/sv/previous-sv-reward-weight',
      postJson({ svParty: sv.id, effectiveBefore: isoMicros(world.recordTimeMicros(0)) }),
    );
  }
  add('getPreviousSvRewardWeight', '/v0/admin/sv/previous-sv-reward-weight', postJson({}));
  add('getFeatureSupport', '/v0/feature-support');
  add('getBackfillingStatus', '/v0/backfilling/status');
  for (const q of ['page_size=50', 'page_size=2&name_prefix=a', 'page_size=5&name_prefix=', 'page_size=0', 'name_prefix=x', 'page_size=abc'])
    add('listAnsEntries', `/v0/ans-entries?${q}`);
  add('forceAcsSnapshotNow', '/v0/state/acs/force', { method: 'POST' });
  const lastRound = world.round(world.count - 1);
  for (const r of ['0', '1', '5', String(lastRound), String(lastRound + 50), '-3', 'abc', '99999999999999999999'])
    add('getRewardAccountingRootHash', `/v0/internal/reward-accounting-process/rounds/${r}/root-hash`);
  return out;
}
