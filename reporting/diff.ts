// Comparing two runs: what a release engineer wants to see before a release.
import type { ConformanceReport } from './model.ts';

export interface RunDiff {
  /** passed before, failed now */
  regressions: string[];
  /** failed before, passed now */
  fixes: string[];
  /** ran (passed or failed) before, skipped now: coverage lost */
  newlySkipped: string[];
  added: string[];
  removed: string[];
}

export function diffReports(before: ConformanceReport, after: ConformanceReport): RunDiff {
  const old = new Map(before.requirements.map((r) => [r.id, r.status]));
  const now = new Map(after.requirements.map((r) => [r.id, r.status]));
  const ids = (pred: (id: string) => boolean) => [...new Set([...old.keys(), ...now.keys()])].filter(pred).sort();
  return {
    regressions: ids((id) => old.get(id) === 'passed' && now.get(id) === 'failed'),
    fixes: ids((id) => old.get(id) === 'failed' && now.get(id) === 'passed'),
    newlySkipped: ids((id) => (old.get(id) === 'passed' || old.get(id) === 'failed') && now.get(id) === 'skipped'),
    added: ids((id) => !old.has(id) && now.has(id)),
    removed: ids((id) => old.has(id) && !now.has(id)),
  };
}

export function renderDiff(d: RunDiff): string {
  const section = (title: string, xs: string[]) => (xs.length ? [`${title} (${xs.length}):`, ...xs.map((x) => `  ${x}`)] : [`${title}: none`]);
  return [
    ...section('Regressions (passed -> failed)', d.regressions),
    ...section('Fixes (failed -> passed)', d.fixes),
    ...section('No longer checked (ran -> skipped)', d.newlySkipped),
    ...section('New requirements', d.added),
    ...section('Removed requirements', d.removed),
  ].join('\n') + '\n';
}
