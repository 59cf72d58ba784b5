// The refusal faults: one per operation of the built-in documents, each refusing every request to its own
// operation that the node would go on to handle, and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { REFUSAL_FAULTS, SERVED_OPERATIONS } from '../../reference-node/refusal-faults.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';

describe('the refusal faults', () => {
  it('cover exactly the operations of the built-in documents, one fault each', async () => {
    const documented: string[] = [];
    for (const name of BUILTIN_NAMES)
      for (const op of (await builtinSpec(name)).catalog.operations)
        documented.push(`${name} ${op.id} ${op.method.toUpperCase()} ${op.fullPath.replace(/\{[^}]*\}/g, '{}')}`);
    expect(SERVED_OPERATIONS.map((s) => `${s.interface} ${s.operation} ${s.method} ${s.path}`).sort()).toEqual(documented.sort());
    expect(new Set(REFUSAL_FAULTS.map((f) => f.name)).size).toBe(SERVED_OPERATIONS.length);
    for (const f of REFUSAL_FAULTS) expect(f.name.startsWith(`${f.interface}-refuses-`), f.name).toBe(true);
  });

  describe('on a node with ledger-refuses-get-package, scan-refuses-get-feature-support and scan-refuses-download-bulk-history-object', () => {
    let node: RunningReferenceNode;
    beforeAll(async () => {
      node = await startReferenceNode({
        faults: ['ledger-refuses-get-package', 'scan-refuses-get-feature-support', 'scan-refuses-download-bulk-history-object'],
      });
    });
    afterAll(async () => node?.close());
    const get = (url: string, token?: string) => fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});

    it('refuses the operation in its interface’s error shape', async () => {
      const scan = await get(`${node.urls.scan}/v0/feature-support`);
      expect(scan.status).toBe(400);
      expect(await scan.json()).toEqual({ error: expect.stringContaining('getFeatureSupport') });
      const listed = (await (await get(`${node.urls.ledger}/v2/packages`, node.credentials.ledgerAdminToken)).json()) as { packageIds: string[] };
      const ledger = await get(`${node.urls.ledger}/v2/packages/${listed.packageIds[0]}`, node.credentials.ledgerAdminToken);
      expect(ledger.status).toBe(400);
      expect(await ledger.json()).toMatchObject({ code: 'INVALID_ARGUMENT', cause: expect.stringContaining('getPackage') });
    });

    it('refuses an operation served by a wildcard route too (the bulk download)', async () => {
      const listing = await fetch(`${node.urls.scan}/v0/history/bulk/updates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ start_record_time: '2000-01-01T00:00:00Z', end_record_time: '2100-01-01T00:00:00Z', page_size: 1 }),
      });
      expect(listing.status).toBe(200);
      const { object_refs } = (await listing.json()) as { object_refs: Array<{ url: string }> };
      const download = await fetch(object_refs[0]!.url);
      expect(download.status).toBe(400);
      expect(await download.json()).toEqual({ error: expect.stringContaining('downloadBulkHistoryObject') });
    });

    it('leaves requests without valid credentials to the handler, and every other operation alone', async () => {
      expect((await get(`${node.urls.ledger}/v2/packages/x`)).status).toBe(401);
      expect((await get(`${node.urls.ledger}/v2/packages/x`, 'not-a-token')).status).toBe(401);
      expect((await get(`${node.urls.ledger}/v2/packages/x/status`, node.credentials.ledgerAdminToken)).status).toBe(200);
      expect((await get(`${node.urls.scan}/v0/backfilling/status`)).status).toBe(200);
    });
  });
});
