import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffReports } from '../../reporting/diff.ts';
import type { ConformanceReport } from '../../reporting/model.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The command line in this process (same parse, call, render and exit code as the binary). */
const cli = (...args: string[]) => cliInProcess(args);

const report = (statuses: Record<string, 'passed' | 'failed' | 'skipped' | 'unsupported' | 'waived' | 'error'>, verdict?: string) =>
  ({ verdict, requirements: Object.entries(statuses).map(([id, status]) => ({ id, status })) }) as unknown as ConformanceReport;

describe('diff', () => {
  it('classifies regressions, fixes, lost and gained coverage, new and removed requirements', () => {
    const d = diffReports(
      report({ A: 'passed', B: 'failed', C: 'passed', D: 'passed', E: 'failed', G: 'skipped', H: 'waived', I: 'error', J: 'passed', K: 'unsupported' }),
      report(
        { A: 'failed', B: 'passed', C: 'skipped', E: 'failed', F: 'passed', G: 'passed', H: 'error', I: 'failed', J: 'unsupported', K: 'passed' },
        'not-conformant',
      ),
    );
    expect(d).toEqual({
      verdicts: { before: '(none)', after: 'not-conformant' },
      // passed -> unsupported is no regression: the operation is no longer served, nothing was judged to fail.
      regressions: ['A'],
      fixes: ['B'],
      coverageLost: ['C', 'H', 'J'],
      noLongerServed: ['J'],
      newlyJudged: ['G', 'I', 'K'],
      added: ['F'],
      removed: ['D'],
    });
  });

  it('exits 1 when requirements judged before are not judged now, unless --allow-coverage-loss', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-diff-'));
    writeFileSync(join(dir, 'old.json'), JSON.stringify(report({ A: 'passed', B: 'passed', C: 'skipped' }, 'conformant')));
    writeFileSync(join(dir, 'new.json'), JSON.stringify(report({ A: 'passed', B: 'skipped', C: 'passed' }, 'incomplete')));
    const lost = await cliInProcess(['diff', join(dir, 'old.json'), join(dir, 'new.json')]);
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain('Verdict: conformant -> incomplete\n');
    expect(lost.stdout).toContain('Coverage lost (judged -> not judged) (1):\n  B\n');
    expect(lost.stdout).toContain('Newly judged (not judged -> judged) (1):\n  C\n');
    const allowed = await cliInProcess(['diff', join(dir, 'old.json'), join(dir, 'new.json'), '--allow-coverage-loss']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('(allowed by --allow-coverage-loss)');
    expect((await cliInProcess(['diff', join(dir, 'old.json'), join(dir, 'new.json'), '--allow-coverage-loss', 'maybe'])).code).toBe(2);
    // Gaining coverage is no reason to fail.
    expect((await cliInProcess(['diff', join(dir, 'new.json'), join(dir, 'old.json'), '--allow-coverage-loss', 'false'])).code).toBe(1);
    writeFileSync(join(dir, 'gain.json'), JSON.stringify(report({ A: 'passed', B: 'passed', C: 'passed' }, 'conformant')));
    expect((await cliInProcess(['diff', join(dir, 'old.json'), join(dir, 'gain.json')])).code).toBe(0);
    // An operation no longer served: listed apart, under the coverage lost (so exit 1 as for any loss), no regression.
    writeFileSync(join(dir, 'unserved.json'), JSON.stringify(report({ A: 'passed', B: 'unsupported', C: 'passed' }, 'incomplete')));
    const unserved = await cliInProcess(['diff', join(dir, 'gain.json'), join(dir, 'unserved.json')]);
    expect(unserved.stdout).toContain('Regressions (passed -> failed): none\n');
    expect(unserved.stdout).toContain(
      'Coverage lost (judged -> not judged) (1):\n  B\n  of these, no longer served (unsupported now: the target does not serve an operation they need) (1):\n    B\n',
    );
    expect(unserved.code).toBe(1);
    expect((await cliInProcess(['diff', join(dir, 'gain.json'), join(dir, 'unserved.json'), '--allow-coverage-loss'])).code).toBe(0);
  });

  it('reports a regression between a clean and a faulty run of the reference node, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-diff-'));
    const runs: string[] = [];
    for (const faults of [[], ['scan-holdings-page-too-large']]) {
      const node = await startReferenceNode({ faults });
      try {
        writeFileSync(join(dir, 'fixtures.json'), JSON.stringify({ fixtures: referenceFixtures(node) }));
        const out = join(dir, faults.length ? 'faulty' : 'clean');
        await cli(
          'run',
          '--scan-url',
          node.urls.scan,
          '--config',
          join(dir, 'fixtures.json'),
          '--only',
          'SCAN-HOLDINGS-*',
          '--runs',
          '3',
          '--report-dir',
          out,
          '--no-allure',
        );
        runs.push(join(out, 'report.json'));
      } finally {
        await node.close();
      }
    }
    const { code, stdout } = await cli('diff', runs[0]!, runs[1]!);
    expect(code).toBe(1);
    // The page one larger than asked breaks the page bound, and so ends no walk on the page it should.
    expect(stdout).toContain('Regressions (passed -> failed) (2):\n  SCAN-HOLDINGS-PAGE-SIZE-BOUND\n  SCAN-HOLDINGS-PAGING-LAST-PAGE');
    const back = await cli('diff', runs[1]!, runs[0]!);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('Fixes (failed -> passed) (2):\n  SCAN-HOLDINGS-PAGE-SIZE-BOUND\n  SCAN-HOLDINGS-PAGING-LAST-PAGE');
  });

  it('exits 2 for a file that is not a report', async () => {
    const { code, stderr } = await cli('diff', join(root, 'package.json'), join(root, 'package.json'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot read the report .*package\.json: no requirements array/);
  });
});
