import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { envName } from '../../cli/config-layers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function runWith(args: string[], env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cn-layers-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'bin/cn-conformance.js'), 'run', '--report-dir', dir, '--only', 'SCAN-BACKFILLING-*', ...args], { cwd: root, env: { ...process.env, ...env } });
    return { code: 0, stdout, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) };
  } catch (e) {
    return { code: (e as { code: number }).code, stdout: (e as { stdout: string }).stdout, stderr: (e as { stderr: string }).stderr, report: undefined };
  }
}

describe('configuration layers: defaults < config file < environment < flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cn-cfg-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ runs: 2, seed: 5, fixtures: {} }));

  it('names environment variables after the options', () => {
    expect(envName('runs')).toBe('CN_CONFORMANCE_RUNS');
    expect(envName('ledgerTokenFile')).toBe('CN_CONFORMANCE_LEDGER_TOKEN_FILE');
  });

  it('takes each setting from the highest layer that gives it', async () => {
    expect((await runWith([])).report.config.runs).toBe(12);
    expect((await runWith(['--config', config])).report.config).toMatchObject({ runs: 2, seed: 5 });
    expect((await runWith(['--config', config], { CN_CONFORMANCE_RUNS: '3' })).report.config).toMatchObject({ runs: 3, seed: 5 });
    expect((await runWith(['--config', config, '--runs', '4'], { CN_CONFORMANCE_RUNS: '3' })).report.config).toMatchObject({ runs: 4, seed: 5 });
  });

  it('refuses unknown settings in the config file, naming them', async () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ runz: 2 }));
    const r = await runWith(['--config', join(dir, 'bad.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config file .*bad\.json: unknown setting\(s\) runz/);
  });

  it('stops at the request budget: what it could not check is skipped with the reason, never passed', async () => {
    const r = await runWith(['--max-requests', '1', '--only', 'SCAN-*']);
    const skipped = r.report.requirements.filter((x: { status: string; reason?: string }) => x.status === 'skipped' && /request budget/.test(x.reason ?? ''));
    expect(skipped.length).toBeGreaterThan(10);
    expect(r.report.requirements.filter((x: { status: string }) => x.status === 'passed').length).toBeLessThanOrEqual(1);
  });
});
