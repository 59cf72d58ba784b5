// At scale 1000 (a million updates, a hundred thousand holdings) the scan answers lookups near the end of
// the history rightly; how fast (without walking the history) is figure 6 of `npm run bench`.
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

describe('scan at scale 1000', () => {
  it('a holdings page near the end of 100k holdings is answered', async () => {
    const w = node.context.world;
    expect(w.holdingCount).toBeGreaterThan(100_000);
    const s = lastSnapshot(node);
    const first = await client.post('/v1/holdings/state', holdingsBody(s, w.bulkHoldingOwners, 1000));
    expect(first.status).toBe(200);
    const near = await client.post('/v1/holdings/state', holdingsBody(s, [w.bulkHoldingOwners[1]!], 1000, { after: w.holdingCount - 2000 }));
    expect(near.status).toBe(200);
    const page = near.json() as Json;
    expect(page.created_events.length).toBeGreaterThan(0);
    expect(page.next_page_token).toBeUndefined();
    // An owner without holdings: the page ends at the positions bound instead of walking everything.
    const none = await client.post('/v2/holdings/state', holdingsBody(s, [w.dso.id], 10));
    expect((none.json() as Json).created_events).toEqual([]);
  });

  it('ACS pages: a template filter without holdings skips them; a party without holdings ends at the positions bound', async () => {
    const w = node.context.world;
    const s = lastSnapshot(node);
    const body = { migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros), page_size: 100 };
    const licenses = await client.post('/v0/state/acs', { ...body, templates: ['splice-amulet:Splice.ValidatorLicense:ValidatorLicense'] });
    const page = licenses.json() as Json;
    expect(page.created_events.map((e: Json) => e.create_arguments.validator)).toEqual(w.validators.map((v) => v.party));
    expect(page.next_page_token).toBeUndefined();
    const sparse = await client.post('/v0/state/acs', { ...body, party_ids: [w.svParties[1]!.id] });
    expect(typeof (sparse.json() as Json).next_page_token).toBe('number');
  });

  it('update and event lookups near the end of a million updates are answered', async () => {
    const w = node.context.world;
    const id = w.updateId(w.count - 3);
    for (const path of [`/v0/updates/${id}`, `/v2/updates/${id}`, `/v0/events/${id}`]) {
      const r = await client.get(path);
      expect(r.status, path).toBe(200);
    }
    const bulk = await client.post('/v0/history/bulk/updates', {
      start_record_time: '2025-01-01T00:00:00Z',
      end_record_time: '2026-01-01T00:00:00Z',
      page_size: 1000,
    });
    expect((bulk.json() as Json).object_refs).toHaveLength(1000);
  });

  it('a history list page after a time near the end of a million updates is answered', async () => {
    const w = node.context.world;
    const after = { after_migration_id: w.currentMigrationId, after_record_time: isoMicros(w.recordTimeMicros(w.count - 4)) };
    for (const [path, key] of [
      ['/v2/updates', 'transactions'],
      ['/v0/events', 'events'],
    ] as const) {
      const r = await client.post(path, { page_size: 100, after });
      expect(((r.json() as Json)[key] as Json[]).length, path).toBe(3);
    }
  });
});
