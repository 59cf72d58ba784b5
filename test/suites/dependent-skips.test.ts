// A skip that follows from a failure elsewhere in the run says so and is counted apart from missing data: one
// fault (an update stream that answers 413 to a limited read) must not read as "data not shown" on every rule
// that samples the stream. Unit cases of the re-classing, then the fault on the reference node, through the
// report, the console summary, junit.xml and report.html.
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { printSummary } from '../../cli/summary.ts';
import { renderHtml } from '../../reporting/html.ts';
import { renderJunit } from '../../reporting/junit.ts';
import { buildReport } from '../../reporting/model.ts';
import { dependentSkips } from '../../engine/dependent-skips.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { LEDGER_REQUIREMENTS } from '../../requirements/ledger/index.ts';
import { runOnFreshNode } from '../support/suite-harness.ts';

const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (a: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../reporting/report.schema.json', import.meta.url), 'utf8')));

// The evidence's URL path names its operation here (the run maps it through the loaded documents).
const exchange = (status: number, operation = 'getUpdates') => ({
  request: { method: 'POST', url: `http://127.0.0.1:1/${operation}`, headers: {} },
  ...(status === 0 ? { error: 'timed out' } : { response: { status, headers: {}, bodyExcerpt: '', bodyBytes: 0 } }),
  curl: 'curl',
  durationMs: 0,
});
const base = { level: 'MUST' as const, interface: 'ledger' as const, section: '', sentence: '', mutates: false, durationMs: 0 };
const failed = (id: string, operation: string, status: number, operations = [operation]): RequirementResult => ({
  ...base,
  id,
  operations,
  status: 'failed',
  reason: 'broken',
  evidence: { exchange: exchange(status, operation) },
});
const operationOf = (x: { request: { url: string } }) => new URL(x.request.url).pathname.slice(1);
const reclass = (results: RequirementResult[]) => dependentSkips(results, operationOf);
const skipped = (id: string, cause?: { operation?: string; status: number }): RequirementResult => ({
  ...base,
  id,
  operations: ['getUpdates'],
  status: 'skipped',
  skipKind: 'data',
  reason: 'could not sample the update stream',
  ...(cause ? { cause, evidence: { exchange: exchange(cause.status) } } : {}),
});

describe('re-classing skips that follow from a failure', () => {
  it('names every failed requirement whose evidence is an answer of the same operation with the same status', () => {
    const [skip] = reclass([
      skipped('S', { operation: 'getUpdates', status: 413 }),
      failed('F2', 'getUpdates', 413),
      failed('F1', 'getUpdates', 413),
      failed('OTHER-STATUS', 'getUpdates', 400),
      failed('OTHER-OPERATION', 'getVersion', 413),
      // It calls the operation too, but failed on an answer of another one.
      failed('ELSEWHERE', 'submitAndWait', 413, ['submitAndWait', 'getUpdates']),
    ]);
    expect(skip).toMatchObject({
      status: 'skipped',
      skipKind: 'depends',
      dependsOn: ['F1', 'F2'],
      reason: 'depends on a failed requirement: F1, F2 (failed where getUpdates gave status 413, as here); could not sample the update stream',
    });
  });

  it('counts no answer as an answer of its own (status 0)', () => {
    const [skip] = reclass([skipped('S', { operation: 'getUpdates', status: 0 }), failed('F', 'getUpdates', 0)]);
    expect(skip).toMatchObject({ skipKind: 'depends', dependsOn: ['F'], reason: expect.stringContaining('where getUpdates gave no answer') });
  });

  it('leaves a skip as missing data without an answer as its cause, without a known operation, or without such a failure', () => {
    const results = [
      skipped('NO-CAUSE'),
      skipped('NO-OPERATION', { status: 413 }),
      skipped('NO-FAILURE', { operation: 'getVersion', status: 500 }),
      failed('F', 'getUpdates', 413),
    ];
    expect(reclass(results)).toEqual(results);
  });

  it('re-classes only skips for want of data: a fixture missing or the budget used up stays what it is', () => {
    const fixture = { ...skipped('S', { operation: 'getUpdates', status: 413 }), skipKind: 'fixture' as const };
    expect(reclass([fixture, failed('F', 'getUpdates', 413)])[0]).toBe(fixture);
  });
});

describe('a node whose update stream answers 413 to limit=1 (fault ledger-limit-ignored)', () => {
  const SAMPLING = ['LEDGER-UPDATES-BEGIN-EXCLUSIVE', 'LEDGER-UPDATES-END-INCLUSIVE', 'LEDGER-UPDATES-DESCENDING'];
  const FAILING = ['LEDGER-UPDATES-BOUNDED-READ', 'LEDGER-UPDATES-LIMIT'];

  it('fails the limit rules; the rules that sample the stream are skipped as depending on them, in every output', async () => {
    const selected = LEDGER_REQUIREMENTS.filter((r) => [...FAILING, ...SAMPLING].includes(r.id));
    // A list limit below the default history, so that a read the limit does not bound is refused with 413.
    const results = await runOnFreshNode({ listLimit: 200, faults: ['ledger-limit-ignored'] }, selected, { runs: 2 });
    expect(
      results
        .filter((r) => r.status === 'failed')
        .map((r) => r.id)
        .sort(),
    ).toEqual(FAILING);
    for (const id of SAMPLING) {
      expect(
        results.find((r) => r.id === id),
        id,
      ).toMatchObject({
        status: 'skipped',
        skipKind: 'depends',
        dependsOn: FAILING,
        cause: { operation: 'getUpdates', status: 413 },
        reason: expect.stringMatching(
          /^depends on a failed requirement: LEDGER-UPDATES-BOUNDED-READ, LEDGER-UPDATES-LIMIT \(failed where getUpdates gave status 413, as here\); could not sample the update stream/,
        ),
        // The refused sample is the evidence, to reproduce it by hand.
        evidence: { exchange: { response: { status: 413 }, curl: expect.stringContaining('/v2/updates?limit=') } },
      });
    }

    const report = buildReport({
      version: '0',
      startedAt: new Date(0),
      finishedAt: new Date(0),
      targets: {},
      config: {},
      specChecks: [],
      seed: 1,
      fixtureNotes: [],
      requirements: results,
    });
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
    expect(report.summary).toMatchObject({ failed: 2, skipped: 3, dependent: 3 });
    expect(report.judgement.reasons).toContain('3 skipped (depends on a failed requirement: 3)');

    const lines: string[] = [];
    printSummary(report, { expired: [], stale: [], unknown: [] }, (l) => lines.push(l));
    expect(lines).toContain('Not judged: depends on a failed requirement: 3 (skipped because of a failure below, not for want of data), by failure:');
    expect(lines).toContain(
      '     3  after LEDGER-UPDATES-BOUNDED-READ, LEDGER-UPDATES-LIMIT failed  (LEDGER-UPDATES-BEGIN-EXCLUSIVE, LEDGER-UPDATES-END-INCLUSIVE, LEDGER-UPDATES-DESCENDING)',
    );
    expect(lines).toContain('  ledger   MUST   0 passed, 2 failed, 3 skipped (3 after a failure)');
    expect(lines.some((l) => l.startsWith('Not judged ('))).toBe(false);

    expect(renderJunit(report)).toContain(
      '<property name="depends-on-failure" value="3 skipped after LEDGER-UPDATES-BOUNDED-READ, LEDGER-UPDATES-LIMIT failed: LEDGER-UPDATES-BEGIN-EXCLUSIVE, LEDGER-UPDATES-END-INCLUSIVE, LEDGER-UPDATES-DESCENDING"/>',
    );
    expect(renderJunit(report)).toMatch(
      /name="LEDGER-UPDATES-DESCENDING"[^>]*>\s*<skipped message="depends on a failed requirement: LEDGER-UPDATES-BOUNDED-READ/,
    );
    const html = renderHtml(report);
    expect(html).toContain('3 requirements not judged: depend on a failed requirement (skipped because of a failure, not for want of data)');
    expect(html).toContain('<li><b>3</b> after <code>LEDGER-UPDATES-BOUNDED-READ, LEDGER-UPDATES-LIMIT</code> failed');
    expect(html).toContain('<div class="depends">not judged: depends on the failed <code>LEDGER-UPDATES-BOUNDED-READ, LEDGER-UPDATES-LIMIT</code></div>');
    expect(html).toContain('3 skipped (3 after a failure)');
  });
});
