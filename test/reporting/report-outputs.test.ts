// The renderers are pure functions of one result model: fixed model in, fixed text out.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../reporting/junit.ts';
import { renderHtml } from '../../reporting/html.ts';
import { buildReport, type ConformanceReport } from '../../reporting/model.ts';
import type { RequirementResult } from '../../suites/runner.ts';

const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;
const schema = JSON.parse(readFileSync(new URL('../../reporting/report.schema.json', import.meta.url), 'utf8'));

const base = { level: 'MUST' as const, section: 'C. Scan interface > GET /v0/ans-entries', mutates: false, durationMs: 12 };
export const SAMPLE_RESULTS: RequirementResult[] = [
  { ...base, id: 'SCAN-ANS-PAGE-SIZE', interface: 'scan', operations: ['listAnsEntries'], sentence: 'page_size: maximum results', status: 'failed', reason: '3 entries for page_size 2',
    evidence: {
      exchange: { request: { method: 'GET', url: 'http://127.0.0.1:1/api/scan/v0/ans-entries?page_size=2', headers: { authorization: 'Bearer ***' } }, response: { status: 200, headers: { 'content-type': 'application/json' }, bodyExcerpt: '{"entries":[{},{},{}]}', bodyBytes: 22 }, curl: "curl -sS -X GET 'http://127.0.0.1:1/api/scan/v0/ans-entries?page_size=2' -H 'authorization: Bearer ***'", durationMs: 3 },
      pointer: '/entries/2',
      property: { seed: 1, path: '0:1', counterexample: '[2]', runs: 3 },
    } },
  { ...base, id: 'SCAN-BACKFILLING-COMPLETE-FLAG', interface: 'scan', operations: ['getBackfillingStatus'], sentence: 'complete: true only if all backfilling processes are complete', status: 'passed' },
  { ...base, id: 'LEDGER-UPDATES-READ-RIGHTS', interface: 'ledger', operations: ['getUpdates'], sentence: 'reading as a party <without> rights & "quotes"', status: 'skipped', reason: 'missing fixture: fixtures.ledgerLimitedToken' },
];

export function sampleReport(): ConformanceReport {
  return buildReport({
    version: '0.1.0', startedAt: new Date('2026-11-21T10:00:00Z'), finishedAt: new Date('2026-11-21T10:00:05Z'),
    targets: { ledger: 'http://127.0.0.1:1', wallet: 'not given', scan: 'http://127.0.0.1:1/api/scan' },
    config: { ledgerToken: '***', seed: 1 },
    specChecks: [{ name: 'scan', source: '/x/specs/scan-api.yaml', sha256: 'a'.repeat(64), openapi: '3.0.3', operations: 20, validators: 154, examplesChecked: 85, failures: [], millis: 200 }],
    seed: 1, fixtureNotes: [], requirements: SAMPLE_RESULTS,
  });
}

describe('report.json', () => {
  it('validates against the documented JSON Schema (reporting/report.schema.json)', () => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(sampleReport()), JSON.stringify(validate.errors)).toBe(true);
    const broken = { ...sampleReport(), requirements: [{ ...SAMPLE_RESULTS[2], reason: undefined }] };
    expect(validate(JSON.parse(JSON.stringify(broken)))).toBe(false);
  });

  it('summarises by interface and by level', () => {
    expect(sampleReport().summary).toEqual({
      total: 3, passed: 1, failed: 1, skipped: 1, waived: 0,
      byInterface: { ledger: { total: 1, passed: 0, failed: 0, skipped: 1, waived: 0 }, scan: { total: 2, passed: 1, failed: 1, skipped: 0, waived: 0 } },
      byLevel: { MUST: { total: 3, passed: 1, failed: 1, skipped: 1, waived: 0 } },
    });
  });
});

describe('junit.xml', () => {
  it('has one test case per requirement, grouped by interface (snapshot)', async () => {
    await expect(renderJunit(sampleReport())).toMatchFileSnapshot('./__snapshots__/junit.xml');
  });
});

describe('report.html', () => {
  it('is one self-contained page: no external resource, every requirement with its rule, evidence of failures (snapshot)', async () => {
    const html = renderHtml(sampleReport());
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    for (const r of SAMPLE_RESULTS) expect(html).toContain(`<code>${r.id}</code>`);
    expect(html).toContain('reading as a party &lt;without&gt; rights &amp; &quot;quotes&quot;');
    expect(html).toContain('NOT CONFORMANT');
    expect(html).toContain('seed <code>1</code> path <code>0:1</code>');
    await expect(html).toMatchFileSnapshot('./__snapshots__/report.html');
  });
});
