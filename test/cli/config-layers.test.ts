import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envName, parseBoolean, splitList } from '../../cli/config-layers.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

async function runWith(args: string[], env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cn-layers-'));
  const o = await cliInProcess(['run', '--report-dir', dir, '--only', 'SCAN-BACKFILLING-*', '--no-allure', ...args], env);
  return { ...o, report: existsSync(join(dir, 'report.json')) ? JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) : undefined };
}

describe('configuration layers: defaults < config file < environment < flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cn-cfg-'));
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ runs: 2, seed: 5, fixtures: {} }));

  it('reads booleans as exactly true, false, 1 or 0 in any case, and nothing else', () => {
    for (const t of ['true', 'TRUE', 'True', '1', ' true ', true, 1]) expect(parseBoolean(t, 'x')).toBe(true);
    for (const f of ['false', 'FALSE', 'False', '0', false, 0]) expect(parseBoolean(f, 'x')).toBe(false);
    for (const bad of ['banana', '', 'no', 'yes', 'off', '2', null, 'truee'])
      expect(() => parseBoolean(bad, 'SETTING (layer)')).toThrow(/^SETTING \(layer\) must be true, false, 1 or 0, got /);
  });

  it('splits comma-separated patterns', () => {
    expect(splitList('A-*, B ,,C')).toEqual(['A-*', 'B', 'C']);
  });

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

  it('takes booleans from every layer the same way', async () => {
    writeFileSync(join(dir, 'mutations.json'), JSON.stringify({ allowMutations: true }));
    expect((await runWith(['--config', join(dir, 'mutations.json')])).report.config.allowMutations).toBe(true);
    expect((await runWith(['--config', join(dir, 'mutations.json')], { CN_CONFORMANCE_ALLOW_MUTATIONS: 'False' })).report.config.allowMutations).toBe(false);
    expect((await runWith([], { CN_CONFORMANCE_ALLOW_MUTATIONS: 'TRUE' })).report.config.allowMutations).toBe(true);
    expect((await runWith(['--allow-mutations'], { CN_CONFORMANCE_ALLOW_MUTATIONS: '0' })).report.config.allowMutations).toBe(true);
    // A bad value is refused even where a higher layer overrides it.
    expect((await runWith(['--allow-mutations'], { CN_CONFORMANCE_ALLOW_MUTATIONS: 'nah' })).code).toBe(2);
  });

  it('names the layer of a bad value', async () => {
    const r = await runWith([], { CN_CONFORMANCE_RUNS: 'many' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('cn-conformance: CN_CONFORMANCE_RUNS (environment) must be a positive integer, got "many"');
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ seed: -3 }));
    expect((await runWith(['--config', join(dir, 'seed.json')])).stderr).toMatch(/"seed" in the config file .*seed\.json must be a positive integer, got "-3"/);
    const c = await runWith(['--concurrency', '0']);
    expect([c.code, c.stderr.trim()]).toEqual([2, 'cn-conformance: --concurrency must be a positive integer, got "0"']);
  });

  it('refuses unknown settings in the config file, naming them', async () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ runz: 2 }));
    const r = await runWith(['--config', join(dir, 'bad.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/config file .*bad\.json: unknown setting\(s\) runz \(did you mean runs\?\)/);
  });

  it('stops at the request budget: what it could not check is skipped with the reason, never passed', async () => {
    const r = await runWith(['--max-requests', '1', '--only', 'SCAN-*']);
    const skipped = r.report.requirements.filter((x: { status: string; reason?: string }) => x.status === 'skipped' && /request budget/.test(x.reason ?? ''));
    expect(skipped.length).toBeGreaterThan(10);
    expect(r.report.requirements.filter((x: { status: string }) => x.status === 'passed').length).toBeLessThanOrEqual(1);
  });
});
