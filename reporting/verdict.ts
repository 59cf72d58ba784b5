// The verdict of a run says no more than was judged: conformant only when every selected requirement was
// judged and no MUST requirement failed; incomplete when nothing MUST failed but something was not judged
// (skipped, unsupported, not selected under --certify, waived, or a check of the suite that failed); not conformant
// when a MUST requirement failed. A requirement not applicable to the release the node states leaves nothing
// of that release unjudged: it counts apart and never keeps a run from being conformant, --certify included.
import type { RequirementResult } from '../engine/engine.ts';

export type Verdict = 'conformant' | 'incomplete' | 'not-conformant';

/** The operations of a run's documents confirmed (a valid request answered 2xx and judged), and each one not. */
export interface OperationsConfirmed {
  confirmed: number;
  /** The operations the nodes' releases have: one not applicable to the release its node states is not counted. */
  total: number;
  /** Operations not applicable to the release their node states, with why (absent when none). */
  notApplicable?: Array<{ operation: string; why: string }>;
  /** Each operation not confirmed, with why (its positive requirement's status and reason). */
  unconfirmed: Array<{ operation: string; why: string }>;
}

/** `certify`: every MUST requirement of the targeted interfaces must be judged (see --certify). */
export type RunMode = 'standard' | 'certify';

export interface Judgement {
  verdict: Verdict;
  mode: RunMode;
  /** Requirements the run selected. */
  selected: number;
  /** Of those, the ones that reached a verdict of their own: passed, failed or waived (a judged failure). */
  judged: number;
  /** Why the verdict is not `conformant`, one line each; empty when it is. */
  reasons: string[];
  /** What does not change the verdict but deserves a look: SHOULD failures. */
  warnings: string[];
  /** Under --certify: MUST requirements of the targeted interfaces that were not judged, each with why. */
  unjudgedMust?: Array<{ id: string; why: string }>;
  /**
   * The operations of the targeted interfaces' documents confirmed (a valid request answered 2xx and judged),
   * with each one not confirmed and why. Under --certify every one must be.
   */
  operations?: OperationsConfirmed;
}

/** The statuses of a requirement that was judged: skipped and error were not. */
export const JUDGED: ReadonlySet<string> = new Set(['passed', 'failed', 'waived']);

/**
 * `scope` (under --certify): the MUST requirements of the targeted interfaces, selected or not; any of them
 * without a judgement makes the run incomplete. `operations`: the targeted documents' operations confirmed;
 * under --certify, one not confirmed makes the run incomplete too.
 */
export function judge(
  results: readonly RequirementResult[],
  mode: RunMode,
  scope: ReadonlyArray<{ id: string }> = [],
  operations?: OperationsConfirmed,
): Judgement {
  const count = (pred: (r: RequirementResult) => boolean) => results.filter(pred).length;
  const mustFailed = count((r) => r.status === 'failed' && r.level === 'MUST');
  const shouldFailed = count((r) => r.status === 'failed' && r.level === 'SHOULD');
  const skipped = results.filter((r) => r.status === 'skipped');
  const errors = count((r) => r.status === 'error');
  const unsupported = count((r) => r.status === 'unsupported');
  const waived = count((r) => r.status === 'waived');
  const reasons: string[] = [];
  if (mustFailed) reasons.push(`${mustFailed} MUST requirement${mustFailed === 1 ? '' : 's'} failed`);
  if (results.length === 0) reasons.push('no requirement was selected');
  if (skipped.length) reasons.push(`${skipped.length} skipped (${skipSummary(skipped)})`);
  if (unsupported)
    reasons.push(
      `${unsupported} unsupported: the target does not serve ${unsupported === 1 ? 'an operation it needs' : 'operations they need'} (not a failure, but not judged)`,
    );
  if (errors) reasons.push(`${errors} ended in error: the suite's own checks failed, nothing was judged there`);
  if (waived) reasons.push(`${waived} failed but ${waived === 1 ? 'is' : 'are'} waived`);
  let unjudgedMust: Judgement['unjudgedMust'];
  if (mode === 'certify') {
    const byId = new Map(results.map((r) => [r.id, r]));
    unjudgedMust = scope
      .map((s) => ({ s, r: byId.get(s.id) }))
      .filter(({ r }) => !r || ((!JUDGED.has(r.status) || r.status === 'waived') && r.status !== 'not-applicable'))
      .map(({ s, r }) => ({
        id: s.id,
        why: !r
          ? 'not selected'
          : r.status === 'skipped'
            ? `skipped: ${r.reason ?? ''}`
            : r.status === 'unsupported'
              ? `unsupported: ${r.reason ?? ''}`
              : r.status === 'error'
                ? 'error'
                : 'waived',
      }));
    const notSelected = unjudgedMust.filter((u) => u.why === 'not selected').length;
    if (notSelected)
      reasons.push(`${notSelected} MUST requirement${notSelected === 1 ? '' : 's'} of the targeted interfaces not selected (--certify judges them all)`);
    const missing = operations?.unconfirmed ?? [];
    if (missing.length)
      reasons.push(
        `${missing.length} of ${operations!.total} operations not confirmed (--certify needs a valid request of each answered 2xx and judged): ${missing
          .slice(0, 5)
          .map((m) => m.operation.split(' (')[0])
          .join(', ')}${missing.length > 5 ? ', ...' : ''}`,
      );
  }
  const verdict: Verdict = mustFailed ? 'not-conformant' : reasons.length ? 'incomplete' : 'conformant';
  return {
    verdict,
    mode,
    selected: results.length,
    judged: count((r) => JUDGED.has(r.status)),
    reasons,
    warnings: shouldFailed ? [`${shouldFailed} SHOULD requirement${shouldFailed === 1 ? '' : 's'} failed`] : [],
    ...(unjudgedMust ? { unjudgedMust } : {}),
    ...(operations ? { operations } : {}),
  };
}

const KIND_WORDS: Record<string, string> = {
  'no-target': 'interface not targeted',
  mutations: 'mutations not allowed',
  fixture: 'fixture missing',
  budget: 'request budget used up',
  data: 'data not shown by the target',
  depends: 'depends on a failed requirement',
  credentials: 'no token (its renewal failed)',
};

/** "fixture missing: 83, mutations not allowed: 22" */
function skipSummary(skipped: readonly RequirementResult[]): string {
  const by = new Map<string, number>();
  for (const r of skipped) by.set(r.skipKind ?? 'data', (by.get(r.skipKind ?? 'data') ?? 0) + 1);
  return [...by]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${KIND_WORDS[k] ?? k}: ${n}`)
    .join(', ');
}

/** The verdict as a headline: "CONFORMANT", "INCOMPLETE", "NOT CONFORMANT". */
export const headline = (v: Verdict) => v.replace('-', ' ').toUpperCase();

/**
 * Unsupported requirements grouped by the operations they need, largest group first: what the target does not
 * serve. `why` is the first requirement's reason (the answer that showed it).
 */
export function unsupportedGroups(results: readonly RequirementResult[]): Array<{ operations: string; why: string; ids: string[] }> {
  const by = new Map<string, { operations: string; why: string; ids: string[] }>();
  for (const r of results) {
    if (r.status !== 'unsupported') continue;
    const operations = r.operations.join(', ') || '(no operation named)';
    const g = by.get(operations) ?? { operations, why: r.reason ?? 'unsupported', ids: [] };
    g.ids.push(r.id);
    by.set(operations, g);
  }
  return [...by.values()].sort((a, b) => b.ids.length - a.ids.length || a.operations.localeCompare(b.operations));
}

/**
 * Requirements not applicable to the releases the nodes state, grouped by the release and operation that
 * decided it (the reason before the answer that showed the operation unserved), largest group first.
 */
export function notApplicableGroups(results: readonly RequirementResult[]): Array<{ reason: string; ids: string[] }> {
  const by = new Map<string, string[]>();
  for (const r of results) {
    if (r.status !== 'not-applicable') continue;
    const reason = (r.reason ?? 'not applicable').split(': the target does not serve ')[0]!;
    by.set(reason, [...(by.get(reason) ?? []), r.id]);
  }
  return [...by].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length || a.reason.localeCompare(b.reason));
}

/**
 * Skipped requirements grouped by reason, largest group first: what a user fixes to judge more. Skips that
 * follow from a failed requirement are not among them (see dependentGroups): fixing the failure judges them.
 */
export function skipGroups(results: readonly RequirementResult[]): Array<{ reason: string; ids: string[] }> {
  const by = new Map<string, string[]>();
  for (const r of results)
    if (r.status === 'skipped' && r.skipKind !== 'depends') by.set(r.reason ?? 'skipped', [...(by.get(r.reason ?? 'skipped') ?? []), r.id]);
  return [...by].map(([reason, ids]) => ({ reason, ids })).sort((a, b) => b.ids.length - a.ids.length || a.reason.localeCompare(b.reason));
}

/** Skips that follow from failed requirements, grouped by those (`failed`), largest group first. */
export function dependentGroups(results: readonly RequirementResult[]): Array<{ failed: string[]; ids: string[] }> {
  const by = new Map<string, { failed: string[]; ids: string[] }>();
  for (const r of results) {
    if (r.status !== 'skipped' || r.skipKind !== 'depends') continue;
    const failed = r.dependsOn ?? [];
    const g = by.get(failed.join(' ')) ?? { failed, ids: [] };
    g.ids.push(r.id);
    by.set(failed.join(' '), g);
  }
  return [...by.values()].sort((a, b) => b.ids.length - a.ids.length || a.failed.join().localeCompare(b.failed.join()));
}
