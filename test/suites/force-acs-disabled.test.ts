// Force-ACS is disabled in production environments (the description), and its documented refusal is a 400: a
// scan answering so is not failed, its operation only left unconfirmed; a 500 there is a failure.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.ts';
import { SCAN_REQUIREMENTS } from '../../requirements/scan/index.ts';
import { DEFAULT_BOUNDS } from '../../engine/target.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A scan answering force-ACS with `status` and `{error}`. */
async function judgeForceAcs(status: number) {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: status === 400 ? 'Forcing ACS snapshots is disabled in this environment' : 'internal error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const target = {
    ...DEFAULT_BOUNDS,
    scan: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials: {} },
    fixtures: { migrationId: 3 },
    allowMutations: true,
  };
  const rule = SCAN_REQUIREMENTS.filter((r) => r.confirms === 'forceAcsSnapshotNow');
  expect(rule).toHaveLength(1);
  const { requirements } = await runConformance({ target, documents: await builtinDocumentsOnce(), requirements: rule, preflight: false });
  return requirements[0]!;
}

describe('the positive requirement of force-ACS', () => {
  it('leaves a 400 (a production environment that disables it) unjudged, saying why', async () => {
    const r = await judgeForceAcs(400);
    expect(r.status).toBe('skipped');
    expect(r.reason).toMatch(/production environment that disables it/);
  });

  it('fails a 500, naming the operation', async () => {
    const r = await judgeForceAcs(500);
    expect(r.status).toBe('failed');
    expect(r.reason).toMatch(/forceAcsSnapshotNow/);
  });
});
