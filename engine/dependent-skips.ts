// Knock-on skips: one fault of the target (an operation refusing valid reads) can leave many requirements
// unable to run. Such a skip is not missing data: it follows from a failure the run already reports, and
// says so, naming the failed requirements, so that the fault is counted once and the skips apart from it.
import { httpEvidence, type ExchangeSummary, type HttpExchangeSummary } from './transport/evidence.ts';

/** What the relabelling reads and writes of a requirement's result (the engine's RequirementResult). */
interface Judged {
  id: string;
  status: string;
  reason?: string;
  skipKind?: string;
  cause?: { operation?: string; status: number };
  dependsOn?: string[];
  evidence?: { exchange?: ExchangeSummary };
}

/** "status 413", or "no answer" for status 0. */
export const answerWords = (status: number) => (status === 0 ? 'no answer' : `status ${status}`);

/**
 * The results with every skip an answer caused (see RequirementResult.cause) re-classed as `depends` where
 * another requirement of the run failed on an answer of the same operation with the same status (its
 * evidence): the same refusal, judged there. `operationOf` names the operation an evidence exchange called.
 * A skip without such a failure stays what it was (the target did not show the data).
 */
export function dependentSkips<R extends Judged>(results: readonly R[], operationOf: (x: HttpExchangeSummary) => string | undefined): R[] {
  // What each failure's evidence shows: the operation it called and its status (0: no answer). A skip's cause
  // is an HTTP answer (CheckContext.skip), so only an HTTP exchange can show the same.
  const failures = results.flatMap((f) => {
    const x = httpEvidence(f.status === 'failed' ? f.evidence?.exchange : undefined);
    return x ? [{ id: f.id, operation: operationOf(x), status: x.response?.status ?? 0 }] : [];
  });
  return results.map((r) => {
    const cause = r.status === 'skipped' && r.skipKind === 'data' ? r.cause : undefined;
    if (cause?.operation === undefined) return r;
    const dependsOn = failures
      .filter((f) => f.operation === cause.operation && f.status === cause.status)
      .map((f) => f.id)
      .sort();
    if (dependsOn.length === 0) return r;
    const reason = `depends on a failed requirement: ${dependsOn.join(', ')} (failed where ${cause.operation} gave ${answerWords(cause.status)}, as here); ${r.reason}`;
    return { ...r, skipKind: 'depends', dependsOn, reason };
  });
}
