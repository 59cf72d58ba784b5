// Runs requirement records against a target and returns one result per requirement. A broken rule is a
// result (failed), never an exception; a check that throws (a bug of the suite, not of the target) is a
// result too (error, with its stack), so one broken check never costs the rest of the run.
import { projectAnswers, type AnswerProjection, type RunOrder } from './answers/answer-projection.ts';
import { globToRegExp } from '../common/glob.ts';
import { BudgetExhausted } from './transport/limits.ts';
import { CredentialsUnavailable } from './transport/http.ts';
import { FIXTURE_HELP, missingFixtures } from './fixtures.ts';
import { makeCheckContext, operationAt, type ContextParts } from './check-context.ts';
import { dependentSkips } from './dependent-skips.ts';
import { unservedByRelease } from './release-applicability.ts';
import { CheckFailure, CheckNotApplicable, CheckSkipped, CheckUnsupported, type Evidence, type Level, type Requirement } from './model.ts';

/**
 * `waived`: failed, but a waiver accepts the failure for now (see reporting/waivers.ts). `unsupported`: the
 * target does not serve an operation the requirement needs (not a failure; nothing was judged).
 * `not-applicable`: the rule does not apply to the release the node states (engine/release-applicability.ts);
 * nothing of that release is left unjudged. `error`: the check itself threw; nothing was judged.
 */
export type Status = 'passed' | 'failed' | 'skipped' | 'unsupported' | 'not-applicable' | 'waived' | 'error';

/**
 * Why a requirement was not judged: no URL for its interface, mutations not allowed, WebSocket channels not to
 * be opened (--skip-websocket), a fixture missing,
 * the request budget used up, the target did not have (or show) the data the rule needs, or (`depends`) an
 * answer it needed was refused the way a failed requirement of the run shows (see engine/dependent-skips.ts).
 */
export type SkipKind = 'no-target' | 'mutations' | 'websocket' | 'fixture' | 'budget' | 'data' | 'depends' | 'credentials';

export interface RequirementResult {
  id: string;
  level: Level;
  interface: Requirement['interface'];
  operations: string[];
  section: string;
  sentence: string;
  mutates: boolean;
  status: Status;
  /** Why it failed, was skipped or ended in error. */
  reason?: string;
  /** Set when skipped. */
  skipKind?: SkipKind;
  /**
   * Set on a skip an answer of the target caused (refused or unusable): the operation it called (absent when
   * no loaded document has it) and its status (0: no answer). The answer itself is the evidence.
   */
  cause?: { operation?: string; status: number };
  /** Set when skipKind is `depends`: the failed requirements the skip follows from. */
  dependsOn?: string[];
  /** Set on error: where the check threw. */
  stack?: string;
  durationMs: number;
  evidence?: Evidence;
  /** What the check created on the target and what became of it (see CheckContext.created). */
  created?: string[];
}

export interface RunSelection {
  level?: 'must' | 'should';
  only?: string[];
  skip?: string[];
}

export const matches = (r: Requirement, patterns: string[]) =>
  patterns.some((p) => {
    const re = globToRegExp(p);
    return re.test(r.id) || (r.tags ?? []).some((t) => re.test(t)) || re.test(r.interface);
  });

/** Why a requirement does not run here, or undefined when it runs. */
export function skipReason(r: Requirement, parts: ContextParts): string | undefined {
  return plannedSkip(r, parts)?.reason;
}

function plannedSkip(r: Requirement, parts: ContextParts): { reason: string; kind: SkipKind } | undefined {
  if (!parts.clients[r.interface]) return { reason: `no ${r.interface} URL given`, kind: 'no-target' };
  if (r.mutates && !parts.allowMutations) return { reason: 'changes the target; runs only with mutations allowed (--allow-mutations)', kind: 'mutations' };
  if (r.channels?.length && parts.skipWebSocket)
    return { reason: `reads the WebSocket channel ${r.channels.join(', ')}, which this run does not open (${parts.skipWebSocket})`, kind: 'websocket' };
  const missing = missingFixtures(parts.fixtures, r.needs);
  if (missing.length > 0) return { reason: `missing fixture: ${missing.map((m) => FIXTURE_HELP[m]).join('; ')}`, kind: 'fixture' };
  return undefined;
}

/** `review`: what the run's answers showed, for a requirement of the review phase. */
export async function runRequirement(r: Requirement, parts: ContextParts, review?: AnswerProjection): Promise<RequirementResult> {
  const base = { id: r.id, level: r.level, interface: r.interface, operations: r.operations, section: r.section, sentence: r.sentence, mutates: r.mutates };
  const started = performance.now();
  const created: string[] = [];
  // A WebSocket twin's check speaks as its rule's: its reasons say which transport they are of.
  const over = (reason: string | undefined) => (reason !== undefined && r.transport === 'websocket' ? `over the WebSocket channel: ${reason}` : reason);
  const done = (status: Status, extra: Partial<RequirementResult> = {}): RequirementResult => ({
    ...base,
    status,
    ...extra,
    ...(extra.reason !== undefined && status !== 'skipped' ? { reason: over(extra.reason) } : {}),
    ...(status === 'skipped' && extra.skipKind === 'data' ? { reason: over(extra.reason) } : {}),
    ...(created.length > 0 ? { created } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  const planned = plannedSkip(r, parts);
  if (planned) return done('skipped', { reason: planned.reason, skipKind: planned.kind });
  try {
    const ctx = makeCheckContext(parts, r, created, review);
    await (parts.exchanges ? parts.exchanges.as({ requirement: r.id }, () => r.check(ctx)) : r.check(ctx));
    return done('passed');
  } catch (e) {
    if (e instanceof CheckFailure) return done('failed', { reason: e.message, evidence: e.evidence });
    if (e instanceof CheckSkipped) return done('skipped', { reason: e.reason, skipKind: 'data', ...causeOf(e) });
    if (e instanceof CheckUnsupported) {
      const dated = e.operation ? unservedByRelease(e.operation, parts.releases) : undefined;
      // Of a release that has the operation, only an answer no handler of it gives is a missing operation: a
      // 501 is the node's choice not to implement it, a 404 it documents may be its own "not found".
      if (!dated || (dated.applies && !e.certain)) return done('unsupported', { reason: e.reason, evidence: e.evidence });
      return done(dated.applies ? 'failed' : 'not-applicable', { reason: `${dated.reason}: ${e.reason}`, evidence: e.evidence });
    }
    if (e instanceof CheckNotApplicable) return done('not-applicable', { reason: e.reason });
    if (e instanceof BudgetExhausted) return done('skipped', { reason: e.message, skipKind: 'budget' });
    if (e instanceof CredentialsUnavailable) return done('skipped', { reason: e.message, skipKind: 'credentials' });
    return done('error', suiteBug(e));
  }
}

const causeOf = (e: CheckSkipped): Partial<RequirementResult> =>
  e.answer ? { cause: { operation: e.answer.operation, status: e.answer.status }, evidence: { exchange: e.answer.exchange } } : {};

/** What a throw of the suite's own code makes of a result: nothing judged, the stack to report it with. */
function suiteBug(e: unknown): Pick<RequirementResult, 'reason' | 'stack'> {
  const error = e instanceof Error ? e : new Error(String(e));
  return { reason: `the check itself failed (a bug of the suite, not of the target): ${error.message.split('\n')[0]}`, stack: error.stack };
}

export function select(requirements: readonly Requirement[], s: RunSelection): Requirement[] {
  return requirements.filter(
    (r) => (s.level !== 'must' || r.level === 'MUST') && (!s.only?.length || matches(r, s.only)) && !(s.skip?.length && matches(r, s.skip)),
  );
}

export interface RunAllOptions {
  /** Requirements in flight at once (default 1). */
  concurrency?: number;
  onResult?: (r: RequirementResult) => void;
  /** A requirement starts (for what is in flight). */
  onStart?: (r: Requirement) => void;
}

/**
 * Runs the requirements and returns their results in the given order, whatever order they finished in.
 * Up to `concurrency` run side by side; one that changes the target (and runs) or asks for the target to
 * itself runs alone (see lanes). Review requirements judge what the others received, so they come last.
 */
export async function runAll(requirements: readonly Requirement[], parts: ContextParts, options: RunAllOptions = {}): Promise<RequirementResult[]> {
  const out = new Map<Requirement, RequirementResult>();
  const phases = [undefined, 'review'].map((phase) =>
    lanes(
      requirements.filter((r) => r.phase === phase),
      (r) => alone(r, parts),
    ),
  );
  // "First" among the run's answers follows the order a serial run would take.
  const order: RunOrder = { ids: phases.flatMap((p) => p.flatMap((lane) => lane.requirements.map((r) => r.id))), askedBy: (key) => parts.cache.askedBy(key) };
  const project = () => projectAnswers(parts.answers.observations(), order);
  let review: AnswerProjection | undefined;
  const run = async (r: Requirement) => {
    options.onStart?.(r);
    const result = await runRequirement(r, parts, review);
    out.set(r, result);
    options.onResult?.(result);
  };
  for (const [i, phase] of phases.entries()) {
    // The reviews see what every check before them received.
    if (i === 1) review = project();
    for (const lane of phase) {
      if (lane.alone) await run(lane.requirements[0]!);
      else await pool(lane.requirements, options.concurrency ?? 1, run);
    }
  }
  const all = project();
  for (const r of requirements) if (r.reviewAnswers) out.set(r, reviewed(r, out.get(r)!, parts, all));
  const results = requirements.map((r) => out.get(r)!);
  return dependentSkips(results, (x) => operationAt(parts, x.request.method, x.request.url)?.id);
}

/** Whether a requirement asks for the target to itself (see Requirement.exclusive). */
export const wantsTargetAlone = (r: Requirement) => r.exclusive ?? r.mutates;

/** Whether a requirement must have the target to itself: it will run and asks for it. */
const alone = (r: Requirement, parts: ContextParts) => wantsTargetAlone(r) && !plannedSkip(r, parts);

/**
 * The requirements cut into lanes: first every one that may share the target (side by side), then each one
 * that must run alone, in the given order, after all before it and before all after it. The order of lanes
 * depends on the requirements only, so every concurrency shows the target the same way; the reads share one
 * lane, so the longest of them overlaps all the others.
 */
export function lanes(requirements: readonly Requirement[], alone: (r: Requirement) => boolean): Array<{ alone: boolean; requirements: Requirement[] }> {
  const shared = requirements.filter((r) => !alone(r));
  return [...(shared.length ? [{ alone: false, requirements: shared }] : []), ...requirements.filter(alone).map((r) => ({ alone: true, requirements: [r] }))];
}

/** Runs `work` on every item, at most `size` at once, starting them in order. */
async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

/**
 * A result once every requirement has run, with the requirement's review of the run's answers applied. A
 * review that throws anything but a check failure is the suite's bug: that requirement's error, and the
 * other results stand.
 */
function reviewed(r: Requirement, result: RequirementResult, parts: ContextParts, answers: AnswerProjection): RequirementResult {
  const open = result.status === 'passed' || (result.status === 'skipped' && (result.skipKind === 'budget' || result.skipKind === 'data'));
  if (!r.reviewAnswers || !open) return result;
  try {
    r.reviewAnswers(makeCheckContext(parts, r, [], answers));
    return result;
  } catch (e) {
    const { skipKind: _, cause: __, evidence: ___, ...rest } = result;
    if (e instanceof CheckFailure) return { ...rest, status: 'failed', reason: e.message, evidence: e.evidence };
    return { ...rest, status: 'error', ...suiteBug(e) };
  }
}
