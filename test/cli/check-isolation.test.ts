// One check that throws (a bug of the suite) must not cost the run: it gets the status `error` with its
// stack, the other requirements still run, the report is written, the verdict is incomplete and the exit
// code is 3. The catalog is given broken requirements for this file only: a check that throws, a review of
// the run's answers that throws, and checks naming an operation the loaded documents do not have.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exitCodeOf } from '../../cli/exit-codes.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { buildReport } from '../../reporting/model.ts';
import type { Requirement } from '../../engine/model.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

vi.mock('../../requirements/catalog.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../requirements/catalog.ts')>();
  const broken: Requirement = {
    id: 'SCAN-BROKEN-CHECK',
    kind: 'rule',
    definedIn: 'test/cli/check-isolation.test.ts',
    level: 'MUST',
    interface: 'scan',
    operations: ['getBackfillingStatus'],
    cites: [],
    section: 'test',
    sentence: 'A check with a bug of its own.',
    mutates: false,
    needs: [],
    async check(ctx) {
      await ctx.scan.get('/v0/backfilling/status');
      const nothing = undefined as unknown as { field: string };
      void nothing.field; // the bug
    },
  };
  const rule = (id: string, sentence: string, check: Requirement['check'], more: Partial<Requirement> = {}): Requirement => ({
    ...broken,
    id,
    sentence,
    check,
    ...more,
  });
  const backfilling = (ctx: Parameters<Requirement['check']>[0]) => ctx.scan.get('/v0/backfilling/status');
  const suiteBugs = [
    rule('SCAN-BROKEN-REVIEW', 'A review of the answers with a bug of its own.', async (ctx) => void (await backfilling(ctx)), {
      reviewAnswers() {
        throw new TypeError('the review broke');
      },
    }),
    rule('SCAN-UNKNOWN-OPERATION', 'A check naming an operation no document has.', async (ctx) => ctx.conforms('getNoSuchThing', await backfilling(ctx))),
    rule('SCAN-OPERATION-OF-ANOTHER-DOCUMENT', 'A check judging an answer by the wrong document.', async (ctx) =>
      ctx.conforms('getBackfillingStatus', await backfilling(ctx), 'wallet'),
    ),
  ];
  return { ...real, catalog: (specs: Parameters<typeof real.catalog>[0]) => [broken, ...suiteBugs, ...real.catalog(specs)] };
});

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode({});
});
afterAll(async () => {
  await node?.close();
});

/** A run of the selection against the scan of the test's node, as the command line does it. */
async function runScan(only: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cn-isolation-'));
  const o = await cliInProcess(['run', '--scan-url', node.urls.scan, '--only', only, '--report-dir', dir, '--no-allure']);
  return { dir, o };
}

describe('a check that throws', () => {
  it('ends in error with its stack; the run goes on, writes every report and exits 3 with verdict incomplete', async () => {
    const { dir, o } = await runScan('SCAN-BROKEN-CHECK,SCAN-BACKFILLING-*,SCAN-FEATURE-SUPPORT');
    expect(o.code).toBe(3);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const broken = report.requirements.find((r: RequirementResult) => r.id === 'SCAN-BROKEN-CHECK');
    expect(broken).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^the check itself failed \(a bug of the suite, not of the target\): Cannot read properties of undefined/),
    });
    expect(broken.stack).toMatch(/TypeError: Cannot read properties of undefined[\s\S]*check-isolation\.test\.ts/);
    // The requirements after it ran to their own verdicts.
    expect(report.requirements.filter((r: RequirementResult) => r.id !== 'SCAN-BROKEN-CHECK').map((r: RequirementResult) => r.status)).toEqual([
      'passed',
      'passed',
    ]);
    expect(report.verdict).toBe('incomplete');
    expect(report.summary.error).toBe(1);
    expect(report.judgement.reasons).toContainEqual(expect.stringMatching(/^1 ended in error/));
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testcase [^>]*name="SCAN-BROKEN-CHECK"[^>]*>\s*<error message="the check itself failed/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<span class="badge error">error</span> <code>SCAN-BROKEN-CHECK</code>');
    expect(o.stdout).toMatch(/ERROR SCAN-BROKEN-CHECK: the check itself failed/);
    expect(o.stdout).toMatch(/^\s+scan\s+3\/3, 1 error$/m);
  });
});

describe("the suite's own mistakes found while judging", () => {
  it('a review that throws and an operation missing from the loaded documents end in error, not failed; the run goes on and exits 3', async () => {
    const { dir, o } = await runScan('SCAN-BROKEN-REVIEW,SCAN-UNKNOWN-OPERATION,SCAN-OPERATION-OF-ANOTHER-DOCUMENT,SCAN-FEATURE-SUPPORT');
    expect(o.code).toBe(3);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const byId = new Map<string, RequirementResult>(report.requirements.map((r: RequirementResult) => [r.id, r]));
    const bug = /^the check itself failed \(a bug of the suite, not of the target\): /;
    expect(byId.get('SCAN-BROKEN-REVIEW')).toMatchObject({ status: 'error', reason: expect.stringMatching(bug) });
    expect(byId.get('SCAN-BROKEN-REVIEW')!.stack).toMatch(/TypeError: the review broke[\s\S]*check-isolation\.test\.ts/);
    expect(byId.get('SCAN-UNKNOWN-OPERATION')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/operation getNoSuchThing is in no loaded document$/),
    });
    expect(byId.get('SCAN-OPERATION-OF-ANOTHER-DOCUMENT')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/operation getBackfillingStatus is not in the loaded wallet document$/),
    });
    for (const id of ['SCAN-UNKNOWN-OPERATION', 'SCAN-OPERATION-OF-ANOTHER-DOCUMENT']) expect(byId.get(id)!.stack, id).toMatch(/SuiteError/);
    expect(byId.get('SCAN-FEATURE-SUPPORT')?.status).toBe('passed');
    // Nothing the target did failed: the verdict says what was not judged, and no failure is the node's.
    expect(report.summary).toMatchObject({ failed: 0, error: 3 });
    expect(report.verdict).toBe('incomplete');
    expect(o.stdout).not.toMatch(/FAIL SCAN-/);
  });
});

describe('exit codes', () => {
  const result = (id: string, level: 'MUST' | 'SHOULD', status: RequirementResult['status']): RequirementResult => ({
    id,
    level,
    interface: 'scan',
    operations: [],
    section: '',
    sentence: '',
    mutates: false,
    status,
    reason: status === 'passed' ? undefined : 'why',
    durationMs: 0,
  });
  const code = (rs: RequirementResult[], mode: 'standard' | 'certify' = 'standard', scope: Array<{ id: string }> = []) =>
    exitCodeOf(
      buildReport({
        version: '0',
        startedAt: new Date(0),
        finishedAt: new Date(0),
        targets: {},
        config: {},
        specChecks: [],
        seed: 1,
        fixtureNotes: [],
        requirements: rs,
        mode,
        certifyScope: scope,
      }),
      [],
    );

  it('0 conformant, 1 not conformant, 3 the suite failed, 4 incomplete under --certify; a MUST failure wins', () => {
    expect(code([result('A', 'MUST', 'passed')])).toBe(0);
    expect(code([result('A', 'MUST', 'passed'), result('B', 'SHOULD', 'failed')])).toBe(0);
    expect(code([result('A', 'MUST', 'skipped')])).toBe(0);
    expect(code([result('A', 'MUST', 'failed'), result('B', 'MUST', 'error')])).toBe(1);
    expect(code([result('A', 'MUST', 'error')])).toBe(3);
    expect(code([result('A', 'MUST', 'error')], 'certify')).toBe(3);
    expect(code([result('A', 'MUST', 'skipped')], 'certify')).toBe(4);
    expect(code([result('A', 'MUST', 'waived')], 'certify')).toBe(4);
    expect(code([result('A', 'MUST', 'passed')], 'certify', [{ id: 'A' }, { id: 'B' }])).toBe(4);
    expect(code([result('A', 'MUST', 'passed'), result('B', 'SHOULD', 'skipped')], 'certify', [{ id: 'A' }])).toBe(4);
    expect(code([result('A', 'MUST', 'passed')], 'certify', [{ id: 'A' }])).toBe(0);
  });
});
