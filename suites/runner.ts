// Runs requirement records against a target and returns one result per requirement. A broken rule is a
// result (failed), never an exception; only a bug in a check itself escapes as a crash.
import { BudgetExhausted } from './http.ts';
import { FIXTURE_HELP, missingFixtures } from './fixtures.ts';
import { makeCheckContext, type ContextParts } from './check-context.ts';
import { CheckFailure, CheckSkipped, type Evidence, type Level, type Requirement } from './model.ts';

/** `waived`: failed, but a waiver accepts the failure for now (see reporting/waivers.ts). */
export type Status = 'passed' | 'failed' | 'skipped' | 'waived';

export interface RequirementResult {
  id: string;
  level: Level;
  interface: Requirement['interface'];
  operations: string[];
  section: string;
  sentence: string;
  mutates: boolean;
  status: Status;
  /** Why it failed or was skipped. */
  reason?: string;
  durationMs: number;
  evidence?: Evidence;
}

export interface RunSelection {
  level?: 'must' | 'should';
  only?: string[];
  skip?: string[];
}

export const matches = (r: Requirement, patterns: string[]) =>
  patterns.some((p) => {
    const re = new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    return re.test(r.id) || (r.tags ?? []).some((t) => re.test(t)) || re.test(r.interface);
  });

/** Why a requirement does not run here, or undefined when it runs. */
export function skipReason(r: Requirement, parts: ContextParts): string | undefined {
  if (!parts.clients[r.interface]) return `no ${r.interface} URL given`;
  if (r.mutates && !parts.allowMutations) return 'changes the target; runs only with mutations allowed (--allow-mutations)';
  const missing = missingFixtures(parts.fixtures, r.needs);
  if (missing.length > 0) return `missing fixture: ${missing.map((m) => FIXTURE_HELP[m]).join('; ')}`;
  return undefined;
}

export async function runRequirement(r: Requirement, parts: ContextParts): Promise<RequirementResult> {
  const base = { id: r.id, level: r.level, interface: r.interface, operations: r.operations, section: r.section, sentence: r.sentence, mutates: r.mutates };
  const started = performance.now();
  const done = (status: Status, reason?: string, evidence?: Evidence): RequirementResult => ({ ...base, status, reason, evidence, durationMs: Math.round(performance.now() - started) });
  const why = skipReason(r, parts);
  if (why) return done('skipped', why);
  try {
    await r.check(makeCheckContext(parts));
    return done('passed');
  } catch (e) {
    if (e instanceof CheckFailure) return done('failed', e.message, e.evidence);
    if (e instanceof CheckSkipped) return done('skipped', e.reason);
    if (e instanceof BudgetExhausted) return done('skipped', e.message);
    throw e;
  }
}

export function select(requirements: readonly Requirement[], s: RunSelection): Requirement[] {
  return requirements.filter((r) => (s.level !== 'must' || r.level === 'MUST') && (!s.only?.length || matches(r, s.only)) && !(s.skip?.length && matches(r, s.skip)));
}

export async function runAll(requirements: readonly Requirement[], parts: ContextParts, onResult?: (r: RequirementResult) => void): Promise<RequirementResult[]> {
  const out: RequirementResult[] = [];
  for (const r of requirements) {
    const result = await runRequirement(r, parts);
    out.push(result);
    onResult?.(result);
  }
  return out;
}
