// A production node must be safe to certify: a recording proxy between the suite and the reference node
// shows that a run without --allow-mutations sends no request that changes state, and plan sends none.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SPECS, compileSpec } from '../../generators/index.ts';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../suites/catalog.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
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
    const upstream = await fetch(node.urls.ledger + req.url, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    });
    res.writeHead(
      upstream.status,
      Object.fromEntries([...upstream.headers].filter(([k]) => !['content-length', 'transfer-encoding', 'connection'].includes(k))),
    );
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await node.close();
});

async function cli(...args: string[]): Promise<number> {
  try {
    await promisify(execFile)(process.execPath, [join(root, 'bin/cn-conformance.js'), ...args], { cwd: root, timeout: 240_000 });
    return 0;
  } catch (e) {
    return (e as { code: number }).code;
  }
}

/** "METHOD /full/path" templates of every operation the documents mark as changing the target. */
async function mutatingRoutes(): Promise<RegExp[]> {
  const out: RegExp[] = [];
  for (const [name, path] of Object.entries(BUILTIN_SPECS)) {
    for (const op of (await compileSpec(path, { name })).catalog.operations) {
      if (op.extensions['x-cn-mutates'] !== true) continue;
      out.push(new RegExp(`^${op.method.toUpperCase()} ${op.fullPath.replace(/\{[^}]+\}/g, '[^/]+')}$`));
    }
  }
  return out;
}

describe('read-only by default', () => {
  it('a run without --allow-mutations sends no request that changes the target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-safe-'));
    writeFileSync(join(dir, 'fixtures.json'), JSON.stringify({ fixtures: referenceFixtures(node) }));
    seen.length = 0;
    const code = await cli(
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
      '--config',
      join(dir, 'fixtures.json'),
      '--runs',
      '3',
      '--report-dir',
      dir,
    );
    expect(code).toBe(0);
    expect(seen.length).toBeGreaterThan(200);
    const routes = await mutatingRoutes();
    expect(routes.length).toBe(11);
    expect(seen.filter((s) => routes.some((re) => re.test(`${s.method} ${s.path}`)))).toEqual([]);
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
      [
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
        '--config',
        join(dir, 'config.json'),
        ...mutating.flatMap((id) => ['--only', id]),
        '--report-dir',
        dir,
        '--no-allure',
        ...flags,
      ],
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

  it('plan sends no request at all', async () => {
    seen.length = 0;
    const code = await cli('plan', '--ledger-url', proxyUrl, '--scan-url', `${proxyUrl}/api/scan`, '--wallet-url', proxyUrl, '--allow-mutations');
    expect(code).toBe(0);
    expect(seen).toEqual([]);
  });
});
