// `compare`: two reference nodes of one network (the second numbering its offsets 1000 higher) agree; nodes of
// different networks (seeds 1 and 2) do not, read by read; a node with a divergence is caught at its field,
// as one cause however many reads show it; and a node that refuses says why, with curl lines that reproduce.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { compareNodes } from '../../runner/compare/compare.ts';
import { differences, normalize } from '../../runner/compare/differences.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

let a: RunningReferenceNode;
let shifted: RunningReferenceNode;
let other: RunningReferenceNode;
let diverging: RunningReferenceNode;
let refusing: RunningReferenceNode;

beforeAll(async () => {
  const node = (o: Parameters<typeof startReferenceNode>[0]) => startReferenceNode({ scale: 0, defaultIdleTimeoutMs: 1, ...o });
  [a, shifted, other, diverging, refusing] = await Promise.all([
    node({ seed: 1 }),
    node({ seed: 1, offsetShift: 1000 }),
    node({ seed: 2 }),
    node({ seed: 1, faults: ['scan-divergent-holding-amount'] }),
    node({ seed: 1, faults: ['scan-deprecated-update-path-gone'] }),
  ]);
});
afterAll(() => Promise.all([a, shifted, other, diverging, refusing].map((n) => n?.close())));

const reportDir = () => mkdtemp(join(tmpdir(), 'compare-'));

/** Runs a curl line in bash with only the given environment: the status and body it got. */
async function paste(curl: string, env: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { stdout } = await promisify(execFile)('bash', ['-c', `${curl} -w '\n%{http_code}'`], { env: { PATH: process.env.PATH, ...env } });
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

interface Report {
  reads: Array<{
    read: { interface: string; method: string; path: string; route?: string };
    status: { a: number; b: number };
    differences: Array<{ pointer: string; kind: string; a?: unknown; b?: unknown }>;
    answers?: Record<'a' | 'b', { code?: string; refusal?: string; curl: string; response?: { status: number } }>;
  }>;
  causes: Array<{
    kind: string;
    route?: string;
    contract?: string;
    a?: unknown;
    b?: unknown;
    reads: number;
    differences: number;
    at: Array<{ read: number; pointer: string }>;
  }>;
  summary: { causes: number; differences: number; divergent: number };
}

/** Every listed difference is in exactly one cause. */
function expectEveryDifferenceGrouped(report: Report) {
  const listed = report.reads.flatMap((r, i) => r.differences.map((d) => `${i} ${d.pointer}`)).sort();
  expect(report.causes.flatMap((c) => c.at.map((at) => `${at.read} ${at.pointer}`)).sort()).toEqual(listed);
  expect(report.summary.causes).toBe(report.causes.length);
}

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
    expect(out.stdout).toMatch(/^nodes divergent: \d+ of \d+ reads equal, \d+ divergent \(\d+ differences, \d+ causes\)/);
    expect(out.stdout).toContain('POST scan /v0/state/acs');
    // The console lists causes; compare.json keeps every difference, each in its cause.
    const report = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Report;
    const acs = report.reads.findIndex((r) => r.read.path === '/v0/state/acs');
    expect(report.reads[acs]!.differences).toContainEqual(
      expect.objectContaining({
        pointer: '/created_events/0/contract_id',
        kind: 'value',
        a: expect.stringMatching(/^00[0-9a-f]+$/),
        b: expect.stringMatching(/^00[0-9a-f]+$/),
      }),
    );
    expectEveryDifferenceGrouped(report);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<failure');
    expect(readFileSync(join(dir, 'compare.html'), 'utf8')).toContain('Nodes divergent');
  });

  it('shows why a node refused: each answer, its error code and cause, and a curl line per node that reproduces it as pasted', async () => {
    const dir = await reportDir();
    const [admin, limited] = [a.credentials.ledgerAdminToken, refusing.credentials.ledgerUserToken.token];
    // B's scan does not serve GET /v0/updates/{id} (404, text); B's token may not read every party A's reads name (403).
    const out = await cliInProcess([
      'compare',
      ...['--scan-url', a.urls.scan, '--scan-url', refusing.urls.scan, '--ledger-url', a.urls.ledger, '--ledger-url', refusing.urls.ledger],
      ...['--ledger-token', admin, '--ledger-token', limited, '--report-dir', dir],
    ]);
    expect(out.code, out.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Report;

    // The refused route is one cause for all its reads, told once, with what B answered.
    // (Reads A refuses too, the reassignments v0 does not serve, are equal and no part of it.)
    const gone = report.reads.filter((r) => r.read.route === '/v0/updates/{update_id}' && r.status.a === 200);
    expect(gone.length).toBeGreaterThan(2);
    expect(report.causes).toContainEqual(
      expect.objectContaining({ kind: 'status', route: 'GET scan /v0/updates/{update_id}', a: 'HTTP 200', b: 'HTTP 404', reads: gone.length }),
    );
    expect(out.stdout).toContain(`GET scan /v0/updates/{update_id} [status]: A HTTP 200 / B HTTP 404: ${gone.length} reads\n`);
    expect(out.stdout).toContain('    B: HTTP 404 The requested resource could not be found.\n');
    expect((await paste(gone[0]!.answers!.b.curl)).status).toBe(404);
    expect((await paste(gone[0]!.answers!.a.curl)).status).toBe(200);

    // The ledger's refusal: its JsCantonError's code and cause, on the console and in compare.json.
    const ledger = report.reads.filter((r) => r.read.interface === 'ledger' && r.read.method === 'POST');
    expect(ledger).toHaveLength(2);
    // The same reads over the WebSocket channel: B's error message, its code standing for the status.
    const channels = report.reads.filter((r) => r.read.interface === 'ledger' && r.read.method === 'WEBSOCKET');
    expect(channels.map((r) => [r.status.a, r.status.b])).toEqual([
      [101, 403],
      [101, 403],
    ]);
    for (const r of ledger)
      expect(r.answers!.b).toMatchObject({
        code: 'PERMISSION_DENIED',
        refusal: expect.stringMatching(/^PERMISSION_DENIED: User '.+' may not read as /),
        response: { status: 403 },
      });
    expect(out.stdout).toMatch(/^ {4}B: HTTP 403 PERMISSION_DENIED: User '[^']+' may not read as .+$/m);
    // Each node's token comes from its own variable: the pasted lines get A's 200 and B's 403, and no token is shown.
    const { a: curlA, b: curlB } = ledger[0]!.answers!;
    expect(out.stdout).toContain(`reproduce A: ${curlA.curl}\n`);
    expect(out.stdout).toContain(`reproduce B: ${curlB.curl}\n`);
    expect(curlB.curl).toContain('"authorization: Bearer $CN_CONFORMANCE_LEDGER_TOKEN_B"');
    expect(out.stdout).toContain('export CN_CONFORMANCE_LEDGER_TOKEN_A, CN_CONFORMANCE_LEDGER_TOKEN_B before pasting');
    expect((await paste(curlA.curl, { CN_CONFORMANCE_LEDGER_TOKEN_A: admin })).status).toBe(200);
    const replayed = await paste(curlB.curl, { CN_CONFORMANCE_LEDGER_TOKEN_B: limited });
    expect(replayed.status).toBe(403);
    expect(replayed.body).toContain('"code":"PERMISSION_DENIED"');

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const html = readFileSync(join(dir, 'compare.html'), 'utf8');
    expect(junit).toContain('B: HTTP 403 PERMISSION_DENIED');
    expect(junit).toContain('reproduce B: curl -sS -X POST');
    expect(html).toContain('GET scan /v0/updates/{update_id} [status]: A HTTP 200 / B HTTP 404');
    for (const text of [out.stdout, out.stderr, readFileSync(join(dir, 'compare.json'), 'utf8'), junit, html]) {
      expect(text).not.toContain(admin);
      expect(text).not.toContain(limited);
    }
    expectEveryDifferenceGrouped(report);
  });

  it('says why a read was not compared: the refusal of the node that gave nothing to compare', async () => {
    const dir = await reportDir();
    const out = await cliInProcess([
      'compare',
      ...['--ledger-url', a.urls.ledger, '--ledger-url', a.urls.ledger, '--ledger-token', a.credentials.ledgerAdminToken, '--ledger-token', 'not-a-token'],
      ...['--report-dir', dir],
    ]);
    expect(out.code, out.stdout + out.stderr).toBe(4);
    expect(out.stdout).toMatch(/not compared: nothing read from B \(no ledger end to bound the stream with\)\n {4}B: HTTP 401 UNAUTHENTICATED: .+\n/);
    const report = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Report;
    expect(report.reads[0]!.answers!.b).toMatchObject({ code: 'UNAUTHENTICATED', response: { status: 401 } });
    expect(report.reads[0]!.answers!.b.curl).toContain('/v2/state/ledger-end');
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
  it('is one cause, however many reads and pointers show the holding (console and compare.json)', async () => {
    const dir = await reportDir();
    const out = await cliInProcess(['compare', '--scan-url', a.urls.scan, '--scan-url', diverging.urls.scan, '--report-dir', dir]);
    expect(out.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as Report;
    expect(report.summary.differences).toBeGreaterThan(report.summary.divergent);
    expect(report.summary.divergent).toBeGreaterThan(3);
    expect(report.causes).toHaveLength(1);
    const [cause] = report.causes;
    expect(cause).toMatchObject({
      kind: 'value',
      contract: expect.stringMatching(/^00/),
      reads: report.summary.divergent,
      differences: report.summary.differences,
    });
    expect(Number(cause!.b) - Number(cause!.a)).toBe(1);
    expectEveryDifferenceGrouped(report);
    // One line for the cause (with the contract and counts), then the reads it shows in.
    expect(out.stdout).toMatch(/^nodes divergent: .*\(\d+ differences, 1 cause\)$/m);
    expect(out.stdout.match(/\[value\]/g)).toHaveLength(1);
    expect(out.stdout).toContain(`(contract ${cause!.contract}): ${report.summary.differences} differences in ${report.summary.divergent} reads\n`);
    expect(out.stdout).toContain(`... ${report.summary.divergent - 5} more reads in the report`);
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
