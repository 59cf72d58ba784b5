// Comparing two runs: what a release engineer wants to see before a release. Losing a judgement counts as
// much as a regression: a gate that stops checking 100 requirements must not stay green unnoticed.
import type { ConformanceReport } from './model.ts';
import { JUDGED } from './verdict.ts';

export interface RunDiff {
  /** The verdicts of the two runs ("(none)" for reports written before verdicts existed). */
  verdicts: { before: string; after: string };
  /** passed before, failed now */
  regressions: string[];
  /** failed before, passed now */
  fixes: string[];
  /** judged before (passed, failed or waived), not judged now (skipped, unsupported or error): coverage lost */
  coverageLost: string[];
  /**
   * Of coverageLost, those unsupported now: the target stopped serving an operation they need. Listed apart,
   * never as a regression: nothing was judged to fail.
   */
  noLongerServed: string[];
  /** not judged before (skipped, unsupported or error), judged now: coverage gained */
  newlyJudged: string[];
  added: string[];
  removed: string[];
}

const UNJUDGED: ReadonlySet<string> = new Set(['skipped', 'unsupported', 'not-applicable', 'error']);

export function diffReports(before: ConformanceReport, after: ConformanceReport): RunDiff {
  const old = new Map(before.requirements.map((r) => [r.id, r.status as string]));
  const now = new Map(after.requirements.map((r) => [r.id, r.status as string]));
  const ids = (pred: (id: string) => boolean) => [...new Set([...old.keys(), ...now.keys()])].filter(pred).sort();
  return {
    verdicts: { before: before.verdict ?? '(none)', after: after.verdict ?? '(none)' },
    regressions: ids((id) => old.get(id) === 'passed' && now.get(id) === 'failed'),
    fixes: ids((id) => old.get(id) === 'failed' && now.get(id) === 'passed'),
    coverageLost: ids((id) => JUDGED.has(old.get(id) ?? '') && UNJUDGED.has(now.get(id) ?? '')),
    noLongerServed: ids((id) => JUDGED.has(old.get(id) ?? '') && now.get(id) === 'unsupported'),
    newlyJudged: ids((id) => UNJUDGED.has(old.get(id) ?? '') && JUDGED.has(now.get(id) ?? '')),
    added: ids((id) => !old.has(id) && now.has(id)),
    removed: ids((id) => old.has(id) && !now.has(id)),
  };
}

export function renderDiff(d: RunDiff, allowCoverageLoss = false): string {
  const section = (title: string, xs: string[]) => (xs.length ? [`${title} (${xs.length}):`, ...xs.map((x) => `  ${x}`)] : [`${title}: none`]);
  const lossNote = d.coverageLost.length && allowCoverageLoss ? ['  (allowed by --allow-coverage-loss)'] : [];
  return (
    [
      `Verdict: ${d.verdicts.before} -> ${d.verdicts.after}`,
      ...section('Regressions (passed -> failed)', d.regressions),
      ...section('Fixes (failed -> passed)', d.fixes),
      ...section('Coverage lost (judged -> not judged)', d.coverageLost),
      ...lossNote,
      ...(d.noLongerServed.length
        ? [
            `  of these, no longer served (unsupported now: the target does not serve an operation they need) (${d.noLongerServed.length}):`,
            ...d.noLongerServed.map((x) => `    ${x}`),
          ]
        : []),
      ...section('Newly judged (not judged -> judged)', d.newlyJudged),
      ...section('New requirements', d.added),
      ...section('Removed requirements', d.removed),
    ].join('\n') + '\n'
  );
}
