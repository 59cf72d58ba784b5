// What a fault of the reference node must make fail, derived from the records: the rule requirements the
// fault names, and the generic checks its break shows in, found by interface, operation and kind of check.
// A fault that names operations expects each of their generic checks to fail; one that shows wherever its
// interface answers (any operation) expects at least one of those checks to fail, and allows all of them. A
// fault that refuses an operation expects the requirement confirming it to fail, and allows every requirement
// that calls the operation (they need it to work).
import type { FaultDefinition } from '../reference-node/faults.ts';
import { genericId } from '../requirements/generic/spec-requirements.ts';
import type { Requirement } from '../engine/model.ts';

export interface Expectation {
  /** Requirements that must fail. */
  exact: string[];
  /** Each group: at least one must fail; any may. `label` names the group as an id pattern. */
  groups: Array<{ label: string; ids: string[] }>;
  /** Requirements that may fail but need not (they call an operation the fault refuses). */
  allowed: string[];
}

export function expectedFailures(fault: FaultDefinition, catalog: readonly Requirement[]): Expectation {
  const exact = [...fault.rules];
  // The node's stream code is one for both transports, as a real node's: what breaks a rule over HTTP breaks
  // its WebSocket twin too.
  if (!fault.httpOnly) exact.push(...catalog.filter((r) => r.twinOf !== undefined && fault.rules.includes(r.twinOf)).map((r) => r.id));
  const groups: Expectation['groups'] = [];
  const allowed: string[] = [];
  if (fault.refuses) {
    const calling = catalog.filter((r) => r.interface === fault.interface && r.operations.includes(fault.refuses!));
    exact.push(...calling.filter((r) => r.confirms === fault.refuses).map((r) => r.id));
    allowed.push(...calling.map((r) => r.id).filter((id) => !exact.includes(id)));
  }
  const shows = fault.generic;
  if (shows) {
    const candidates = catalog.filter(
      (r) => r.kind === 'generic' && r.interface === fault.interface && r.probe && (!shows.checks || shows.checks.includes(r.probe)),
    );
    if (shows.operations) {
      for (const operation of shows.operations) for (const r of candidates.filter((c) => c.operations.includes(operation))) exact.push(r.id);
    } else {
      for (const probe of shows.checks ?? [undefined]) {
        groups.push({ label: genericId(fault.interface, '*', probe), ids: candidates.filter((r) => !probe || r.probe === probe).map((r) => r.id) });
      }
    }
  }
  return { exact, groups, allowed };
}

/** The expectation as the fault catalog shows it: exact ids, then each group's pattern. */
export const expectationLabels = (e: Expectation) => [...e.exact, ...e.groups.map((g) => g.label)];

/** Whether the fault names the requirement: expected to fail it (exactly, or as one of a group). */
export const names = (e: Expectation, id: string) => e.exact.includes(id) || e.groups.some((g) => g.ids.includes(id));

/** Whether the requirement is among the ones the fault is expected to (or allowed to) make fail. */
export const expects = (e: Expectation, id: string) => e.exact.includes(id) || e.allowed.includes(id) || e.groups.some((g) => g.ids.includes(id));

export interface DetectionVerdict {
  /** Failures the fault does not name: unrelated requirements broke (a too-broad check or a leaky fault). */
  unexpected: string[];
  /** Named requirements (exact ids) that did not fail: the fault went unnoticed by them. */
  missed: string[];
  /** Named groups of which nothing failed. */
  unmatchedPatterns: string[];
}

export function judgeDetection(e: Expectation, failedIds: readonly string[]): DetectionVerdict {
  return {
    unexpected: failedIds.filter((id) => !expects(e, id)),
    missed: e.exact.filter((id) => !failedIds.includes(id)),
    unmatchedPatterns: e.groups.filter((g) => !g.ids.some((id) => failedIds.includes(id))).map((g) => g.label),
  };
}
