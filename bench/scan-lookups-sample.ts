// The scan's lookups near the end of a large history, against a reference node of scale 1000 (a million
// updates, a hundred thousand holdings) in this process: holdings and ACS pages (positions bounds included),
// updates and events by id, a history list page after a late time, and a bulk listing. Each must be answered
// without walking the history. Prints one JSON line: the slowest lookup and every lookup's milliseconds.
import { request } from 'undici';
import { startReferenceNode } from '../reference-node/index.ts';
import { isoMicros } from '../reference-node/world/time.ts';

const node = await startReferenceNode({ seed: 9, scale: 1000 });
try {
  const w = node.context.world;
  const s = w.snapshots
    .filter((x) => x.migrationId === w.currentMigrationId)
    .sort((a, b) => a.recordTimeMicros - b.recordTimeMicros)
    .at(-1)!;
  const snapshot = { migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros) };
  const holdings = (owners: string[], pageSize: number, extra = {}) => ({ ...snapshot, page_size: pageSize, owner_party_ids: owners, ...extra });
  const id = w.updateId(w.count - 3);
  const after = { after_migration_id: w.currentMigrationId, after_record_time: isoMicros(w.recordTimeMicros(w.count - 4)) };
  const lookups: Array<[string, string, unknown?]> = [
    ['holdings, first page of every bulk owner', '/v1/holdings/state', holdings(w.bulkHoldingOwners, 1000)],
    ['holdings, a page near the end', '/v1/holdings/state', holdings([w.bulkHoldingOwners[1]!], 1000, { after: w.holdingCount - 2000 })],
    ['holdings of an owner without any', '/v2/holdings/state', holdings([w.dso.id], 10)],
    [
      'ACS, a template without holdings',
      '/v0/state/acs',
      { ...snapshot, page_size: 100, templates: ['splice-amulet:Splice.ValidatorLicense:ValidatorLicense'] },
    ],
    ['ACS, a party without holdings', '/v0/state/acs', { ...snapshot, page_size: 100, party_ids: [w.svParties[1]!.id] }],
    ['update by id (v0)', `/v0/updates/${id}`],
    ['update by id (v2)', `/v2/updates/${id}`],
    ['event by id', `/v0/events/${id}`],
    ['history list after a late time', '/v2/updates', { page_size: 100, after }],
    ['events list after a late time', '/v0/events', { page_size: 100, after }],
    [
      'bulk listing of 1000 objects',
      '/v0/history/bulk/updates',
      { start_record_time: '2025-01-01T00:00:00Z', end_record_time: '2026-01-01T00:00:00Z', page_size: 1000 },
    ],
  ];
  const ms: Record<string, number> = {};
  for (const [what, path, body] of lookups) {
    const t = performance.now();
    const res = await request(
      node.urls.scan + path,
      body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    );
    await res.body.text();
    ms[what] = Math.round(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`${what}: ${path} answered ${res.statusCode}`);
  }
  const [slowest, slowestMs] = Object.entries(ms).sort((a, b) => b[1] - a[1])[0]!;
  console.log(JSON.stringify({ slowest, slowestMs, ms, updates: w.count, holdings: w.holdingCount }));
} finally {
  await node.close();
}
