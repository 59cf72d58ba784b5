// A CI gate and a certifier can trust the exit code and the headline (issue 10). Every run here targets a
// reference node started on its own and reached only through its URLs and tokens, as a vendor's node is.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

let node: RunningReferenceNode;
let fixturesFile: string;
let base: string[];

beforeAll(async () => {
  node = await startReferenceNode({});
  fixturesFile = join(mkdtempSync(join(tmpdir(), 'cn-gate-')), 'fixtures.json');
  writeFileSync(fixturesFile, JSON.stringify({ fixtures: referenceFixtures(node) }));
  base = [
    '--ledger-url',
    node.urls.ledger,
    '--wallet-url',
    node.urls.validator,
    '--scan-url',
    node.urls.scan,
    '--ledger-token',
    node.credentials.ledgerAdminToken,
    '--wallet-token',
    node.credentials.walletUsers[0]!.token,
    '--no-allure',
    '--runs',
    '2',
  ];
});
afterAll(async () => {
  await node?.close();
});

const reportDir = () => mkdtempSync(join(tmpdir(), 'cn-gate-'));
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
const run = (args: string[], env: Record<string, string | undefined> = {}) => cliInProcess(['run', ...base, ...args], env);

/** A usage error: exit 2, one line on stderr, and nothing run (no summary, no report). */
function expectUsageError(o: { code: number; stdout: string; stderr: string }, message: RegExp, dir?: string): void {
  expect(o.code, o.stderr).toBe(2);
  expect(o.stderr.trim().split('\n')).toEqual([expect.stringMatching(message)]);
  expect(o.stdout).not.toContain('Summary:');
  if (dir) expect(existsSync(join(dir, 'report.json'))).toBe(false);
}

describe('booleans: exactly true, false, 1 or 0 (any case) in every layer', () => {
  it('anything else is exit 2 naming the setting and its layer, before any request', async () => {
    expectUsageError(
      await run(['--report-dir', reportDir()], { CN_CONFORMANCE_ALLOW_MUTATIONS: 'banana' }),
      /^cn-conformance: CN_CONFORMANCE_ALLOW_MUTATIONS \(environment\) must be true, false, 1 or 0, got "banana"$/,
    );
    expectUsageError(
      await run(['--report-dir', reportDir()], { CN_CONFORMANCE_ALLOW_MUTATIONS: '' }),
      /CN_CONFORMANCE_ALLOW_MUTATIONS \(environment\) must be true, false, 1 or 0, got ""$/,
    );
    expectUsageError(
      await run(['--allow-mutations', 'no', '--report-dir', reportDir()]),
      /^cn-conformance: --allow-mutations must be true, false, 1 or 0, got "no"$/,
    );
    const dir = reportDir();
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ allowMutations: 'false ', allure: 'yes' }));
    expectUsageError(
      await run(['--config', config, '--report-dir', dir]),
      /"allure" in the config file .*config\.json must be true, false, 1 or 0, got "yes"$/,
      dir,
    );
  });
});

describe('the verdict never says more than was judged', () => {
  it('a run that judged a few requirements is incomplete (exit 0), says so first, and groups why the rest was not judged', async () => {
    const dir = reportDir();
    const o = await run(['--max-requests', '50', '--config', fixturesFile, '--report-dir', dir]);
    expect(o.code).toBe(0);
    const report = readReport(dir);
    expect(report.verdict).toBe('incomplete');
    expect(report.mode).toBe('standard');
    // A few rules, and the deviation policy's reviews of what they received (they send nothing themselves).
    expect(report.judgement.judged).toBeLessThan(30);
    expect(report.judgement.selected).toBe(report.requirements.length);
    expect(report.judgement.reasons).toContainEqual(expect.stringMatching(/^\d+ skipped \(.*request budget used up: \d+/));
    // The console opens the summary with the verdict and how much was judged, then why the rest was not.
    expect(o.stdout).toMatch(new RegExp(`Summary:\\n  INCOMPLETE: ${report.judgement.judged} of ${report.requirements.length} selected requirements judged`));
    expect(o.stdout).toMatch(/Not judged \(\d+ skipped\), by reason:\n/);
    expect(o.stdout).toMatch(/^ +\d+ {2}the run's request budget \(--max-requests\) is used up {2}\([A-Z0-9-]+, [A-Z0-9-]+, [A-Z0-9-]+, \.\.\.\)$/m);
    // No plain green CONFORMANT anywhere.
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<span class="verdict">INCOMPLETE</span>');
    expect(html).toContain(`${report.judgement.judged} of ${report.requirements.length} selected requirements judged`);
    expect(html).not.toMatch(/>CONFORMANT</);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<property name="verdict" value="incomplete"/>');
  });

  it('--certify: the same run exits 4 and the report records the mode and the MUST requirements left unjudged', async () => {
    const dir = reportDir();
    const o = await run(['--max-requests', '50', '--certify', '--config', fixturesFile, '--report-dir', dir]);
    expect(o.code).toBe(4);
    const report = readReport(dir);
    expect(report).toMatchObject({ verdict: 'incomplete', mode: 'certify' });
    expect(report.judgement.unjudgedMust.length).toBeGreaterThan(100);
    expect(o.stdout).toContain('[certification run]');
  });

  it('--certify with a selection: the MUST requirements left out make it incomplete', async () => {
    const dir = reportDir();
    const o = await run(['--certify', '--only', 'SCAN-BACKFILLING-*', '--report-dir', dir]);
    expect(o.code).toBe(4);
    expect(readReport(dir).judgement.reasons).toContainEqual(expect.stringMatching(/^\d+ MUST requirements of the targeted interfaces not selected/));
  });

  it('an empty selection is exit 2 before any request: --only matching nothing, --only X --skip X, one pattern of several matching nothing', async () => {
    expectUsageError(await run(['--only', 'NOTHING', '--report-dir', reportDir()]), /^cn-conformance: --only pattern "NOTHING" matches no requirement/);
    expectUsageError(
      await run(['--only', 'SCAN-*', '--skip', 'SCAN-*', '--report-dir', reportDir()]),
      /^cn-conformance: the selection is empty: --only SCAN-\* --skip SCAN-\* leaves no requirement/,
    );
    expectUsageError(
      await run(['--only', 'SCAN-BACKFILLING-*,SCAN-TYPO-*', '--report-dir', reportDir()]),
      /--only pattern "SCAN-TYPO-\*" matches no requirement/,
    );
    expectUsageError(
      await run(['--report-dir', reportDir()], { CN_CONFORMANCE_ONLY: 'NOTHING-*' }),
      /CN_CONFORMANCE_ONLY \(environment\) pattern "NOTHING-\*" matches no requirement/,
    );
  });

  it('CN_CONFORMANCE_ONLY takes a comma-separated list, as --only does', async () => {
    const dir = reportDir();
    const o = await run(['--report-dir', dir], { CN_CONFORMANCE_ONLY: 'SCAN-BACKFILLING-*, SCAN-FEATURE-SUPPORT' });
    expect(o.code).toBe(0);
    const ids = readReport(dir)
      .requirements.map((r: { id: string }) => r.id)
      .sort();
    expect(ids).toEqual(['SCAN-BACKFILLING-COMPLETE-FLAG', 'SCAN-FEATURE-SUPPORT']);
  });

  it('an unusable --spec is exit 2 before any request: no requirement vanishes behind a green summary', async () => {
    const dir = reportDir();
    const o = await run(['--spec', 'scan=test/fixtures/broken/not-openapi.yaml', '--report-dir', dir]);
    expectUsageError(
      o,
      /^cn-conformance: the scan document test\/fixtures\/broken\/not-openapi\.yaml is unusable: .*; fix it or drop --spec scan=\.\.\.$/,
      dir,
    );
    expect(o.stdout).toMatch(/scan\s+UNUSABLE/);
  });
});

describe('credentials are checked before they are blamed on the node', () => {
  it('a ledger token with a broken signature is exit 2 naming the flag', async () => {
    const token = node.credentials.ledgerAdminToken;
    const broken = `${token.slice(0, -6)}${token.endsWith('AAAAAA') ? 'BBBBBB' : 'AAAAAA'}`;
    expectUsageError(
      await run(['--ledger-token', broken, '--report-dir', reportDir()]),
      /^cn-conformance: the ledger token was refused \(401\) by GET http:\/\/127\.0\.0\.1:\d+\/v2\/version: check --ledger-token$/,
    );
  });

  it('a wallet token of a user without a wallet (403), from a file, is exit 2 naming the file', async () => {
    const dir = reportDir();
    const file = join(dir, 'wallet-token');
    // The ledger user's token is valid, but that user has no wallet.
    writeFileSync(file, `${node.credentials.ledgerUserToken.token}\n`);
    const args = base.filter((a, i) => a !== '--wallet-token' && base[i - 1] !== '--wallet-token');
    const o = await cliInProcess(['run', ...args, '--wallet-token-file', file, '--report-dir', dir]);
    expectUsageError(
      o,
      /^cn-conformance: the wallet token was refused \(403\) by POST http:\/\/127\.0\.0\.1:\d+\/api\/validator\/v0\/wallet\/transfer-offers\/cn-conformance-preflight-[0-9a-f-]+\/status: check --wallet-token-file .*wallet-token$/,
      dir,
    );
  });
});

describe('fixture files are validated against engine/fixtures.schema.json before any request', () => {
  it.each([
    [{ fixtures: { migrationID: 3 } }, /^cn-conformance: config file .*: \/fixtures\/migrationID: unknown fixture; did you mean migrationId\?/],
    [{ fixtures: { migrationId: 'three' } }, /\/fixtures\/migrationId: must be an integer >= 0, got "three"/],
  ])('%j is exit 2 naming the pointer and the fix', async (config, message) => {
    const dir = reportDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    expectUsageError(await run(['--config', join(dir, 'config.json'), '--report-dir', dir]), message, dir);
  });
});

describe('secrets in URLs', () => {
  it('a password and an API key in the scan URL appear in no output: console, report files, Allure results', async () => {
    const dir = reportDir();
    const password = 'pw-5ecr3t-9d1';
    const apiKey = 'k3y-0f-4-g4t3w4y';
    const scan = node.urls.scan.replace('http://', `http://operator:${password}@`) + `?apikey=${apiKey}&region=eu`;
    const o = await cliInProcess(['run', '--scan-url', scan, '--only', 'SCAN-BACKFILLING-*', '--report-dir', dir]);
    expect(o.code).toBe(0);
    expect(o.stdout).toContain('http://***:***@127.0.0.1:');
    expect(o.stdout).toContain('apikey=***&region=eu');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => !f.endsWith('allure-results'));
    expect(files.filter((f) => f.startsWith('allure-results/')).length).toBeGreaterThan(0);
    for (const text of [o.stdout, o.stderr, ...files.map((f) => readFileSync(join(dir, f), 'utf8'))]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain(apiKey);
    }
  });

  it('and in a URL that is refused', async () => {
    expectUsageError(
      await run(['--scan-url', 'ftp://u:pw-5ecr3t-9d1@host/', '--report-dir', reportDir()]),
      /^cn-conformance: --scan-url is not an http\(s\) URL: "ftp:\/\/\*\*\*:\*\*\*@host\/"$/,
    );
  });
});

describe('a validator reading as a single party', () => {
  it('completes with a report: every ledger requirement judged but the read as several parties, nothing in error', async () => {
    const dir = reportDir();
    const one = referenceFixtures(node).ledgerParties!.filter((p) => p.startsWith('bob::'));
    expect(one).toHaveLength(1);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ fixtures: { ...referenceFixtures(node), ledgerParties: one } }));
    // The ledger's rules (the policy's plain-text-404 review needs a 404, which only generic checks provoke).
    const o = await run(['--only', 'LEDGER-UPDATES-*', '--config', join(dir, 'config.json'), '--report-dir', dir]);
    const report = readReport(dir);
    // One party has no data for a read as several: skipped with the reason, so the verdict is incomplete. Its
    // stream is shorter than the node's list limit, so the probes at the limit have no window to read either.
    expect(
      report.requirements.filter((r: { status: string }) => r.status !== 'passed').map((r: { id: string; reason: string }) => `${r.id}: ${r.reason}`),
    ).toEqual([
      expect.stringMatching(/^LEDGER-UPDATES-LIST-LIMIT-AT-BOUND: the first \d+ elements of the stream leave no windows of 199 and 200 elements to read$/),
      'LEDGER-UPDATES-SEVERAL-PARTIES: reading as several parties needs at least two ledger parties',
      // Its WebSocket twin: the same read over the channel.
      'LEDGER-UPDATES-SEVERAL-PARTIES-WS: over the WebSocket channel: reading as several parties needs at least two ledger parties',
    ]);
    expect(report.verdict).toBe('incomplete');
    expect(o.code).toBe(0);
  });
});

describe('smaller defects', () => {
  it("--report-dir under /proc is exit 2 at once (Node's recursive mkdir loops there)", async () => {
    const started = Date.now();
    expectUsageError(
      await run(['--report-dir', '/proc/cn-conformance/x']),
      /^cn-conformance: cannot write the reports to \/proc\/cn-conformance\/x: ENOENT .*; choose another --report-dir$/,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('coverage confirms an operation only by its positive requirement, never by error answers', async () => {
    const dir = reportDir();
    // Without fixtures (none given, none discovered) the generic requests of an id lookup go to unknown ids: 404s only.
    await run(['--only', 'GENERIC-SCAN-GET-TRANSFER-PREAPPROVAL-BY-PARTY-RESPONSES', '--no-discovery', '--report-dir', dir]);
    const report = readReport(dir);
    const row = report.coverage.find((c: { operationId: string }) => c.operationId === 'getTransferPreapprovalByParty');
    expect(row.statusesSeen.every((s: number) => s < 200 || s >= 300)).toBe(true);
    expect(row.confirmed).toBe(false);
    expect(row.positive).not.toBe('passed');
    expect(report.judgement.operations.unconfirmed.map((u: { operation: string }) => u.operation)).toContain(
      'scan getTransferPreapprovalByParty (GET /api/scan/v0/transfer-preapprovals/by-party/{party})',
    );
    expect(readFileSync(join(dir, 'coverage.md'), 'utf8')).toMatch(/\| scan \| GET \/api\/scan\/v0\/transfer-preapprovals\/by-party\/\{party\} \|.*\| no \|$/m);
  });
});
