// Knock-on skips: one fault of the target (an operation refusing valid reads) can leave many requirements
// unable to run. Such a skip is not missing data: it follows from a failure the run already reports, and
// says so, naming the failed requirements, so that the fault is counted once and the skips apart from it.
import type { RequirementResult } from './engine.ts';

/** "status 413", or "no answer" for status 0. */
export const answerWords = (status: number) => (status === 0 ? 'no answer' : `status ${status}`);

/** The status of a failure's evidence: 0 for an exchange without answer, undefined without an exchange. */
const evidenceStatus = (r: RequirementResult) => {
  const x = r.evidence?.exchange;
  return x ? (x.response?.status ?? 0) : undefined;
};

/**
 * The results with every skip an answer caused (see RequirementResult.cause) re-classed as `depends` where
 * another requirement of the run failed on the same operation with an answer of the same status: the same
 * refusal, judged there. A skip without such a failure stays what it was (the target did not show the data).
 */
export function dependentSkips(results: readonly RequirementResult[]): RequirementResult[] {
  const failed = results.filter((r) => r.status === 'failed');
  return results.map((r) => {
    const cause = r.status === 'skipped' && r.skipKind === 'data' ? r.cause : undefined;
    if (cause?.operation === undefined) return r;
    const dependsOn = failed
      .filter((f) => f.id !== r.id && f.operations.includes(cause.operation!) && evidenceStatus(f) === cause.status)
      .map((f) => f.id)
      .sort();
    if (dependsOn.length === 0) return r;
    const reason = `depends on a failed requirement: ${dependsOn.join(', ')} (failed where ${cause.operation} gave ${answerWords(cause.status)}, as here); ${r.reason}`;
    return { ...r, skipKind: 'depends', dependsOn, reason };
  });
}
