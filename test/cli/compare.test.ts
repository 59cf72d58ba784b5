// `compare`: two reference nodes of one network (the second numbering its offsets 1000 higher) agree; nodes of
// different networks (seeds 1 and 2) do not, read by read; and a node with a divergence is caught at its field.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { compareNodes } from '../../runner/compare/compare.ts';
import { differences, normalize } from '../../runner/compare/differences.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

let a: RunningReferenceNode;
let shifted: RunningReferenceNode;
let other: RunningReferenceNode;
let diverging: RunningReferenceNode;

beforeAll(async () => {
  const node = (o: Parameters<typeof startReferenceNode>[0]) => startReferenceNode({ scale: 0, defaultIdleTimeoutMs: 1, ...o });
  [a, shifted, other, diverging] = await Promise.all([
    node({ seed: 1 }),
    node({ seed: 1, offsetShift: 1000 }),
    node({ seed: 2 }),
    node({ seed: 1, faults: ['scan-divergent-holding-amount'] }),
  ]);
});
afterAll(() => Promise.all([a, shifted, other, diverging].map((n) => n?.close())));

const reportDir = () => mkdtemp(join(tmpdir(), 'compare-'));

describe('cn-conformance compare', () => {
  it('finds a node with other offsets equal (exit 0), ledger and scan, and writes the reports', async () => {
    const dir = await reportDir();
    const args = ['compare', '--scan-url', a.urls.scan, '--scan-url', shifted.urls.scan, '--ledger-url', a.urls.ledger, '--ledger-url', shifted.urls.ledger];
    const tokens = ['--ledger-token', a.credentials.ledgerAdminToken, '--ledger-token', shifted.credentials.ledgerAdminToken];
    const out = await cliInProcess([...args, ...tokens, '--report-dir', dir]);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8'));
    expect(report.verdict).toBe('equal');
    // The reads cover both interfaces, the paged ones walked on each node by its own offsets and tokens.
    expect(report.reads.some((r: { read: { interface: string; path: string }; pages: { a: number } }) => r.read.interface === 'ledger' && r.pages.a > 1)).toBe(
      true,
    );
    expect(report.reads.map((r: { read: { path: string } }) => r.read.path)).toEqual(
      expect.arrayContaining(['/v1/holdings/state', '/v2/updates', '/v0/history/bulk/updates']),
    );
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).not.toContain('<failure');
    expect(JSON.stringify(report)).not.toContain(a.credentials.ledgerAdminToken);
  });

  it('finds nodes of two networks divergent (exit 1), each difference with its read, pointer and both values', async () => {
    const dir = await reportDir();
    const out = await cliInProcess(['compare', '--scan-url', a.urls.scan, '--scan-url', other.urls.scan, '--report-dir', dir]);
    expect(out.code).toBe(1);
    expect(out.stdout).toMatch(/^nodes divergent: \d+ of \d+ reads equal/);
    expect(out.stdout).toContain('POST scan /v0/state/acs');
    expect(out.stdout).toMatch(/\/created_events\/0\/contract_id \[value\]: A "00[0-9a-f]+" \/ B "00[0-9a-f]+"/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure');
    expect(readFileSync(join(dir, 'compare.html'), 'utf8')).toContain('Nodes divergent');
  });

  it('refuses a node nothing answers at (exit 2, one line), and never calls unanswered reads equal (exit 4)', async () => {
    const closed = await startReferenceNode({ scale: 0 });
    const gone = closed.urls.scan;
    await closed.close();
    const unreachable = await cliInProcess(['compare', '--scan-url', a.urls.scan, '--scan-url', gone, '--report-dir', await reportDir()]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr.trim()).toMatch(/^cn-conformance: cannot reach --scan-url .*ECONNREFUSED/);

    // B accepts connections and resets them: reachable, but it answers nothing.
    const resetting = createServer((socket) => socket.on('data', () => socket.resetAndDestroy()));
    await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
    try {
      const dir = await reportDir();
      const url = `http://127.0.0.1:${(resetting.address() as AddressInfo).port}/api/scan`;
      const out = await cliInProcess(['compare', '--scan-url', a.urls.scan, '--scan-url', url, '--report-dir', dir]);
      expect(out.code, out.stdout + out.stderr).toBe(4);
      expect(out.stdout).toMatch(/^nodes incomplete: 0 of (\d+) reads equal, 0 divergent \(0 differences\), \1 not compared/);
      expect(out.stdout).toMatch(/not compared: nothing read from B/);
      expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<skipped');
    } finally {
      await new Promise((r) => resetting.close(r));
    }
  });

  it('leaves no report folder behind when it ends with a usage error (exit 2), and empties none that existed', async () => {
    const closed = await startReferenceNode({ scale: 0 });
    const gone = closed.urls.scan;
    await closed.close();
    const base = await reportDir();
    const fresh = join(base, 'reports', 'compare');
    // Found after the folder was made (nothing answers at B) and before (an option that is no number).
    for (const late of [
      ['--scan-url', gone],
      ['--scan-url', a.urls.scan, '--timeout-ms', 'soon'],
    ]) {
      const out = await cliInProcess(['compare', '--scan-url', a.urls.scan, ...late, '--report-dir', fresh]);
      expect(out.code, out.stderr).toBe(2);
      expect(await readdir(base)).toEqual([]);
    }
    // A folder that was there stays, with what it held.
    await mkdir(fresh, { recursive: true });
    await writeFile(join(fresh, 'earlier.json'), '{}');
    const out = await cliInProcess(['compare', '--scan-url', a.urls.scan, '--scan-url', gone, '--report-dir', fresh]);
    expect(out.code).toBe(2);
    expect(await readdir(fresh)).toEqual(['earlier.json']);
    expect(existsSync(join(fresh, 'compare.json'))).toBe(false);
  });

  it('refuses a single node (exit 2)', async () => {
    const out = await cliInProcess(['compare', '--scan-url', a.urls.scan, '--report-dir', await reportDir()]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--scan-url is given for both nodes or for none');
  });
});

describe('the divergence fault', () => {
  it('is found at the holding amount, in the holdings pages and the history alike', async () => {
    const r = await compareNodes({ a: { scanUrl: a.urls.scan }, b: { scanUrl: diverging.urls.scan } });
    expect(r.verdict).toBe('divergent');
    const found = r.reads.flatMap((o) => o.differences.map((d) => ({ path: o.read.path, ...d })));
    expect(found.length).toBeGreaterThan(0);
    // Every difference is that one field (as the lossless encodings spell it, or compact).
    for (const d of found)
      expect(d.pointer).toMatch(/\/create_arguments\/(amount\/initialAmount|record\/fields\/\d+\/value\/record\/fields\/0\/value\/(text|numeric))$/);
    const holding = found.find((d) => d.path === '/v1/holdings/state')!;
    expect(Number(holding.b) - Number(holding.a)).toBe(1);
  });
});

describe('the normalization', () => {
  it("leaves offsets and page tokens out, compares party lists as sets and V2's events_by_id key order", () => {
    const x = { offset: 5, next_page_token: 'p', signatories: ['b', 'a'], events_by_id: { 'u:0': {}, 'u:1': {} } };
    const y = { offset: 1005, next_page_token: 'q', signatories: ['a', 'b'], events_by_id: { 'u:1': {}, 'u:0': {} } };
    expect(differences(normalize(x), normalize(y), { max: 10 }).list).toEqual([]);
    expect(differences(normalize(x), normalize(y), { orderedEventIds: true, max: 10 }).list).toEqual([
      { pointer: '/events_by_id', a: ['u:0', 'u:1'], b: ['u:1', 'u:0'], kind: 'key order' },
    ]);
  });
});
