import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { behaviourText } from '../support/behaviour.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * The command line in this process (same parse, call, render and exit code; no start-up to pay). That the
 * process ends once a run is over is test/project/packed-package.test.ts's (the installed command).
 */
const cli = (...args: string[]) => cliInProcess(args);

describe('cn-conformance run', () => {
  it('checks the documents, runs every requirement against the embedded reference node, writes its result and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-run-'));
    const { code, stdout } = await cli('run', '--report-dir', dir, '--runs', '4');
    expect(stdout).toMatch(/ledger\s+OpenAPI 3\.0\.3\s+19 operations/);
    expect(stdout).toMatch(/wallet\s+OpenAPI 3\.0\.3\s+3 operations/);
    expect(stdout).toMatch(/scan\s+OpenAPI 3\.0\.3\s+20 operations/);
    expect(stdout).toMatch(/ledger-channels\s+AsyncAPI 2\.6\.0\s+4 channels/);
    expect(stdout).toMatch(/scan\s+embedded reference node http:\/\/127\.0\.0\.1:\d+\/api\/scan/);
    const written = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(written.specs.map((r: { name: string }) => r.name)).toEqual(['ledger', 'ledger-channels', 'wallet', 'scan']);
    for (const r of written.specs) expect(r.exampleFailures).toEqual([]);
    const results = written.requirements as Array<{ id: string; status: string; reason?: string; interface: string }>;
    expect(results.length).toBeGreaterThan(100);
    expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    for (const iface of ['ledger', 'wallet', 'scan']) expect(results.some((r) => r.interface === iface && !r.id.startsWith('GENERIC-'))).toBe(true);
    // Progress (a log, not a terminal: one line per finished interface), then the outputs.
    const ledger = results.filter((r) => r.interface === 'ledger').length;
    expect(stdout).toMatch(new RegExp(`^\\s+ledger\\s+${ledger}/${ledger}$`, 'm'));
    for (const f of ['report.json', 'junit.xml', 'report.html', 'coverage.md']) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json')).length).toBe(results.length);
    expect(code).toBe(0);
    // The whole report, as the code before the pipeline's restructuring wrote it (modulo timings and ports).
    await expect(behaviourText(written, [dir])).toMatchFileSnapshot('../__behaviour__/embedded-run-report.json');
  });

  it('exits 1 and shows the failure with a curl line when the target breaks a rule', async () => {
    const node = await startReferenceNode({ faults: ['scan-ans-too-many'] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'cn-run-'));
      const config = join(dir, 'config.json');
      writeFileSync(config, JSON.stringify({ fixtures: referenceFixtures(node) }));
      const token = node.credentials.walletUsers[0]!.token;
      const { code, stdout } = await cli(
        'run',
        '--report-dir',
        dir,
        '--scan-url',
        node.urls.scan,
        '--wallet-url',
        node.urls.validator,
        '--wallet-token',
        token,
        '--config',
        config,
        '--only',
        'SCAN-*',
        '--only',
        'WALLET-*',
        '--runs',
        '3',
      );
      expect(code).toBe(1);
      expect(stdout).toMatch(/^\s+ledger\s+not given$/m);
      expect(stdout).toMatch(/FAIL SCAN-ANS-PAGE-SIZE \[MUST\]/);
      expect(stdout).toMatch(/curl -sS -X GET 'http:\/\/127\.0\.0\.1:\d+\/api\/scan\/v0\/ans-entries/);
      // The failure is visible in every output.
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      expect(report.requirements.find((r: { id: string }) => r.id === 'SCAN-ANS-PAGE-SIZE').status).toBe('failed');
      expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="scan.MUST" name="SCAN-ANS-PAGE-SIZE"[^>]*>\s*<failure message=/);
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(
        /<details class="req failed" data-status="failed" data-text="scan-ans-page-size [^>]* open>/,
      );
      const allure = readdirSync(join(dir, 'allure-results'))
        .filter((f) => f.endsWith('-result.json'))
        .map((f) => JSON.parse(readFileSync(join(dir, 'allure-results', f), 'utf8')));
      expect(allure.find((a) => a.name === 'SCAN-ANS-PAGE-SIZE')).toMatchObject({
        status: 'failed',
        statusDetails: { message: expect.stringContaining('page_size') },
      });
      expect(stdout).toMatch(/^\s+scan\s+\d+\/\d+, 1 failed$/m);
      // Read-only against a real target: the wallet checks that would buy traffic are skipped, with the reason.
      const buy = report.requirements.find((r: { id: string }) => r.id === 'WALLET-BUY-TRAFFIC-CREATE');
      expect(buy).toMatchObject({ status: 'skipped', reason: expect.stringContaining('--allow-mutations') });
      // The token is never written anywhere: console, and every file of the report dir (Allure attachments too).
      expect(stdout).not.toContain(token);
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f !== 'config.json' && !f.endsWith('allure-results'));
      expect(files.length).toBeGreaterThan(report.requirements.length + 4);
      for (const f of files) expect(readFileSync(join(dir, f), 'utf8'), f).not.toContain(token);
      expect(report.config.walletToken).toBe('***');
      await expect(behaviourText(report, [dir])).toMatchFileSnapshot('../__behaviour__/faulty-scan-run-report.json');
    } finally {
      await node.close();
    }
  });

  it('writes a report.json that validates against its documented schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-run-'));
    const { code } = await cli(
      'run',
      '--report-dir',
      dir,
      '--runs',
      '2',
      '--only',
      'SCAN-HOLDINGS-*',
      '--only',
      'LEDGER-UPDATES-LIMIT',
      '--max-pages',
      '300',
      '--no-allure',
    );
    expect(code).toBe(0);
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(join(root, 'reporting/report.schema.json'), 'utf8')));
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.config.maxPages).toBe(300);
    expect(report.summary.failed).toBe(0);
    expect(report.summary.total).toBeGreaterThan(10);
    // The coverage table: one row per operation of the loaded documents, statuses seen vs documented.
    expect(report.coverage.length).toBe(42);
    const updates = report.coverage.find((c: { operationId: string }) => c.operationId === 'getUpdates');
    expect(updates).toMatchObject({
      method: 'POST',
      path: '/v2/updates',
      positive: 'none',
      negative: 'none',
      statusesDocumented: ['200', '400', '413', 'default'],
    });
    expect(updates.semantic).toBeGreaterThan(0);
    expect(updates.statusesSeen).toContain(200);
    expect(readFileSync(join(dir, 'coverage.md'), 'utf8')).toContain('| ledger | POST /v2/updates | none | none |');
  });

  it('exits 2 with a one-line reason naming the URL when a target cannot be reached', async () => {
    const port = await closedPort();
    const { code, stderr, stdout } = await cli(
      'run',
      '--scan-url',
      `http://127.0.0.1:${port}/api/scan`,
      '--runs',
      '1',
      '--report-dir',
      mkdtempSync(join(tmpdir(), 'cn-run-')),
    );
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^cn-conformance: cannot reach --scan-url http://127\\.0\\.0\\.1:${port}/api/scan: .*ECONNREFUSED`)),
    ]);
    expect(stdout).not.toContain('Summary:');
  });

  it('lists the requirement catalog', async () => {
    const { code, stdout } = await cli('list', '--json');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ id: string; level: string; sentence: string; section: string }>;
    expect(rows.length).toBeGreaterThan(100);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const r of rows) {
      expect(r.id).toMatch(/^[A-Z0-9-]+$/);
      expect(['MUST', 'SHOULD']).toContain(r.level);
      expect(r.sentence.length).toBeGreaterThan(10);
      expect(r.section.length).toBeGreaterThan(3);
    }
  });

  it('exits 2 naming the file and pointer when a --spec document is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-run-'));
    const { code, stdout } = await cli('run', '--report-dir', dir, '--runs', '1', '--only', 'NONE', '--spec', 'scan=test/fixtures/broken/not-openapi.yaml');
    expect(code).toBe(2);
    expect(stdout).toMatch(/scan\s+UNUSABLE\s+.*not-openapi\.yaml at #\/paths\/~1a\/get\/responses\/200/);
  });

  it('exits 2 with a one-line reason for a malformed --spec', async () => {
    const { code, stderr } = await cli('run', '--spec', 'nonsense');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('cn-conformance: --spec expects NAME=PATH (e.g. scan=./scan.yaml), got "nonsense"');
  });

  it('lists the operation catalog, including a user document', async () => {
    const { code, stdout } = await cli('catalog', '--json', '--spec', 'tree=test/fixtures/multi-file/api.yaml');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ spec: string; id: string; auth: string }>;
    expect(rows.length).toBe(48);
    expect(rows.find((r) => r.id === 'getUpdates')!.auth).toBe('httpAuth | apiKeyAuth');
    // The ledger's WebSocket channels, from its channel document.
    expect(rows.filter((r) => r.spec === 'ledger-channels').map((r) => `${r.id} ${r.auth}`)).toEqual([
      'receiveUpdates subprotocolToken',
      'receiveCompletions subprotocolToken',
      'receiveCommandCompletions subprotocolToken',
      'receiveActiveContracts subprotocolToken',
    ]);
    expect(rows.find((r) => r.id === 'getDsoPartyId')!.auth).toBe('none');
    expect(
      rows
        .filter((r) => r.spec === 'tree')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['getTree', 'plantForest']);
  });
});
