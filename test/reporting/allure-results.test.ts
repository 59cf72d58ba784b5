// Allure results through allure-vitest: one result per requirement, with its outcome and its labels.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reproduce } from '../../engine/transport/evidence.ts';
import { writeAllureResults } from '../../reporting/allure-results.ts';
import { SAMPLE_RESULTS, sampleReport } from '../support/sample-report.ts';

interface AllureResult {
  name: string;
  status: string;
  statusDetails: { message?: string };
  labels: Array<{ name: string; value: string }>;
  description: string;
  steps: Array<{ attachments: Array<{ name: string; source: string }> }>;
}

describe('allure-results', () => {
  it("replays report.json as one Allure result per requirement, with id, level and interface labels and the run's outcome", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-allure-'));
    const report = sampleReport();
    report.requirements.push({ ...SAMPLE_RESULTS[1]!, id: 'SCAN-WAIVED-ONE', status: 'waived', reason: 'known bug, expires 2099-01-01' });
    report.requirements.push({
      ...SAMPLE_RESULTS[1]!,
      id: 'SCAN-ERROR-ONE',
      status: 'error',
      reason: 'the check itself failed (a bug of the suite, not of the target): x is undefined',
      stack: 'TypeError: x is undefined\n    at check (suites/scan/x.ts:1:1)',
    });
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    // A stale result of an earlier run must not survive.
    const out = join(dir, 'allure-results');
    await writeAllureResults(join(dir, 'report.json'), out);
    writeFileSync(join(out, 'stale-result.json'), '{}');
    expect(await writeAllureResults(join(dir, 'report.json'), out)).toEqual({ files: 6 });

    const results = readdirSync(out)
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')) as AllureResult);
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    const label = (r: AllureResult, name: string) => r.labels.filter((l) => l.name === name).map((l) => l.value);

    const failed = byName['SCAN-ANS-PAGE-SIZE']!;
    expect(failed.status).toBe('failed');
    expect(failed.statusDetails.message).toBe('3 entries for page_size 2');
    expect(label(failed, 'requirement')).toEqual(['SCAN-ANS-PAGE-SIZE']);
    expect(label(failed, 'level')).toEqual(['MUST']);
    expect(label(failed, 'interface')).toEqual(['scan']);
    expect(label(failed, 'severity')).toEqual(['critical']);
    expect(label(failed, 'feature')).toEqual(['listAnsEntries']);
    const curl = failed.steps.flatMap((s) => s.attachments).find((a) => a.name === 'curl')!;
    expect(readFileSync(join(out, curl.source), 'utf8')).toBe(reproduce(SAMPLE_RESULTS[0]!.evidence!.exchange!));

    expect(byName['SCAN-BACKFILLING-COMPLETE-FLAG']!.status).toBe('passed');
    const skipped = byName['LEDGER-UPDATES-READ-RIGHTS']!;
    expect(skipped.status).toBe('skipped');
    expect(skipped.description).toContain('Outcome: skipped: missing fixture: fixtures.ledgerLimitedToken');
    expect(label(skipped, 'interface')).toEqual(['ledger']);
    const waived = byName['SCAN-WAIVED-ONE']!;
    expect(waived.status).toBe('skipped');
    expect(label(waived, 'tag')).toContain('waived');
    // Unsupported: skipped (never failed), the outcome and a tag saying which kind of skip it is.
    const unsupported = byName['GENERIC-SCAN-GET-EVENT-HISTORY-RESPONSES']!;
    expect(unsupported.status).toBe('skipped');
    expect(unsupported.description).toContain('Outcome: unsupported: the target does not serve getEventHistory');
    expect(label(unsupported, 'tag')).toContain('unsupported');
    // The suite's own failure is "broken", not a failure of the target.
    expect(byName['SCAN-ERROR-ONE']!.status).toBe('broken');
    // The run's verdict travels with every result and in the environment panel.
    expect(label(failed, 'verdict')).toEqual(['not-conformant']);
    expect(label(failed, 'mode')).toEqual(['standard']);
    const environment = readFileSync(join(out, 'environment.properties'), 'utf8');
    expect(environment).toMatch(/^verdict=not-conformant$/m);
    expect(environment).toMatch(/^judged=2 of 4$/m);
  });
});
