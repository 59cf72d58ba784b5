// The detection report on a small hand-made matrix: scores, per-requirement proofs, families, unproven
// requirements, the verdict, and both files as written.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FaultOutcome, MatrixRun } from '../../detection/matrix.ts';
import { buildDetectionReport, renderDetectionMarkdown, writeDetectionReports } from '../../detection/report.ts';
import type { FaultDefinition } from '../../reference-node/faults.ts';

const FAULTS: FaultDefinition[] = [
  { name: 'scan-a', interface: 'scan', family: 'paging', breaks: 'A page loses an item.', cites: [], rules: ['SCAN-PAGING'] },
  {
    name: 'scan-b',
    interface: 'scan',
    family: 'paging',
    breaks: 'A page repeats an item.',
    cites: [],
    rules: ['SCAN-PAGING'],
    generic: { checks: ['responses'] },
  },
  { name: 'wallet-c', interface: 'wallet', family: 'errors', breaks: 'Errors are text.', cites: [], rules: ['WALLET-ERRORS'] },
  {
    name: 'scan-d',
    interface: 'scan',
    family: 'documented answers',
    cites: [],
    breaks: 'JSON labelled as text.',
    rules: [],
    generic: { operations: ['get'], checks: ['responses'] },
  },
];

const outcome = (
  f: FaultDefinition,
  failed: string[],
  verdict: Partial<Pick<FaultOutcome, 'unexpected' | 'missed' | 'unmatchedPatterns' | 'unsupported'>> = {},
): FaultOutcome => ({
  fault: f.name,
  interface: f.interface,
  family: f.family,
  expected: [...f.rules],
  failed,
  incidental: [],
  skipped: [],
  unsupported: [],
  reasons: {},
  unexpected: [],
  missed: [],
  unmatchedPatterns: [],
  ...verdict,
});

const RUN: MatrixRun = {
  scope: 'interface',
  requirements: [
    { id: 'SCAN-PAGING', interface: 'scan', level: 'MUST', kind: 'rule' },
    { id: 'GENERIC-SCAN-LIST-RESPONSES', interface: 'scan', level: 'MUST', kind: 'generic' },
    { id: 'GENERIC-SCAN-GET-RESPONSES', interface: 'scan', level: 'MUST', kind: 'generic' },
    { id: 'WALLET-ERRORS', interface: 'wallet', level: 'MUST', kind: 'rule' },
    { id: 'LEDGER-AUTH', interface: 'ledger', level: 'MUST', kind: 'rule' },
  ],
  clean: { ran: 5, notPassed: [] },
  outcomes: [
    outcome(FAULTS[0]!, ['SCAN-PAGING']),
    outcome(FAULTS[1]!, ['GENERIC-SCAN-LIST-RESPONSES', 'SCAN-PAGING']),
    // Named requirement passed, an unnamed one failed.
    outcome(FAULTS[2]!, ['LEDGER-AUTH'], { unexpected: ['LEDGER-AUTH'], missed: ['WALLET-ERRORS'] }),
    outcome(FAULTS[3]!, ['GENERIC-SCAN-GET-RESPONSES']),
  ],
  deviations: [],
};

describe('the detection report', () => {
  const report = buildDetectionReport(RUN, FAULTS);

  it('counts a SHOULD finding as proven by the real-world deviation that reports it, and a deviation going wrong as not ok', () => {
    const deviation = {
      deviation: 'wallet-plain',
      interface: 'wallet' as const,
      findings: ['WALLET-ERRORS'],
      failed: ['WALLET-ERRORS'],
      mustWrong: [],
      ok: true,
    };
    const withDeviation = buildDetectionReport({ ...RUN, deviations: [deviation] }, FAULTS);
    expect(withDeviation.requirements.find((r) => r.id === 'WALLET-ERRORS')!.provenBy).toEqual(['wallet-plain']);
    expect(withDeviation.score.requirementsProven).toEqual({ count: 4, total: 5 });
    const wrong = buildDetectionReport({ ...RUN, outcomes: [], deviations: [{ ...deviation, mustWrong: ['WALLET-X failed: ...'], ok: false }] }, []);
    expect(wrong.ok).toBe(false);
    expect(wrong.requirements.find((r) => r.id === 'WALLET-ERRORS')!.provenBy).toEqual([]);
  });

  it('scores faults detected and exact, and requirements proven by rules and generic checks, per interface', () => {
    expect(report.score.faultsDetected).toEqual({ count: 3, total: 4 });
    expect(report.score.faultsExact).toEqual({ count: 3, total: 4 });
    expect(report.score.requirementsProven).toEqual({ count: 3, total: 5 });
    expect(report.score.rulesProven).toEqual({ count: 1, total: 3 });
    expect(report.score.genericProven).toEqual({ count: 2, total: 2 });
    expect(report.score.byInterface.scan).toEqual({
      faultsDetected: { count: 3, total: 3 },
      rulesProven: { count: 1, total: 1 },
      genericProven: { count: 2, total: 2 },
      requirementsProven: { count: 3, total: 3 },
    });
    expect(report.score.byInterface.wallet.faultsDetected).toEqual({ count: 0, total: 1 });
  });

  it('lists every requirement with the faults that prove it; an unexpected failure proves nothing', () => {
    expect(Object.fromEntries(report.requirements.map((r) => [r.id, r.provenBy]))).toEqual({
      'SCAN-PAGING': ['scan-a', 'scan-b'],
      'GENERIC-SCAN-LIST-RESPONSES': ['scan-b'],
      'GENERIC-SCAN-GET-RESPONSES': ['scan-d'],
      'WALLET-ERRORS': [],
      'LEDGER-AUTH': [],
    });
    expect(report.unproven.map((r) => r.id)).toEqual(['WALLET-ERRORS', 'LEDGER-AUTH']);
  });

  it('counts distinct faults per family, telling rule families from those only document checks notice', () => {
    expect(report.families).toEqual([
      { interface: 'scan', family: 'documented answers', ruleFamily: false, faults: ['scan-d'] },
      { interface: 'scan', family: 'paging', ruleFamily: true, faults: ['scan-a', 'scan-b'] },
      { interface: 'wallet', family: 'errors', ruleFamily: true, faults: ['wallet-c'] },
    ]);
  });

  it('is not ok when a fault goes undetected or fails other requirements, nor when the clean run fails', () => {
    expect(report.ok).toBe(false);
    expect(report.faults.find((f) => f.name === 'wallet-c')).toMatchObject({
      detected: false,
      exact: false,
      unexpected: ['LEDGER-AUTH'],
      missed: ['WALLET-ERRORS'],
    });
    const good = { ...RUN, outcomes: RUN.outcomes.filter((o) => o.fault !== 'wallet-c') };
    expect(buildDetectionReport(good, FAULTS).ok).toBe(true);
    expect(buildDetectionReport({ ...good, clean: { ran: 5, notPassed: [{ id: 'SCAN-PAGING', status: 'failed', reason: 'x' }] } }, FAULTS).ok).toBe(false);
  });

  it('renders the markdown sections: verdict, scores, mismatches, per-interface tables, families, unproven', () => {
    const md = renderDetectionMarkdown(report);
    expect(md).toContain('**Verdict: NOT OK');
    expect(md).toContain('**Detection score: 3/4 (75%) faults detected**');
    expect(md).toContain('| scan | 3/3 (100%) | 1/1 (100%) | 2/2 (100%) | 3/3 (100%) |');
    expect(md).toContain('| wallet | 0/1 (0%) | 0/1 (0%) | - | 0/1 (0%) |');
    expect(md).toContain('| wallet-c | yes | LEDGER-AUTH | WALLET-ERRORS |  |');
    expect(md).toContain('| scan-b | paging | GENERIC-SCAN-LIST-RESPONSES, SCAN-PAGING | exact |');
    expect(md).toContain('| wallet-c | errors | **LEDGER-AUTH (unexpected)** | undetected |');
    expect(md).toContain('| GENERIC-SCAN-GET-RESPONSES | generic | scan-d |');
    expect(md).toContain('| WALLET-ERRORS | rule | **none** |');
    expect(md).toContain('| scan | paging | 2 | scan-a, scan-b |');
    expect(md).toContain('| scan | documented answers (document checks only) | 1 | scan-d |');
    expect(md).toContain('## Requirements no fault (or deviation) proves (2)');
    expect(md).toContain('- wallet: WALLET-ERRORS');
    expect(md).toContain('- ledger: LEDGER-AUTH');
    expect(md.indexOf('### ledger')).toBeLessThan(md.indexOf('### wallet'));
  });

  it('does not count a named requirement that came out unsupported as detecting the fault, and says so', () => {
    // The faulty node answered scan-d's operation as if it did not serve it: nothing failed, nothing detected.
    const run = { ...RUN, outcomes: [outcome(FAULTS[3]!, [], { missed: ['GENERIC-SCAN-GET-RESPONSES'], unsupported: ['GENERIC-SCAN-GET-RESPONSES'] })] };
    const d = buildDetectionReport(run, FAULTS);
    expect(d.faults[0]).toMatchObject({ detected: false, exact: false, unsupported: ['GENERIC-SCAN-GET-RESPONSES'] });
    expect(d.ok).toBe(false);
    const md = renderDetectionMarkdown(d);
    expect(md).toContain('| scan-d | yes |  | GENERIC-SCAN-GET-RESPONSES (unsupported) |  |');
    expect(md).toContain('| scan-d | documented answers |  | undetected |');
  });

  it('writes detection.json (the report as data) and detection.md', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'detection-'));
    try {
      const paths = await writeDetectionReports(dir, report);
      expect(JSON.parse(await readFile(paths.json, 'utf8'))).toEqual(report);
      expect(await readFile(paths.markdown, 'utf8')).toBe(renderDetectionMarkdown(report));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
