// Exit codes of every command, in one place so that the run, the CLI and the docs agree.
import type { ConformanceReport } from '../reporting/model.ts';
import type { SpecCheckResult } from '../runner/documents.ts';

export const EXIT = {
  /** Conformant, or incomplete outside --certify. */
  ok: 0,
  /** Not conformant: a MUST requirement failed (or a document's own examples do not validate). */
  failed: 1,
  /** A usage or configuration error: nothing was judged. */
  usage: 2,
  /** The suite itself failed: a check threw (status `error`) or the run crashed. */
  crash: 3,
  /** Incomplete under --certify: a MUST requirement of the targeted interfaces was not judged. */
  incomplete: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Not conformant (1) before the suite's own failures (3) before an incomplete certification (4). */
export function exitCodeOf(report: ConformanceReport, checks: readonly SpecCheckResult[]): ExitCode {
  if (report.verdict === 'not-conformant' || checks.some((c) => c.failures.length > 0)) return EXIT.failed;
  if (report.summary.error > 0) return EXIT.crash;
  if (report.mode === 'certify' && report.verdict !== 'conformant') return EXIT.incomplete;
  return EXIT.ok;
}
