// The detection matrix: the suite against the clean reference node, then against a node with each fault of
// the catalog switched on. Running and judging live here; `npm run detection` and the test both use it.
import { inPool } from '../common/pool.ts';
import { builtinDocuments, type Documents } from '../runner/documents.ts';
import { runConformance, type ConformanceResults } from '../runner/run-conformance.ts';
import { DEVIATION_CATALOG, FAULT_CATALOG, type DeviationDefinition, type FaultDefinition } from '../reference-node/faults.ts';
import { startReferenceNode, type ReferenceNodeOptions, type RunningReferenceNode } from '../reference-node/index.ts';
import { catalog } from '../requirements/catalog.ts';
import { expectationLabels, expectedFailures, judgeDetection, type DetectionVerdict, type Expectation } from './expectations.ts';
import type { InterfaceName, Requirement } from '../engine/model.ts';
import type { RequirementResult } from '../engine/engine.ts';
import { reproduce } from '../engine/transport/evidence.ts';
import type { Exercised } from '../engine/answers/variant-coverage.ts';
import { referenceNodeTarget } from '../runner/reference-target.ts';
import type { TargetConfig } from '../engine/target.ts';

/**
 * interface: a fault runs only its own interface's requirements (fault code sits in that interface's routes,
 * and the clean run covers the rest); all: every requirement runs on every faulty node (slower, and shows
 * that no fault leaks into another interface); operation: like interface, but only the requirements that call
 * an operation the fault's expectation touches (the operations of the requirements it names, those its break
 * shows in to the generic checks, the one it refuses; a break shown by any operation keeps the whole
 * interface): quicker, and `interface` also shows that no fault leaks to other operations and that every
 * requirement names each operation it calls; sentence: the requirements it names and those citing a sentence
 * it breaks, of those reading the WebSocket channels only the named, and WebSocket twins only for a fault of the
 * channels (a break the generic checks show keeps the operation's scope): quickest, what `npm test` runs, and the
 * other scopes also show that it breaks nothing else.
 */
export type DetectionScope = 'interface' | 'all' | 'operation' | 'sentence';

export interface FaultOutcome extends DetectionVerdict {
  fault: string;
  interface: InterfaceName;
  family: string;
  /** What the fault is expected to make fail (expectations.ts): ids, and patterns of groups of generic checks. */
  expected: string[];
  /** Requirements that failed on the faulty node (sorted). */
  failed: string[];
  /** Of those, the ones the fault allows but does not name (they call an operation it refuses): no proof of theirs. */
  incidental: string[];
  /** Requirements that did not run to a verdict (skipped): a faulty node may hide what a check needs. */
  skipped: string[];
  /**
   * Requirements that came out unsupported: the faulty node looked as if it did not serve an operation they
   * need. Not failed, so a named one among them is missed: the fault went undetected there.
   */
  unsupported: string[];
  /** Why each failed requirement failed. */
  reasons: Record<string, string>;
  /** Failed requirements whose evidence has no exchange with a line (curl, websocat) to reproduce it (a defect of the check). */
  withoutEvidence?: string[];
}

export interface RequirementInfo {
  id: string;
  interface: InterfaceName;
  level: 'MUST' | 'SHOULD';
  /** rule: a record of the description; generic: derived from an OpenAPI document. */
  kind: 'rule' | 'generic';
}

export interface CleanOutcome {
  ran: number;
  /** Requirements that did not pass on the clean node (each one is a false alarm or a missing fixture). */
  notPassed: Array<{ id: string; status: string; reason?: string }>;
  /** The variants of its operations each requirement exercised on the clean node (variant-coverage.ts). */
  exercised?: Exercised;
}

export const requirementInfo = (r: Requirement): RequirementInfo => ({
  id: r.id,
  interface: r.interface,
  level: r.level,
  kind: r.kind,
});

/** What else is done with the node a run used, once its requirements have run and before it closes. */
export type AfterRun = (node: RunningReferenceNode, results: readonly RequirementResult[]) => Promise<void>;

/**
 * Runs the requirements against a fresh reference node (disposable, so mutating checks run too), then `after`
 * on the same node: a test that also asks the node itself needs no second one.
 */
export async function runOnReferenceNode(
  options: ReferenceNodeOptions,
  requirements: readonly Requirement[],
  documents: Documents,
  overrides: Partial<TargetConfig> = {},
  after?: AfterRun,
): Promise<RequirementResult[]> {
  return (await conformOnReferenceNode(options, requirements, documents, overrides, after)).requirements;
}

/** As runOnReferenceNode, with everything the run found (its requirements' results among it). */
async function conformOnReferenceNode(
  options: ReferenceNodeOptions,
  requirements: readonly Requirement[],
  documents: Documents,
  overrides: Partial<TargetConfig> = {},
  after?: AfterRun,
): Promise<ConformanceResults> {
  const node = await startReferenceNode(options);
  try {
    const results = await runConformance({ target: referenceNodeTarget(node, overrides), documents, requirements, preflight: false });
    await after?.(node, results.requirements);
    return results;
  } finally {
    await node.close();
  }
}

export async function runClean(requirements: readonly Requirement[], documents: Documents): Promise<CleanOutcome> {
  const { requirements: results, exercised } = await conformOnReferenceNode({}, requirements, documents);
  return {
    ran: results.length,
    notPassed: results.filter((r) => r.status !== 'passed').map((r) => ({ id: r.id, status: r.status, reason: r.reason })),
    exercised,
  };
}

export async function runFault(
  fault: FaultDefinition,
  requirements: readonly Requirement[],
  documents: Documents,
  scope: DetectionScope = 'interface',
  overrides: Partial<TargetConfig> = {},
  after?: AfterRun,
): Promise<FaultOutcome> {
  const own = requirements.filter((r) => r.interface === fault.interface);
  const expectation = expectedFailures(fault, requirements);
  const selected =
    scope === 'all' ? requirements : scope === 'operation' ? touchedBy(fault, expectation, own) : scope === 'sentence' ? citing(fault, expectation, own) : own;
  const results = await runOnReferenceNode({ faults: [fault.name], ...fault.node }, selected, documents, overrides, after);
  // The quickest scope runs no WebSocket twin of an HTTP fault's rules (see citing): what they must show is the
  // other scopes' to judge; what ran is judged as ever.
  const ran = new Set(selected.map((r) => r.id));
  const judged = scope === 'sentence' ? { ...expectation, exact: expectation.exact.filter((id) => ran.has(id)) } : expectation;
  const failed = results.filter((r) => r.status === 'failed').sort((a, b) => a.id.localeCompare(b.id));
  return {
    fault: fault.name,
    interface: fault.interface,
    family: fault.family,
    expected: expectationLabels(expectation),
    failed: failed.map((r) => r.id),
    incidental: failed.map((r) => r.id).filter((id) => expectation.allowed.includes(id) && !expectation.exact.includes(id)),
    skipped: results
      .filter((r) => r.status === 'skipped')
      .map((r) => r.id)
      .sort(),
    unsupported: results
      .filter((r) => r.status === 'unsupported')
      .map((r) => r.id)
      .sort(),
    reasons: Object.fromEntries(failed.map((r) => [r.id, r.reason ?? ''])),
    withoutEvidence: failed.filter((r) => !(r.evidence?.exchange && /^(curl|websocat) /.test(reproduce(r.evidence.exchange)))).map((r) => r.id),
    ...judgeDetection(
      judged,
      failed.map((r) => r.id),
    ),
  };
}

/** The requirements of `own` that call an operation the fault's expectation touches, or all of them (see DetectionScope). */
function touchedBy(fault: FaultDefinition, e: Expectation, own: readonly Requirement[]): readonly Requirement[] {
  if (fault.generic && !fault.generic.operations) return own;
  const named = new Set([...e.exact, ...e.groups.flatMap((g) => g.ids)]);
  const operations = new Set([
    ...own.filter((r) => named.has(r.id)).flatMap((r) => r.operations),
    ...(fault.generic?.operations ?? []),
    ...(fault.refuses ? [fault.refuses] : []),
  ]);
  return own.filter((r) => named.has(r.id) || r.operations.some((op) => operations.has(op)));
}

/** The requirements of `own` the fault's expectation names or that cite a sentence it breaks, or all of them (see DetectionScope). */
function citing(fault: FaultDefinition, e: Expectation, own: readonly Requirement[]): readonly Requirement[] {
  // A break the generic checks show is judged on the answers every check of the operation received.
  if (fault.generic) return touchedBy(fault, e, own);
  const named = new Set([...e.exact, ...e.groups.flatMap((g) => g.ids)]);
  const broken = new Set(fault.cites);
  // A requirement reading the WebSocket channels runs where the fault names it, and a WebSocket twin only for a
  // fault of the channels: a twin is its rule's check, which the fault's HTTP rule already shows failing here; the
  // interface scope (npm run detection) shows the twins fail too, and that the others hold on the channel.
  const channelFault = fault.family === 'websocket';
  return own.filter((r) => (named.has(r.id) && (r.transport !== 'websocket' || channelFault)) || (!r.channels?.length && r.cites.some((c) => broken.has(c))));
}

/** A fault is detected when a requirement it names fails; it matches when exactly the named ones fail. */
export const isDetected = (o: FaultOutcome) => o.failed.length > o.unexpected.length;
export const matchesExpectation = (o: FaultOutcome) =>
  o.unexpected.length === 0 && o.missed.length === 0 && o.unmatchedPatterns.length === 0 && o.failed.length > 0;

/**
 * A node showing a real-world deviation: no MUST requirement may fail (a false alarm on the nodes users run),
 * and exactly the SHOULD requirements it names (its findings) report it, which proves those.
 */
export interface DeviationOutcome {
  deviation: string;
  interface: InterfaceName;
  findings: string[];
  /** Requirements that failed (sorted). */
  failed: string[];
  /** MUST requirements that did not end as the deviation says (passed, or unsupported/skipped where it names them). */
  mustWrong: string[];
  /** Exactly the findings failed, and no MUST requirement went wrong. */
  ok: boolean;
}

/** The requirements a deviation's proof runs: those that call an operation whose answers it changes, and its findings. */
export const deviationScope = (d: DeviationDefinition, all: readonly Requirement[]) =>
  all.filter((r) => r.interface === d.interface && (!d.operations || r.operations.some((op) => d.operations!.includes(op)) || d.findings.includes(r.id)));

export async function runDeviation(
  d: DeviationDefinition,
  all: readonly Requirement[],
  documents: Documents,
  overrides: Partial<TargetConfig> = {},
): Promise<DeviationOutcome> {
  const results = await runOnReferenceNode({ faults: [d.name] }, deviationScope(d, all), documents, overrides);
  const expected = (id: string) => (d.unsupported?.includes(id) ? 'unsupported' : d.skipped?.includes(id) ? 'skipped' : 'passed');
  const failed = results
    .filter((r) => r.status === 'failed')
    .map((r) => r.id)
    .sort();
  const mustWrong = results.filter((r) => r.level === 'MUST' && r.status !== expected(r.id)).map((r) => `${r.id} ${r.status}: ${r.reason ?? ''}`);
  const findings = [...d.findings].sort();
  return {
    deviation: d.name,
    interface: d.interface,
    findings,
    failed,
    mustWrong,
    ok: mustWrong.length === 0 && failed.join() === findings.join(),
  };
}

export interface MatrixRun {
  scope: DetectionScope;
  requirements: RequirementInfo[];
  clean: CleanOutcome;
  outcomes: FaultOutcome[];
  deviations: DeviationOutcome[];
}

export async function runDetection(
  options: {
    scope?: DetectionScope;
    faults?: readonly FaultDefinition[];
    /** Cases per property check (default: the run's, DEFAULT_BOUNDS.runs). */
    runs?: number;
    /** Default: the whole deviation catalog. */
    deviations?: readonly DeviationDefinition[];
    concurrency?: number;
    onFault?: (o: FaultOutcome, done: number, total: number) => void;
  } = {},
): Promise<MatrixRun> {
  const scope = options.scope ?? 'interface';
  const documents = await builtinDocuments();
  const all = catalog(documents.specs, documents.builtinIds);
  const clean = await runClean(all, documents);
  const faults = options.faults ?? FAULT_CATALOG;
  let done = 0;
  const outcomes = await inPool(faults, options.concurrency ?? 4, async (f) => {
    const o = await runFault(f, all, documents, scope, options.runs ? { runs: options.runs } : {});
    options.onFault?.(o, ++done, faults.length);
    return o;
  });
  const deviations = await inPool(options.deviations ?? DEVIATION_CATALOG, options.concurrency ?? 4, (d) => runDeviation(d, all, documents));
  return { scope, requirements: all.map(requirementInfo), clean, outcomes, deviations };
}
