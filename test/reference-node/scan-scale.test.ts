// At scale 1000 (a million updates, a hundred thousand holdings) the scan answers lookups near the end of
// the history without walking it: a holdings or ACS page and an update lookup each take well under a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { isoMicros } from '../../reference-node/world/time.ts';
import { holdingsBody, lastSnapshot, scanClient, type ScanClient } from './scan-support.ts';
import type { Json as AnyJson } from '../../common/json.ts';

type Json = Record<string, AnyJson>;

let node: RunningReferenceNode;
let client: ScanClient;
beforeAll(async () => {
  node = await startReferenceNode({ seed: 9, scale: 1000 });
  client = scanClient(node);
});
afterAll(() => node?.close());

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = performance.now();
  const value = await f();
  return { value, ms: performance.now() - t };
}

describe('scan at scale 1000', () => {
  it('a holdings page near the end of 100k holdings answers in under a second', async () => {
    const w = node.context.world;
    expect(w.holdingCount).toBeGreaterThan(100_000);
    const s = lastSnapshot(node);
    const first = await timed(() => client.post('/v1/holdings/state', holdingsBody(s, w.bulkHoldingOwners, 1000)));
    expect(first.value.status).toBe(200);
    expect(first.ms).toBeLessThan(1000);
    const near = await timed(() => client.post('/v1/holdings/state', holdingsBody(s, [w.bulkHoldingOwners[1]!], 1000, { after: w.holdingCount - 2000 })));
    expect(near.value.status).toBe(200);
    const page = near.value.json() as Json;
    expect(page.created_events.length).toBeGreaterThan(0);
    expect(page.next_page_token).toBeUndefined();
    expect(near.ms).toBeLessThan(1000);
    // An owner without holdings: the page ends at the positions bound instead of walking everything.
    const none = await timed(() => client.post('/v2/holdings/state', holdingsBody(s, [w.dso.id], 10)));
    expect((none.value.json() as Json).created_events).toEqual([]);
    expect(none.ms).toBeLessThan(1000);
  });

  it('ACS pages: a template filter without holdings skips them; a party without holdings ends at the positions bound', async () => {
    const w = node.context.world;
    const s = lastSnapshot(node);
    const body = { migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros), page_size: 100 };
    const licenses = await timed(() => client.post('/v0/state/acs', { ...body, templates: ['splice-amulet:Splice.ValidatorLicense:ValidatorLicense'] }));
    const page = licenses.value.json() as Json;
    expect(page.created_events.map((e: Json) => e.create_arguments.validator)).toEqual(w.validators.map((v) => v.party));
    expect(page.next_page_token).toBeUndefined();
    expect(licenses.ms).toBeLessThan(1000);
    const sparse = await timed(() => client.post('/v0/state/acs', { ...body, party_ids: [w.svParties[1]!.id] }));
    expect(typeof (sparse.value.json() as Json).next_page_token).toBe('number');
    expect(sparse.ms).toBeLessThan(1000);
  });

  it('update and event lookups near the end of a million updates answer in under a second', async () => {
    const w = node.context.world;
    const id = w.updateId(w.count - 3);
    for (const path of [`/v0/updates/${id}`, `/v2/updates/${id}`, `/v0/events/${id}`]) {
      const r = await timed(() => client.get(path));
      expect(r.value.status, path).toBe(200);
      expect(r.ms).toBeLessThan(1000);
    }
    const bulk = await timed(() =>
      client.post('/v0/history/bulk/updates', { start_record_time: '2025-01-01T00:00:00Z', end_record_time: '2026-01-01T00:00:00Z', page_size: 1000 }),
    );
    expect((bulk.value.json() as Json).object_refs).toHaveLength(1000);
    expect(bulk.ms).toBeLessThan(2000);
  });

  it('a history list page after a time near the end of a million updates answers in under a second', async () => {
    const w = node.context.world;
    const after = { after_migration_id: w.currentMigrationId, after_record_time: isoMicros(w.recordTimeMicros(w.count - 4)) };
    for (const [path, key] of [
      ['/v2/updates', 'transactions'],
      ['/v0/events', 'events'],
    ] as const) {
      const r = await timed(() => client.post(path, { page_size: 100, after }));
      expect(((r.value.json() as Json)[key] as Json[]).length, path).toBe(3);
      expect(r.ms).toBeLessThan(1000);
    }
  });
});
