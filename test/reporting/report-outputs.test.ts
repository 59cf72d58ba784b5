// The renderers are pure functions of one result model: fixed model in, fixed text out.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../reporting/junit.ts';
import { renderHtml } from '../../reporting/html.ts';
import { judge } from '../../reporting/verdict.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { SAMPLE_RESULTS, sampleReport } from '../support/sample-report.ts';

const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;
const schema = JSON.parse(readFileSync(new URL('../../reporting/report.schema.json', import.meta.url), 'utf8'));
const validate = (() => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
})();

describe('report.json', () => {
  it('validates against the documented JSON Schema (reporting/report.schema.json)', () => {
    expect(validate(sampleReport()), JSON.stringify(validate.errors)).toBe(true);
    const broken = { ...sampleReport(), requirements: [{ ...SAMPLE_RESULTS[2], reason: undefined }] };
    expect(validate(JSON.parse(JSON.stringify(broken)))).toBe(false);
  });

  it('summarises by interface and by level', () => {
    expect(sampleReport().summary).toEqual({
      total: 4,
      passed: 1,
      failed: 1,
      skipped: 1,
      dependent: 0,
      unsupported: 1,
      notApplicable: 0,
      waived: 0,
      error: 0,
      byInterface: {
        ledger: { total: 1, passed: 0, failed: 0, skipped: 1, dependent: 0, unsupported: 0, notApplicable: 0, waived: 0, error: 0 },
        scan: { total: 3, passed: 1, failed: 1, skipped: 0, dependent: 0, unsupported: 1, notApplicable: 0, waived: 0, error: 0 },
      },
      byLevel: { MUST: { total: 4, passed: 1, failed: 1, skipped: 1, dependent: 0, unsupported: 1, notApplicable: 0, waived: 0, error: 0 } },
    });
  });
});

describe('junit.xml', () => {
  it('has one test case per requirement, grouped by interface (snapshot)', async () => {
    await expect(renderJunit(sampleReport())).toMatchFileSnapshot('./__snapshots__/junit.xml');
  });

  it('shows an unsupported requirement as skipped with an "unsupported:" message and its curl line, never as a failure', () => {
    const xml = renderJunit(sampleReport());
    const unsupported = /<testcase classname="scan.MUST" name="GENERIC-SCAN-GET-EVENT-HISTORY-RESPONSES"[^>]*>\s*(<[^>]+>)([^<]*)/.exec(xml)!;
    expect(unsupported[1]).toMatch(
      /^<skipped message="unsupported: the target does not serve getEventHistory \(POST \/api\/scan\/v0\/events\): every valid request/,
    );
    expect(unsupported[2]).toContain("curl -sS -X POST 'http://127.0.0.1:1/api/scan/v0/events'");
    expect(xml).toContain('<testsuite name="scan" tests="3" failures="1" errors="0" skipped="1"');
  });
});

describe('a SHOULD finding', () => {
  // The scan failure of the sample, as a finding of a SHOULD requirement.
  const warned = () => {
    const report = sampleReport();
    const failed = report.requirements.find((r) => r.status === 'failed' && r.interface === 'scan')!;
    return { report: { ...report, requirements: report.requirements.map((r) => (r === failed ? { ...r, level: 'SHOULD' as const } : r)) }, id: failed.id };
  };

  it('is a warning in junit.xml: in the test output, never a failure a CI gate counts', () => {
    const { report, id } = warned();
    const xml = renderJunit(report);
    const testcase = new RegExp(
      `<testcase classname="scan.SHOULD" name="${id}"[^>]*>\\s*<system-out>WARNING \\(SHOULD finding; the verdict does not change\\): `,
    );
    expect(xml).toMatch(testcase);
    expect(xml).not.toContain('<failure');
    expect(xml).toContain('<testsuite name="scan" tests="3" failures="0"');
  });

  it('is a warning in report.html', () => {
    const { report, id } = warned();
    expect(renderHtml(report)).toMatch(new RegExp(`<span class="badge warning">warning</span> <code>${id}</code> <span class="level">SHOULD</span>`));
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
    // Unsupported apart from skipped: its filter, the list of operations not served, its row with the evidence.
    expect(html).toContain('<button data-filter="unsupported">unsupported (1)</button>');
    expect(html).toContain('1 requirement is unsupported: the target does not serve 1 operation they need (not a failure, not judged)');
    expect(html).toContain('<li><b>1</b> <code>getEventHistory</code>: the target does not serve getEventHistory');
    expect(html).toMatch(/<details class="req unsupported" data-status="unsupported"[^>]*>[\s\S]*?<b>response<\/b> 404 text\/plain; charset=UTF-8/);
    await expect(html).toMatchFileSnapshot('./__snapshots__/report.html');
  });

  it('lists every fixture with where it came from, and what discovery did per source', () => {
    const report = {
      ...sampleReport(),
      fixtures: [
        {
          name: 'svParties' as const,
          shown: 'sv1::1220aa',
          count: 1,
          origin: { kind: 'discovered' as const, interface: 'scan' as const, endpoint: 'GET /api/scan/v0/dso', pointer: '/dso_rules/contract/payload/svs' },
        },
        { name: 'ledgerLimitedToken' as const, shown: '***', origin: { kind: 'given' as const, from: 'fixture file f.json' } },
      ],
      discovery: {
        bounds: { pages: 5, ms: 20_000 },
        sources: [
          {
            source: 'scan-dso',
            interface: 'scan' as const,
            what: 'the DSO',
            mutates: false,
            outcome: 'found' as const,
            found: ['svParties' as const],
            requests: 1,
            ms: 3,
          },
          {
            source: 'scan-acs',
            interface: 'scan' as const,
            what: 'the ACS',
            mutates: false,
            outcome: 'not served' as const,
            found: [],
            requests: 1,
            ms: 2,
            detail: 'POST /api/scan/v0/state/acs answered 404',
          },
        ],
      },
    };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const html = renderHtml(report);
    expect(html).toContain('fixtures (2) and where they came from');
    expect(html).toContain(
      "<tr><td><code>svParties</code></td><td>sv1::1220aa</td><td>the scan's GET /api/scan/v0/dso /dso_rules/contract/payload/svs</td></tr>",
    );
    expect(html).toContain('<td>fixture file f.json</td>');
    expect(html).toContain('<li>scan-acs: not served (1 request, 2 ms): POST /api/scan/v0/state/acs answered 404</li>');
  });
});

describe('the verdict', () => {
  const r = (id: string, level: 'MUST' | 'SHOULD', status: RequirementResult['status'], skipKind?: RequirementResult['skipKind']): RequirementResult => ({
    id,
    level,
    interface: 'scan',
    operations: [],
    section: '',
    sentence: '',
    mutates: false,
    status,
    reason: status === 'passed' ? undefined : 'why',
    skipKind,
    durationMs: 0,
  });

  it('is conformant only when every selected requirement was judged and no MUST failed; SHOULD failures are warnings', () => {
    expect(judge([r('A', 'MUST', 'passed'), r('B', 'SHOULD', 'failed')], 'standard')).toEqual({
      verdict: 'conformant',
      mode: 'standard',
      selected: 2,
      judged: 2,
      reasons: [],
      warnings: ['1 SHOULD requirement failed'],
    });
  });

  it('is incomplete when something was skipped, ended in error or is waived, and says why', () => {
    const j = judge(
      [
        r('A', 'MUST', 'passed'),
        r('B', 'MUST', 'skipped', 'fixture'),
        r('C', 'MUST', 'skipped', 'budget'),
        r('D', 'MUST', 'skipped', 'fixture'),
        r('E', 'MUST', 'error'),
        r('F', 'MUST', 'waived'),
      ],
      'standard',
    );
    expect(j.verdict).toBe('incomplete');
    expect(j.judged).toBe(2);
    expect(j.reasons).toEqual([
      '3 skipped (fixture missing: 2, request budget used up: 1)',
      "1 ended in error: the suite's own checks failed, nothing was judged there",
      '1 failed but is waived',
    ]);
  });

  it('is incomplete, never not conformant, when MUST requirements are unsupported; --certify lists them as unjudged', () => {
    const results = [r('A', 'MUST', 'passed'), r('B', 'MUST', 'unsupported'), r('C', 'MUST', 'unsupported')];
    expect(judge(results, 'standard')).toMatchObject({
      verdict: 'incomplete',
      judged: 1,
      reasons: ['2 unsupported: the target does not serve operations they need (not a failure, but not judged)'],
    });
    expect(judge(results, 'certify', [{ id: 'A' }, { id: 'B' }, { id: 'C' }]).unjudgedMust).toEqual([
      { id: 'B', why: 'unsupported: why' },
      { id: 'C', why: 'unsupported: why' },
    ]);
  });

  it('is not conformant on a MUST failure, whatever else happened', () => {
    expect(judge([r('A', 'MUST', 'failed'), r('B', 'MUST', 'skipped', 'data')], 'standard').verdict).toBe('not-conformant');
  });

  it('under certify, counts the MUST requirements of the scope that were not selected', () => {
    const j = judge([r('A', 'MUST', 'passed')], 'certify', [{ id: 'A' }, { id: 'B' }]);
    expect(j).toMatchObject({ verdict: 'incomplete', mode: 'certify', unjudgedMust: [{ id: 'B', why: 'not selected' }] });
  });
});
