// The reference node's scan interface (/api/scan): every answer conforms to scan-api.yaml (requests built
// from the world's own ids and generated valid requests), and the description's scan rules hold.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTarget, validRequest, type CompiledSpec } from '../../generators/index.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { UNVERDICTED_TRANSACTIONS, type TransactionUpdate } from '../../reference-node/world/model.ts';
import { isoMicros } from '../../reference-node/world/time.ts';
import { builtinSpec } from '../support/builtin-specs.ts';
import { call, responseProblems } from '../support/response-conformance.ts';
import {
  ansUrlOk,
  byValidator,
  creationOrder,
  download,
  errorShapeProblems,
  expectedHoldings,
  faucetArithmeticProblems,
  faucetQuery,
  fetchUpdates,
  holdingsBody,
  isSorted,
  lastSnapshot,
  MICROS_ISO,
  offsetProblems,
  PARTICIPANT_ID,
  reassignmentIndices,
  reassignmentProblems,
  scanClient,
  scanWorldRequests,
  scanIndices,
  sha256,
  transactionIndices,
  treeProblems,
  verdictProblems,
  walkBulk,
  walkHoldings,
  type ScanClient,
} from './scan-support.ts';
import type { Json as AnyJson } from '../../common/json.ts';

type Json = Record<string, AnyJson>;

const SEED = 4242;

let node: RunningReferenceNode;
let spec: CompiledSpec;
let client: ScanClient;

beforeAll(async () => {
  spec = await builtinSpec('scan');
  node = await startReferenceNode({ seed: 3 });
  client = scanClient(node);
});
afterAll(() => node?.close());

const w = () => node.context.world;
const enc = encodeURIComponent;

// --- 1. self-test ------------------------------------------------------------------------------------

describe('self-test: every scan response conforms to scan-api.yaml', () => {
  it('requests built from the world reach every operation and get documented, schema-valid answers', async () => {
    const problems: string[] = [];
    const statuses = new Map<string, Set<number>>();
    for (const r of scanWorldRequests(node)) {
      const res = await call(node.urls.scan + r.path, r.init);
      (statuses.get(r.op) ?? statuses.set(r.op, new Set()).get(r.op)!).add(res.status);
      problems.push(...responseProblems(spec, r.op, res).map((p) => `${r.path}: ${p}`));
      if (res.status === 500) problems.push(`${r.path}: 500 ${res.text}`);
    }
    expect(problems).toEqual([]);
    expect([...statuses.keys()].sort()).toEqual(spec.catalog.operations.map((o) => o.id).sort());
    expect(spec.catalog.operations).toHaveLength(20);
    for (const [op, seen] of statuses) expect([...seen], op).toContain(200);
  });

  it('generated valid requests get documented, schema-valid answers and never a 500', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const op of spec.catalog.operations) {
      for (const req of fc.sample(validRequest(op, spec.validators), { numRuns: 6, seed: SEED })) {
        const target = requestTarget(op, req);
        const init: RequestInit = { method: op.method.toUpperCase(), headers: { ...req.headers } };
        if (req.body !== undefined || req.rawBody !== undefined) {
          init.body = req.rawBody ?? JSON.stringify(req.body);
          (init.headers as Record<string, string>)['content-type'] = req.contentType ?? 'application/json';
        }
        const res = await call(node.urls.ledger + target, init);
        sent++;
        problems.push(...responseProblems(spec, op.id, res).map((p) => `${op.method} ${target}: ${p}`));
        if (res.status === 500) problems.push(`${op.method} ${target}: 500 ${res.text}`);
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBe(20 * 6);
  });
});

// --- 2. behaviour -------------------------------------------------------------------------------------

describe('holdings', () => {
  const owners = () => w().bulkHoldingOwners;

  it('walking the tokens yields every active owned contract exactly once, the same set for page sizes 1, 7 and 100', async () => {
    const s = lastSnapshot(node);
    const expected = expectedHoldings(node, s, owners());
    expect(expected.length).toBeGreaterThan(100);
    for (const size of [1, 7, 100]) {
      const walk = await walkHoldings(client, 'v1', holdingsBody(s, owners(), size));
      expect(walk.truncated).toBe(false);
      expect(walk.ids).toEqual(expected);
      expect(new Set(walk.ids).size).toBe(walk.ids.length);
      // Bounded pages, token present exactly while more remain.
      for (const [k, page] of walk.pages.entries()) {
        expect(page.created_events.length).toBeLessThanOrEqual(size);
        if (k < walk.pages.length - 1) expect(page.created_events.length).toBeGreaterThan(0);
      }
      expect(walk.pages.at(-1)!.next_page_token).toBeUndefined();
    }
  });

  it('pages hold at most page_size contracts in creation order, and every version walks the same set', async () => {
    const s = lastSnapshot(node);
    const order = creationOrder(node);
    const walks = await Promise.all((['v0', 'v1', 'v2'] as const).map((v) => walkHoldings(client, v, holdingsBody(s, owners(), 9))));
    for (const walk of walks) {
      const positions = walk.ids.map((id) => order.get(id)!);
      expect(isSorted(positions.map((p) => String(p).padStart(8, '0')))).toBe(true);
      for (const page of walk.pages) expect(page.created_events.length).toBeLessThanOrEqual(9);
    }
    expect(walks[0]!.ids).toEqual(walks[1]!.ids);
    expect(walks[2]!.ids).toEqual(walks[1]!.ids);
    expect(typeof walks[1]!.pages[0]!.next_page_token).toBe('number');
    expect(typeof walks[2]!.pages[0]!.next_page_token).toBe('string');
  });

  it('filters by owner and echoes record_time and migration_id exactly as sent', async () => {
    const s = lastSnapshot(node);
    const alice = owners()[0]!;
    // The same instant written with an offset instead of Z: the answer echoes the text as sent.
    const recordTime = isoMicros(s.recordTimeMicros).replace('Z', '+00:00');
    const res = await client.post('/v1/holdings/state', { ...holdingsBody(s, [alice], 1000), record_time: recordTime });
    expect(res.status, res.text).toBe(200);
    const page = res.json() as Json;
    expect(page.record_time).toBe(recordTime);
    expect(page.migration_id).toBe(s.migrationId);
    expect(page.created_events.length).toBeGreaterThan(0);
    for (const c of page.created_events) expect(c.create_arguments.owner).toBe(alice);
    expect(page.created_events.map((c: Json) => c.contract_id)).toEqual(expectedHoldings(node, s, [alice]));
  });

  it('v0 returns created events (event_type, event_id) and v1 active contracts of the same set', async () => {
    const s = lastSnapshot(node);
    const [v0, v1] = await Promise.all([walkHoldings(client, 'v0', holdingsBody(s, owners(), 50)), walkHoldings(client, 'v1', holdingsBody(s, owners(), 50))]);
    expect(v0.ids).toEqual(v1.ids);
    const order = creationOrder(node);
    for (const e of v0.pages.flatMap((p) => p.created_events)) {
      expect(e.event_type).toBe('created_event');
      const c = w().holdingAt(order.get(e.contract_id)!)!.contract;
      expect(e.event_id).toMatch(new RegExp(`^${w().updateId(c.createdIn)}:\\d+$`));
      expect(e.created_in_update_id).toBeUndefined();
    }
  });

  it('omits created_in_update_id for contracts created in an earlier migration', async () => {
    const s = lastSnapshot(node, 1);
    const walk = await walkHoldings(client, 'v1', holdingsBody(s, owners(), 100));
    const order = creationOrder(node);
    let earlier = 0;
    for (const c of walk.pages.flatMap((p) => p.created_events)) {
      const createdIn = w().holdingAt(order.get(c.contract_id)!)!.contract.createdIn;
      if (w().migrationOf(createdIn) < 1) {
        earlier++;
        expect(c.created_in_update_id).toBeUndefined();
      } else expect(c.created_in_update_id).toBe(w().updateId(createdIn));
    }
    expect(earlier).toBeGreaterThan(0);
  });

  it('rejects invalid bodies with 400 {error}: empty owners, bad page sizes, bad times, unknown match', async () => {
    const s = lastSnapshot(node);
    const bad: Json[] = [
      holdingsBody(s, [], 10),
      holdingsBody(s, owners(), 0),
      holdingsBody(s, owners(), 1001),
      holdingsBody(s, owners(), 1.5),
      holdingsBody(s, owners(), 10, { record_time: 'yesterday' }),
      holdingsBody(s, owners(), 10, { record_time_match: 'closest' }),
      holdingsBody(s, owners(), 10, { migration_id: '1' }),
      holdingsBody(s, owners(), 10, { owner_party_ids: [42] }),
      { record_time: isoMicros(s.recordTimeMicros), page_size: 10, owner_party_ids: owners() },
    ];
    for (const body of bad)
      for (const v of ['v0', 'v1', 'v2']) expect(errorShapeProblems(await client.post(`/${v}/holdings/state`, body), 400), JSON.stringify(body)).toEqual([]);
    expect(errorShapeProblems(await client.post('/v1/holdings/state', undefined, '{not json'), 400)).toEqual([]);
    expect(errorShapeProblems(await client.post('/v1/holdings/state'), 400)).toEqual([]);
  });

  it('exact needs a snapshot time (400 otherwise); at_or_before takes the latest snapshot not after it; none is 404', async () => {
    const [early, later] = w().snapshots.filter((s) => s.migrationId === 0);
    const between = isoMicros(later!.recordTimeMicros - 1);
    expect((await client.post('/v1/holdings/state', holdingsBody(early!, owners(), 5, { record_time: between }))).status).toBe(400);
    const atOrBefore = await walkHoldings(client, 'v1', holdingsBody(early!, owners(), 1000, { record_time: between, record_time_match: 'at_or_before' }));
    expect(atOrBefore.ids).toEqual(expectedHoldings(node, early!, owners()));
    expect(atOrBefore.pages[0]!.record_time).toBe(between);
    const beforeAll_ = isoMicros(early!.recordTimeMicros - 1);
    expect(
      errorShapeProblems(
        await client.post('/v1/holdings/state', holdingsBody(early!, owners(), 5, { record_time: beforeAll_, record_time_match: 'at_or_before' })),
        404,
      ),
    ).toEqual([]);
    expect(errorShapeProblems(await client.post('/v1/holdings/state', holdingsBody(early!, owners(), 5, { migration_id: 7 })), 404)).toEqual([]);
  });

  it('the force-ACS record time is accepted as exact and covers every holding', async () => {
    const res = await client.post('/v0/state/acs/force');
    expect(res.status).toBe(200);
    const forced = res.json() as Json;
    expect(forced.migration_id).toBe(w().currentMigrationId);
    expect(forced.record_time).toMatch(MICROS_ISO);
    const body = { migration_id: forced.migration_id, record_time: forced.record_time, page_size: 1000, owner_party_ids: owners() };
    const walk = await walkHoldings(client, 'v2', body);
    expect(walk.statuses.every((s) => s === 200)).toBe(true);
    expect(walk.ids).toEqual(expectedHoldings(node, lastSnapshot(node), owners()));
  });
});

describe('update history', () => {
  it('transaction trees: every root and child id is a key, every key is reachable, event_id equals its key', async () => {
    const txs = await fetchUpdates(client, node, transactionIndices(node));
    expect(txs.length).toBeGreaterThan(150);
    const problems = txs.flatMap((tx) => treeProblems(tx).map((p) => `${tx.update_id}: ${p}`));
    expect(problems).toEqual([]);
    const kinds = new Set(txs.flatMap((tx) => Object.values(tx.events_by_id as Json).map((e: Json) => e.event_type)));
    expect([...kinds].sort()).toEqual(['created_event', 'exercised_event']);
    expect(txs.some((tx) => tx.root_event_ids.length > 1)).toBe(true);
  });

  it('child_event_ids follow the order the events occurred', async () => {
    const i = transactionIndices(node).find((k) => {
      const u = w().getUpdate(k);
      return u.kind === 'transaction' && u.nodes.some((n) => n.kind === 'exercised' && n.children.length > 2);
    })!;
    const [tx] = await fetchUpdates(client, node, [i], 'v2');
    const u = w().getUpdate(i) as TransactionUpdate;
    for (const n of u.nodes)
      if (n.kind === 'exercised') expect(tx!.events_by_id[`${u.updateId}:${n.nodeId}`].child_event_ids).toEqual(n.children.map((c) => `${u.updateId}:${c}`));
  });

  it('v2 and event items carry events_by_id keys sorted in the raw JSON text, and no offset', async () => {
    const indices = transactionIndices(node)
      .filter((i) => {
        const u = w().getUpdate(i);
        return u.kind === 'transaction' && u.nodes.length >= 3;
      })
      .slice(0, 15);
    for (const i of indices) {
      for (const path of [`/v2/updates/${w().updateId(i)}`, `/v0/events/${w().updateId(i)}`]) {
        const res = await client.get(path);
        const tx = (path.includes('events') ? (res.json() as Json).update : res.json()) as Json;
        expect(tx.offset).toBeUndefined();
        // Key order as written in the text: JSON.parse keeps the order of non-numeric keys.
        const keysInText = [...res.text.matchAll(/"(1220[0-9a-f]{64}:\d+)":\{/g)].map((m) => m[1]!);
        expect(keysInText).toEqual(Object.keys(tx.events_by_id));
        expect(isSorted(keysInText)).toBe(true);
      }
    }
  });

  it('record times are ISO 8601 with microseconds; external_transaction_hash is a string or omitted, never null', async () => {
    const items = await fetchUpdates(client, node, scanIndices(node));
    for (const u of items) expect(u.record_time).toMatch(MICROS_ISO);
    const txs = items.filter((u) => u.events_by_id);
    expect(txs.some((tx) => typeof tx.external_transaction_hash === 'string')).toBe(true);
    for (const tx of txs) if ('external_transaction_hash' in tx) expect(typeof tx.external_transaction_hash).toBe('string');
    expect(txs.filter((tx) => !('external_transaction_hash' in tx)).length).toBeGreaterThan(0);
  });

  it('offsets increase with record time', async () => {
    const items = await fetchUpdates(client, node, scanIndices(node));
    expect(offsetProblems(items)).toEqual([]);
  });

  it('reassignment pairs share unassign_id and counter; per contract, counters start at 1 and increase with each unassign', async () => {
    const items = await fetchUpdates(client, node, reassignmentIndices(node));
    expect(items.length).toBeGreaterThan(10);
    expect(reassignmentProblems(items)).toEqual([]);
    const counters = items.map((it) => it.event.reassignment_counter);
    expect(Math.max(...counters)).toBeGreaterThan(1);
    for (const it of items) {
      if (it.event.created_event) {
        expect(it.event.created_event.event_type).toBe('created_event');
        expect(it.event.contract_id).toBeUndefined();
      } else expect(typeof it.event.contract_id).toBe('string');
    }
  });

  it('lossless / protobuf_json render values in the verbose typed encoding', async () => {
    const i = transactionIndices(node)[3]!;
    const [compact, lossless] = await Promise.all([client.get(`/v0/updates/${w().updateId(i)}`), client.get(`/v0/updates/${w().updateId(i)}?lossless=true`)]);
    const created = (body: Json) => Object.values(body.events_by_id as Json).find((e: Json) => e.event_type === 'created_event') as Json;
    expect(created(compact.json() as Json).create_arguments.owner).toBeDefined();
    expect(created(lossless.json() as Json).create_arguments.record.fields[0].label).toBeDefined();
    const ev = (await client.get(`/v0/events/${w().updateId(i)}?daml_value_encoding=protobuf_json`)).json() as Json;
    expect(created(ev.update).create_arguments.record).toBeDefined();
    expect(errorShapeProblems(await client.get(`/v0/events/${w().updateId(i)}?daml_value_encoding=xml`), 400)).toEqual([]);
  });

  it('event items: transaction + verdict + traffic (+ app activity); the first transactions, reassignments and rejected verdicts alone', async () => {
    let withApp = 0;
    const txs = transactionIndices(node);
    for (const i of txs.slice(0, UNVERDICTED_TRANSACTIONS))
      expect(Object.keys((await client.get(`/v0/events/${w().updateId(i)}`)).json() as Json)).toEqual(['update']);
    for (const i of txs.slice(UNVERDICTED_TRANSACTIONS, 80)) {
      const item = (await client.get(`/v0/events/${w().updateId(i)}`)).json() as Json;
      expect(Object.keys(item).filter((k) => k !== 'app_activity_records')).toEqual(['update', 'verdict', 'traffic_summary']);
      expect(item.verdict.update_id).toBe(item.update.update_id);
      expect(item.verdict.transaction_views.views.length).toBeGreaterThan(0);
      expect(verdictProblems(item)).toEqual([]);
      if (item.app_activity_records) withApp++;
    }
    expect(withApp).toBeGreaterThan(0);
    const r = (await client.get(`/v0/events/${w().updateId(reassignmentIndices(node)[0]!)}`)).json() as Json;
    expect(Object.keys(r)).toEqual(['update']);
    expect(r.update.event).toBeDefined();
    for (const v of w().rejectedVerdicts) {
      const item = (await client.get(`/v0/events/${v.updateId}`)).json() as Json;
      expect(Object.keys(item).sort()).toEqual(['traffic_summary', 'verdict']);
      expect(verdictProblems(item)).toEqual([]);
      expect((await client.get(`/v0/updates/${v.updateId}`)).status).toBe(404);
    }
  });

  it('unknown and topology update ids are 404 {error}', async () => {
    for (const id of ['nope', w().updateId(1), `1220${'0'.repeat(64)}`]) {
      for (const p of [`/v0/updates/${id}`, `/v2/updates/${id}`, `/v0/events/${id}`]) expect(errorShapeProblems(await client.get(p), 404), p).toEqual([]);
    }
  });
});

describe('bulk history', () => {
  it('pages object refs over the range; each download is the bytes its digest names', async () => {
    const world = w();
    const body = { start_record_time: isoMicros(world.recordTimeMicros(150)), end_record_time: isoMicros(world.recordTimeMicros(1000)), page_size: 3 };
    const walk = await walkBulk(client, body);
    // Updates 151..1000 lie in the objects of 100 updates numbered 1..10.
    expect(walk.refs.length).toBe(10);
    expect(walk.pages).toBe(Math.ceil(walk.refs.length / 3));
    for (const ref of walk.refs) {
      const d = await download(ref.url);
      expect(d.status).toBe(200);
      expect(d.contentType).toBe('application/octet-stream');
      expect(sha256(d.bytes)).toBe(ref.digest);
    }
    // Every update in (start, end] is in one of the objects.
    const covered = new Set<string>();
    for (const ref of walk.refs) for (const line of (await download(ref.url)).bytes.toString().trim().split('\n')) covered.add(JSON.parse(line).update_id);
    for (let i = 151; i <= 1000; i++) expect(covered.has(world.updateId(i))).toBe(true);
  });

  it('validates page_size (1..1000), times and their order; unknown objects are 404 {error}', async () => {
    const range = { start_record_time: '2025-01-06T09:00:00Z', end_record_time: '2025-01-06T10:00:00Z' };
    for (const page_size of [0, 1001, -1, 'ten'])
      expect(errorShapeProblems(await client.post('/v0/history/bulk/updates', { ...range, page_size }), 400)).toEqual([]);
    expect((await client.post('/v0/history/bulk/updates', { ...range, page_size: 1000 })).status).toBe(200);
    expect((await client.post('/v0/history/bulk/updates', { ...range, page_size: 1 })).status).toBe(200);
    expect(
      errorShapeProblems(
        await client.post('/v0/history/bulk/updates', { start_record_time: range.end_record_time, end_record_time: range.start_record_time, page_size: 5 }),
        400,
      ),
    ).toEqual([]);
    expect(errorShapeProblems(await client.post('/v0/history/bulk/updates', { ...range, start_record_time: 'soon', page_size: 5 }), 400)).toEqual([]);
    expect(errorShapeProblems(await client.get('/v0/history/bulk/download/updates%2F99999999-000000000000.jsonl'), 404)).toEqual([]);
  });
});

describe('reference data', () => {
  it('faucets: arithmetic holds, unknown ids are ignored, order of arguments does not matter', async () => {
    const ids = w().validators.map((v) => v.party);
    const a = ((await client.get(faucetQuery(ids))).json() as Json).validatorsReceivedFaucets as Json[];
    const b = ((await client.get(faucetQuery(['unknown::1220ff', ...[...ids].reverse(), ids[0]!]))).json() as Json).validatorsReceivedFaucets as Json[];
    expect(a).toHaveLength(ids.length);
    expect(faucetArithmeticProblems(a)).toEqual([]);
    expect(byValidator(b)).toEqual(byValidator(a));
    expect(a.some((r) => r.firstCollectedInRound === r.lastCollectedInRound)).toBe(true);
    expect(((await client.get(faucetQuery(['unknown::1220ff']))).json() as Json).validatorsReceivedFaucets).toEqual([]);
    expect(errorShapeProblems(await client.get('/v0/validators/validator-faucets'), 400)).toEqual([]);
  });

  it('traffic: totals from the world, limit never above purchased; member id format checked (400), unknowns 404', async () => {
    const domain = enc(w().synchronizers[0]!.id);
    let pending = 0;
    for (const [member, t] of w().memberTraffic) {
      const s = ((await client.get(`/v0/domains/${domain}/members/${enc(member)}/traffic-status`)).json() as Json).traffic_status;
      expect(s).toEqual({ actual: { total_consumed: t.totalConsumed, total_limit: t.totalLimit }, target: { total_purchased: t.totalPurchased } });
      expect(s.actual.total_limit).toBeLessThanOrEqual(s.target.total_purchased);
      if (s.actual.total_limit < s.target.total_purchased) pending++;
    }
    expect(pending).toBeGreaterThan(0);
    for (const bad of ['participant1', 'SEQ::x::y', 'PAR::a::b::c', 'PAR::::x'])
      expect(errorShapeProblems(await client.get(`/v0/domains/${domain}/members/${enc(bad)}/traffic-status`), 400), bad).toEqual([]);
    expect(errorShapeProblems(await client.get(`/v0/domains/${domain}/members/PAR::nobody::1220ab/traffic-status`), 404)).toEqual([]);
    expect(errorShapeProblems(await client.get(`/v0/domains/other/members/${enc(w().validators[0]!.participantId)}/traffic-status`), 404)).toEqual([]);
  });

  it('participant ids are PAR::id::fingerprint, both for the multi-hosted party; unknowns 404', async () => {
    const domain = enc(w().synchronizers[0]!.id);
    const multi = ((await client.get(`/v1/domains/${domain}/parties/${enc(w().multiHostedParty.id)}/participant-id`)).json() as Json)
      .participant_ids as string[];
    expect(multi).toEqual(w().multiHostedParty.hostedOn);
    expect(multi).toHaveLength(2);
    for (const p of w().parties) {
      const ids = ((await client.get(`/v1/domains/${domain}/parties/${enc(p.id)}/participant-id`)).json() as Json).participant_ids as string[];
      for (const id of ids) expect(id).toMatch(PARTICIPANT_ID);
    }
    expect(errorShapeProblems(await client.get(`/v1/domains/${domain}/parties/nobody/participant-id`), 404)).toEqual([]);
    expect(errorShapeProblems(await client.get(`/v1/domains/elsewhere/parties/${enc(w().multiHostedParty.id)}/participant-id`), 404)).toEqual([]);
  });

  it('ANS: prefix, non-expired only, oldest first, at most page_size, valid urls, special entries without expiry', async () => {
    const now = node.context.clock.now();
    const all = ((await client.get('/v0/ans-entries?page_size=1000')).json() as Json).entries as Json[];
    const live = w()
      .ansEntries.filter((e) => e.expiresAtMicros === undefined || e.expiresAtMicros > now)
      .sort((a, b) => a.createdAtMicros - b.createdAtMicros);
    expect(all.map((e) => e.name)).toEqual(live.map((e) => e.name));
    expect(live.length).toBeLessThan(w().ansEntries.length);
    for (const e of all) {
      expect(ansUrlOk(e.url)).toBe(true);
      if (e.contract_id === undefined) expect(e.expires_at ?? null).toBeNull();
      else expect(e.expires_at).toMatch(MICROS_ISO);
    }
    const app = ((await client.get('/v0/ans-entries?page_size=1000&name_prefix=app')).json() as Json).entries as Json[];
    expect(app.length).toBeGreaterThan(1);
    for (const e of app) expect(e.name.startsWith('app')).toBe(true);
    const two = ((await client.get('/v0/ans-entries?page_size=2&name_prefix=')).json() as Json).entries as Json[];
    expect(two.map((e) => e.name)).toEqual(all.slice(0, 2).map((e) => e.name));
    expect(((await client.get('/v0/ans-entries?page_size=5&name_prefix=%E2%9C%93')).json() as Json).entries).toEqual([]);
    for (const q of ['', 'page_size=0', 'page_size=x', 'page_size=99999999999'])
      expect(errorShapeProblems(await client.get(`/v0/ans-entries?${q}`), 400), q).toEqual([]);
  });

  it('preapprovals, coupons, reward weights, synchronizer identities, features, backfilling', async () => {
    const [party, p] = [...w().preapprovals][0]!;
    const pre = (await client.get(`/v0/transfer-preapprovals/by-party/${enc(party)}`)).json() as Json;
    expect(pre.transfer_preapproval.contract.contract_id).toBe(p.contract.contractId);
    expect(pre.transfer_preapproval.domain_id).toBe(p.domainId);
    expect(errorShapeProblems(await client.get(`/v0/transfer-preapprovals/by-party/${enc(w().dso.id)}`), 404)).toEqual([]);

    const coupons = ((await client.get('/v0/unclaimed-development-fund-coupons')).json() as Json)['unclaimed-development-fund-coupons'] as Json[];
    expect(coupons.map((c) => c.contract.contract_id)).toEqual(w().coupons.map((c) => c.contractId));
    for (const c of coupons) expect(c.contract.template_id).toMatch(/:UnclaimedDevelopmentFundCoupon$/);

    const sv = w().svParties[0]!.id;
    const changes = w().svRewardWeights.get(sv)!;
    const weight = (body: Json) => client.post('/v0/admin/sv/previous-sv-reward-weight', body).then((r) => r.json() as Json);
    // Without effectiveBefore, changes before the ledger's now count.
    const beforeNow = changes.filter((c) => c.effectiveAtMicros < node.context.clock.now()).at(-1);
    expect(await weight({ svParty: sv })).toEqual(beforeNow ? { rewardWeight: beforeNow.weight } : {});
    expect(await weight({ svParty: sv, effectiveBefore: isoMicros(changes.at(-1)!.effectiveAtMicros + 1) })).toEqual({ rewardWeight: changes.at(-1)!.weight });
    expect(await weight({ svParty: sv, effectiveBefore: isoMicros(changes[1]!.effectiveAtMicros) })).toEqual({ rewardWeight: changes[0]!.weight });
    expect(await weight({ svParty: sv, effectiveBefore: isoMicros(changes[1]!.effectiveAtMicros + 1) })).toEqual({ rewardWeight: changes[1]!.weight });
    expect(await weight({ svParty: sv, effectiveBefore: isoMicros(changes[0]!.effectiveAtMicros) })).toEqual({});
    expect(await weight({ svParty: 'nobody::1220ab' })).toEqual({});
    expect(errorShapeProblems(await client.post('/v0/admin/sv/previous-sv-reward-weight', {}), 400)).toEqual([]);
    expect(errorShapeProblems(await client.post('/v0/admin/sv/previous-sv-reward-weight', { svParty: sv, effectiveBefore: 'later' }), 400)).toEqual([]);

    const sync = w().synchronizers[1]!;
    const ids = (await client.get(`/v0/synchronizer-identities/${enc(sync.alias)}`)).json() as Json;
    expect(ids).toEqual({
      sequencer_id: sync.sequencerId,
      sequencer_identity_transactions: sync.sequencerIdentityTransactions,
      mediator_id: sync.mediatorId,
      mediator_identity_transactions: sync.mediatorIdentityTransactions,
    });
    expect(errorShapeProblems(await client.get('/v0/synchronizer-identities/nowhere'), 404)).toEqual([]);

    expect(typeof ((await client.get('/v0/feature-support')).json() as Json)).toBe('object');
    expect((await client.get('/v0/backfilling/status')).json()).toEqual({ complete: w().backfillingComplete });
  });

  it('root hash: the three result kinds; rounds that are not int64 are 400, unknown rounds 404', async () => {
    const seen = new Map<string, Json>();
    for (let r = 0; r <= w().round(w().count - 1); r++) {
      const res = await client.get(`/v0/internal/reward-accounting-process/rounds/${r}/root-hash`);
      const body = res.json() as Json;
      seen.set(body.status, body);
      if (body.root_hash !== undefined) {
        expect(body.round_number).toBe(r);
        expect(body.root_hash).toMatch(/^[0-9a-f]+$/);
      }
    }
    expect(seen.size).toBe(3);
    for (const bad of ['abc', '1.5', '99999999999999999999'])
      expect(errorShapeProblems(await client.get(`/v0/internal/reward-accounting-process/rounds/${bad}/root-hash`), 400), bad).toEqual([]);
    expect(errorShapeProblems(await client.get('/v0/internal/reward-accounting-process/rounds/-1/root-hash'), 404)).toEqual([]);
    expect(errorShapeProblems(await client.get(`/v0/internal/reward-accounting-process/rounds/${w().round(w().count - 1) + 1000}/root-hash`), 404)).toEqual([]);
  });

  // As real nodes' HTTP layer answers a path no handler serves (facts: errors), before the scan's {error}.
  it('unknown routes and methods under /api/scan get the text/plain 404 of the HTTP layer', async () => {
    for (const res of [await client.get('/v0/nothing'), await client.get('/v1/holdings/state'), await client.post('/v0/feature-support', {})])
      expect([res.status, res.contentType, res.text]).toEqual([404, 'text/plain; charset=UTF-8', 'The requested resource could not be found.']);
  });
});
