// A production node must be safe to certify: a recording proxy between the suite and the reference node
// shows that a run without --allow-mutations sends no request that changes state, and plan sends only
// reads. Given only URLs and tokens (fixtures discovered), a run skips nothing but what changes the target
// and what only the node's operator can tell (its list limit), and with mutations allowed, only the latter.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_FIXTURES } from '../../engine/fixtures.ts';
import { BUILTIN_SPECS, compileSpec } from '../../generators/index.ts';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

/** A skip for a fixture only the target's operator can give (engine/fixtures.ts OPERATOR_FIXTURES). */
const operatorOnly = (reason: string) => OPERATOR_FIXTURES.some((f) => reason.includes(`missing fixture: fixtures.${f} `));
let node: RunningReferenceNode;
let proxy: Server;
let proxyUrl: string;
const seen: Array<{ method: string; path: string }> = [];

beforeAll(async () => {
  node = await startReferenceNode({});
  proxy = createServer(async (req, res) => {
    seen.push({ method: req.method!, path: req.url!.split('?')[0]! });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<
      string,
      string
    >;
    // undici's request, not fetch: it forwards a GET's body too (the vetting listing's GET carries one).
    const upstream = await request(node.urls.ledger + req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(
      upstream.statusCode,
      Object.fromEntries(Object.entries(upstream.headers).filter(([k]) => !['content-length', 'transfer-encoding', 'connection'].includes(k))),
    );
    res.end(Buffer.from(await upstream.body.arrayBuffer()));
  });
  // A WebSocket upgrade (the ledger's channels) is a GET on the channel's path: recorded, then tunnelled as it is.
  proxy.on('upgrade', (req, socket, head) => {
    seen.push({ method: 'WEBSOCKET', path: req.url!.split('?')[0]! });
    const upstream = connect(Number(new URL(node.urls.ledger).port), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  // Node closes a connection idle for 5 s; the run (on a machine the other test files keep busy) may pick such
  // a connection up as the close arrives: "other side closed". The proxy is not what is judged here, so it
  // keeps its connections open longer than any pause of the run.
  proxy.keepAliveTimeout = 120_000;
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await node.close();
});

/** A run of the proxied node given only its URLs and tokens (report in `dir`, when given). */
function zeroConfiguration(dir?: string): string[] {
  return [
    'run',
    '--ledger-url',
    proxyUrl,
    '--ledger-token',
    node.credentials.ledgerAdminToken,
    '--wallet-url',
    `${proxyUrl}/api/validator`,
    '--wallet-token',
    node.credentials.walletUsers[0]!.token,
    '--scan-url',
    `${proxyUrl}/api/scan`,
    ...(dir ? ['--report-dir', dir, '--no-allure'] : []),
  ];
}

/** The run as the command line runs it (same parse, call, render and exit code), in this process. */
async function cli(...args: string[]): Promise<number> {
  return (await cliInProcess(args)).code;
}

/**
 * "METHOD /full/path" templates of every operation the documents mark as changing the target, and of the
 * wallet's transfer-offer creation (which discovery uses with mutations allowed; no description operation).
 */
async function mutatingRoutes(): Promise<RegExp[]> {
  const out: RegExp[] = [/^POST \/api\/validator\/v0\/wallet\/transfer-offers$/];
  for (const [name, path] of Object.entries(BUILTIN_SPECS)) {
    for (const op of (await compileSpec(path, { name })).catalog.operations) {
      if (op.extensions['x-cn-mutates'] !== true) continue;
      out.push(new RegExp(`^${op.method.toUpperCase()} ${op.fullPath.replace(/\{[^}]+\}/g, '[^/]+')}$`));
    }
  }
  return out;
}

describe('read-only by default', () => {
  it('a run given only URLs and tokens changes nothing and skips only what would change the target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-safe-'));
    seen.length = 0;
    const code = await cli(...zeroConfiguration(dir), '--runs', '3');
    expect(code).toBe(0);
    expect(seen.length).toBeGreaterThan(200);
    const routes = await mutatingRoutes();
    expect(routes.length).toBe(12);
    expect(seen.filter((s) => routes.some((re) => re.test(`${s.method} ${s.path}`)))).toEqual([]);
    // The ledger's channels were read too, through the same proxy (upgrades of GET).
    expect(seen.some((s) => s.method === 'WEBSOCKET' && s.path === '/v2/updates')).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const skipped = report.requirements.filter((r: { status: string }) => r.status === 'skipped');
    expect(
      skipped
        .filter((r: { skipKind?: string; reason: string }) => r.skipKind !== 'mutations' && !operatorOnly(r.reason))
        .map((r: { id: string; reason: string }) => `${r.id}: ${r.reason}`),
    ).toEqual([]);
    expect(report.requirements.filter((r: { status: string }) => r.status === 'failed').map((r: { id: string }) => r.id)).toEqual([]);
    // Every fixture says where it came from: discovered ones name the endpoint and the JSON pointer.
    expect(report.fixtures.length).toBeGreaterThanOrEqual(19);
    for (const f of report.fixtures) expect(f.origin.kind, f.name).toBe('discovered');
  }, 300_000);

  // "false" must never switch mutations on, whatever its spelling and whichever layer it comes from.
  it.each([
    ['the environment, false', [], { CN_CONFORMANCE_ALLOW_MUTATIONS: 'false' }, undefined],
    ['the environment, 0', [], { CN_CONFORMANCE_ALLOW_MUTATIONS: '0' }, undefined],
    ['the environment, FALSE', [], { CN_CONFORMANCE_ALLOW_MUTATIONS: 'FALSE' }, undefined],
    ['the config file, "false"', [], {}, { allowMutations: 'false' }],
    ['the config file, 0', [], {}, { allowMutations: 0 }],
    ['the flag, false', ['--allow-mutations', 'false'], {}, undefined],
  ] as const)('mutations stay off when %s says so: no request that changes the target', async (_, flags, env, config) => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-safe-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...config, fixtures: referenceFixtures(node) }));
    // Only the requirements that change the target: every one of them must be skipped, none may send.
    const mutating = catalog(await loadedSpecs())
      .filter((r) => r.mutates)
      .map((r) => r.id);
    expect(mutating.length).toBeGreaterThan(20);
    seen.length = 0;
    const o = await cliInProcess(
      [...zeroConfiguration(), '--config', join(dir, 'config.json'), ...mutating.flatMap((id) => ['--only', id]), '--report-dir', dir, '--no-allure', ...flags],
      env,
    );
    expect(o.code, o.stderr).toBe(0);
    const routes = await mutatingRoutes();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => routes.some((re) => re.test(`${s.method} ${s.path}`)))).toEqual([]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.config.allowMutations).toBe(false);
    expect(new Set(report.requirements.map((r: { skipKind?: string }) => r.skipKind))).toEqual(new Set(['mutations']));
    expect(report.verdict).toBe('incomplete');
  });

  it('plan sends only reads, and lists every fixture with where it came from', async () => {
    seen.length = 0;
    const out = await cliInProcess(['plan', ...zeroConfiguration().slice(1), '--allow-mutations']);
    expect(out.code, out.stderr).toBe(0);
    expect(seen.length).toBeGreaterThan(10);
    const routes = await mutatingRoutes();
    expect(seen.filter((s) => routes.some((re) => re.test(`${s.method} ${s.path}`)))).toEqual([]);
    // Reads only: GETs, and POSTs of operations that query (the stream, the histories, the ACS, vote results, a status).
    const reads =
      /^(GET .*|POST (\/v2\/updates|\/api\/scan\/(v2\/updates|v0\/events|v0\/state\/acs|v0\/admin\/sv\/voteresults)|\/api\/validator\/v0\/wallet\/transfer-offers\/[^/]+\/status))$/;
    expect(seen.map((s) => `${s.method} ${s.path}`).filter((r) => !reads.test(r))).toEqual([]);
    expect(out.stdout).toMatch(/^Fixtures \(\d+\):$/m);
    expect(out.stdout).toMatch(/svParties +.*\n +from the scan's GET \/api\/scan\/v0\/dso \/dso_rules/);
    expect(out.stdout).toMatch(/wallet-create-transfer-offer: needs mutations/);
    // Without discovery it sends nothing at all, and what needs ids is planned as skipped.
    seen.length = 0;
    const quiet = await cliInProcess(['plan', ...zeroConfiguration().slice(1), '--no-discovery']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(seen).toEqual([]);
    expect(quiet.stdout).toMatch(/^ {2}SKIP SCAN-HOLDINGS-PAGING-COMPLETE: missing fixture/m);
  });

  it('with --allow-mutations, a run given only URLs and tokens skips nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-zero-'));
    const code = await cli(...zeroConfiguration(dir), '--allow-mutations', '--runs', '3');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const open = report.requirements.filter((r: { status: string }) => r.status !== 'passed');
    // What only the node's operator can tell (its list limit setting) is no answer of any endpoint: the probes
    // that need it are skipped, saying which fixture would let them run, and the run is incomplete, not failed.
    expect(
      open
        .filter((r: { status: string; reason?: string }) => !(r.status === 'skipped' && operatorOnly(r.reason ?? '')))
        .map((r: { id: string; reason?: string }) => `${r.id}: ${r.reason}`),
    ).toEqual([]);
    expect(open.length).toBeGreaterThan(0);
    expect(code).toBe(0);
    expect(report.verdict).toBe('incomplete');
  }, 300_000);
});
