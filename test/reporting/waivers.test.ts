import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { applyWaivers, parseWaivers } from '../../reporting/waivers.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const r = (id: string, status: RequirementResult['status']) => ({ id, status, reason: status === 'failed' ? 'broke' : undefined }) as RequirementResult;
const today = new Date('2026-11-21T12:00:00Z');

describe('waivers', () => {
  it('turn an unexpired failure into "waived", and report expired, stale and unknown waivers', () => {
    const waivers = parseWaivers(
      JSON.stringify([
        { id: 'A', reason: 'vendor fix due', expires: '2026-12-01' },
        { id: 'B', reason: 'old', expires: '2026-11-20' },
        { id: 'C', reason: 'fixed meanwhile', expires: '2027-01-01' },
        { id: 'Z', reason: 'typo', expires: '2027-01-01' },
      ]),
      'w.json',
    );
    const { results, notes } = applyWaivers([r('A', 'failed'), r('B', 'failed'), r('C', 'passed')], waivers, today);
    expect(results.map((x) => x.status)).toEqual(['waived', 'failed', 'passed']);
    expect(results[0]!.reason).toBe('broke (waived until 2026-12-01: vendor fix due)');
    expect(notes.expired.map((w) => w.id)).toEqual(['B']);
    expect(notes.stale.map((w) => w.id)).toEqual(['C']);
    expect(notes.unknown.map((w) => w.id)).toEqual(['Z']);
  });

  it('must each have an id, a reason and an expiry date', () => {
    expect(() => parseWaivers('[{"id":"A","expires":"2026-12-01"}]', 'w.json')).toThrow('w.json: waiver A has no reason');
    expect(() => parseWaivers('[{"id":"A","reason":"x","expires":"soon"}]', 'w.json')).toThrow('w.json: waiver A needs an expiry date YYYY-MM-DD');
    expect(() => parseWaivers('{', 'w.json')).toThrow(/w\.json: not JSON/);
  });

  it('let a waived failure pass the gate (exit 0) and an expired one fail it (exit 1)', async () => {
    const node = await startReferenceNode({ faults: ['scan-ans-too-many'] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'cn-waive-'));
      writeFileSync(join(dir, 'fixtures.json'), JSON.stringify({ fixtures: referenceFixtures(node) }));
      // The waived run in this process (same parse, call and exit code); the expired one as a CI job meets the
      // gate: a process whose exit status is the verdict, and which ends once its run against the URL is over.
      const run = async (expires: string, asProcess = false) => {
        writeFileSync(join(dir, 'waivers.json'), JSON.stringify([{ id: 'SCAN-ANS-PAGE-SIZE', reason: 'vendor ticket 42', expires }]));
        const args = [
          'run',
          '--scan-url',
          node.urls.scan,
          '--config',
          join(dir, 'fixtures.json'),
          '--waivers',
          join(dir, 'waivers.json'),
          '--only',
          'SCAN-ANS-*',
          '--runs',
          '3',
          '--report-dir',
          dir,
          '--no-allure',
        ];
        if (!asProcess) return cliInProcess(args);
        try {
          const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'bin/cn-conformance.js'), ...args], { cwd: root, timeout: 100_000 });
          return { code: 0, stdout };
        } catch (e) {
          return { code: (e as { code: number }).code, stdout: (e as { stdout: string }).stdout };
        }
      };
      const waived = await run('2999-01-01');
      expect(waived.code).toBe(0);
      expect(waived.stdout).toContain('WAIVED SCAN-ANS-PAGE-SIZE:');
      expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.waived).toBe(1);
      const expired = await run('2001-01-01', true);
      expect(expired.code).toBe(1);
      expect(expired.stdout).toContain('waiver EXPIRED on 2001-01-01 for SCAN-ANS-PAGE-SIZE');
    } finally {
      await node.close();
    }
  });
});
