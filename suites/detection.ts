// Matching a run against a fault's expectations: the requirements that fail must be exactly the ones
// the fault names. Names may use * (e.g. every generic check of one document's error answers).
import type { FaultDefinition } from '../reference-node/faults.ts';

const globToRegExp = (p: string) => new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

export interface DetectionVerdict {
  /** Failures the fault does not name: unrelated requirements broke (a too-broad check or a leaky fault). */
  unexpected: string[];
  /** Named requirements (exact ids) that did not fail: the fault went unnoticed by them. */
  missed: string[];
  /** Named patterns that matched no failure. */
  unmatchedPatterns: string[];
}

export function judgeDetection(fault: FaultDefinition, failedIds: string[]): DetectionVerdict {
  const named = fault.rules;
  const exact = named.filter((n) => !n.includes('*'));
  const patterns = named.filter((n) => n.includes('*'));
  const res = patterns.map(globToRegExp);
  return {
    unexpected: failedIds.filter((id) => !exact.includes(id) && !res.some((re) => re.test(id))),
    missed: exact.filter((id) => !failedIds.includes(id)),
    unmatchedPatterns: patterns.filter((_p, i) => !failedIds.some((id) => res[i]!.test(id))),
  };
}
