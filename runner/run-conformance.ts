// The run as a library call: requirements against a target, with the target's documents compiled once.
// No console and no files: what happens is told to the observer, and everything the reports need is
// returned. The command line, the detection matrix, the benchmark and the tests all run through here.
import { describeSource, discover, type SourceReport } from '../engine/discovery/discover.ts';
import { fixtureRows, type FixtureRow } from '../engine/discovery/provenance.ts';
import type { SourceBounds } from '../engine/discovery/reader.ts';
import type { FixtureName } from '../engine/fixtures.ts';
import type { ContextParts } from '../engine/check-context.ts';
import type { InterfaceName, Requirement } from '../engine/model.ts';
import { runAll, skipReason, type RequirementResult } from '../engine/engine.ts';
import { contextParts, originFor, type TargetConfig } from '../engine/target.ts';
import { checkCredentials, obtainTokens, type CredentialSources } from './credentials-preflight.ts';
import type { Documents } from './documents.ts';
import { ensureReachable } from './reachability.ts';
import { type NodeRelease, readNodeVersions, releaseOf, statedReleases, VERSION_PATHS, type VersionAnswer } from './node-versions.ts';
import { atReleasePaths } from './release-paths.ts';
import { ExchangeRecord, type RecordedExchange } from '../engine/exchange-record.ts';
import { releaseLinePolicies } from '../engine/answers/release-policy.ts';
import { AnswerLog } from '../engine/answers/answer-log.ts';
import { projectAnswers } from '../engine/answers/answer-projection.ts';
import { exercisedVariants, type Exercised } from '../engine/answers/variant-coverage.ts';
import { sharing } from '../engine/run-cache.ts';
import type { Exchange } from '../engine/transport/http.ts';
import { ledgerReleaseLine } from '../interfaces/ledger/release-line.ts';
import { DISCOVERY_SOURCES } from '../interfaces/discovery-sources.ts';

export interface RunObserver {
  /** What a discovery source found or why not, one source at a time. */
  fixtureNote?(note: string): void;
  /** The preflight passed; the requirements start. */
  started?(requirements: readonly Requirement[]): void;
  /** A requirement starts (several may be in flight, see TargetConfig.concurrency). */
  began?(requirement: Requirement): void;
  result?(result: RequirementResult): void;
  /** A secret the run obtained itself (an OAuth2 access token), before anything carries it: outputs must never show it. */
  secret?(value: string): void;
}

export interface ConformanceRun {
  target: TargetConfig;
  documents: Documents;
  /** The selected requirements (see selection.ts), in the order they run. */
  requirements: readonly Requirement[];
  observer?: RunObserver;
  /** Where each credential came from, for the preflight's messages. */
  sources?: CredentialSources;
  /**
   * Reachability and credential preflight, then fixture discovery (default). The detection matrix turns it
   * off: it knows its node's fixtures, and a faulty node's refusal is what it wants judged, not a stop.
   */
  preflight?: boolean;
  /** Fixture discovery after the preflight (default true; `--no-discovery` turns it off). */
  discovery?: boolean;
  /** Names what the run creates on the target (default `s<seed>`; the command line adds its start time). */
  runId?: string;
  /** Where each given fixture came from, for the fixture table (default: the fixture file). */
  fixtureOrigins?: Partial<Record<FixtureName, string>>;
  /** Keep every exchange of the run with who sent it (ConformanceResults.exchanges, for a HAR file). */
  recordExchanges?: boolean;
}

/** One request answered during the run (for coverage). */
export interface SeenRequest {
  method: string;
  path: string;
  status: number;
}

export interface ConformanceResults {
  requirements: RequirementResult[];
  /** One line per discovery source (what it found, or why not). */
  fixtureNotes: string[];
  /** Every fixture of the run with where it came from. */
  fixtures: FixtureRow[];
  /** What discovery did, source by source, and its bounds (absent when it did not run). */
  discovery?: { bounds: SourceBounds; sources: SourceReport[] };
  /** What the target's release lines make not applicable, and which such properties its answers lacked. */
  applicability: string[];
  seen: SeenRequest[];
  /** The paths the interfaces' URLs put before each operation path, for coverage. */
  basePaths: string[];
  /** Which variants of its operations each requirement exercised (engine/answers/variant-coverage.ts). */
  exercised: Exercised;
  /** Every exchange of the run in the order they ended, with who sent it (when recordExchanges). */
  exchanges?: readonly RecordedExchange[];
  /** What each interface answered when asked for its version, as it came (a bundle's manifest keeps them). */
  versions: VersionAnswer[];
  /** The release each interface states, or why none is known (the report's `releases`). */
  releases: NodeRelease[];
}

export async function runConformance(run: ConformanceRun): Promise<ConformanceResults> {
  const { target } = run;
  const specs = run.documents.specs as Partial<Record<InterfaceName, (typeof run.documents.specs)[string]>>;
  const record = run.recordExchanges ? new ExchangeRecord() : undefined;
  /** A step of the run other than a requirement's check: its exchanges are on record as its. */
  const step = <T>(who: string, work: () => Promise<T>) => (record ? record.as({ step: who }, work) : work());
  const reached = contextParts(target, specs, run.runId, {}, { record, onSecret: (value) => run.observer?.secret?.(value) });
  if (run.preflight !== false) {
    await step('the reachability preflight', () => ensureReachable(reached.clients, target));
    await step('the token requests', () => obtainTokens(reached.clients));
    await step('the credentials preflight', () => checkCredentials(reached.clients, run.sources ?? {}));
  }
  // The target's release line sets the policy every answer is judged under, discovery's and its own included.
  const read: Array<{ x: Exchange; path: string }> = [];
  const ledger = reached.clients.ledger?.observed((x, path) => read.push({ x, path }));
  const line = ledger ? await step('the release-line read', () => ledgerReleaseLine({ ledger, shared: sharing(reached.cache) })) : undefined;
  const { policies, notes } = releaseLinePolicies({ ledger: line });
  // What each node says of its release, for the report (and a bundle's manifest).
  const lineRead = read.find((r) => r.path === VERSION_PATHS.ledger)?.x;
  const versions = await step('the version reads', () => readNodeVersions(reached.clients, lineRead ? { ledger: lineRead } : {}));
  const releases = versions.map(releaseOf);
  const stated = statedReleases(releases);
  const moved = atReleasePaths(reached.clients, specs, stated);
  const judged: ContextParts = {
    ...reached,
    clients: moved.clients,
    releases: stated,
    answers: new AnswerLog(specs, policies),
    channelDocuments: run.documents.channels,
  };
  for (const { x, path } of read) judged.answers.observe('ledger', 'the release-line read', x, path);
  const found =
    run.preflight !== false && run.discovery !== false
      ? await step('fixture discovery', () => discoverFixtures(judged, run, target.allowMutations))
      : undefined;
  const parts: ContextParts = found ? { ...judged, fixtures: found.fixtures } : judged;
  const fixtureNotes = found?.sources.filter((s) => s.outcome !== 'not needed').map(describeSource) ?? [];
  run.observer?.started?.(run.requirements);
  const requirements = await runAll(run.requirements, parts, {
    concurrency: target.concurrency,
    onStart: (r) => run.observer?.began?.(r),
    onResult: (r) => run.observer?.result?.(r),
  });
  // Which properties were missing does not depend on who received them first: no order is needed.
  const answered = projectAnswers(parts.answers.observations(), { ids: [], askedBy: () => new Map() });
  const applicability = [
    ...notes,
    ...moved.notes,
    ...(['ledger', 'wallet', 'scan'] as const)
      .map((i) => [i, answered.notApplicableFor(i)] as const)
      .filter(([, missing]) => missing.length > 0)
      .map(([i, missing]) => `${i}: answers lacked ${missing.join(', ')}, not applicable to the target's release line`),
  ];
  return {
    requirements,
    fixtureNotes,
    fixtures: fixtureRows(parts.fixtures, found?.origins ?? givenOrigins(target.fixtures, run.fixtureOrigins)),
    discovery: found && { bounds: found.bounds, sources: found.sources },
    applicability,
    seen: parts.seen ?? [],
    basePaths: basePaths(target),
    exercised: exercisedVariants(parts.answers.observations(), (key) => parts.cache.askedBy(key)),
    ...(record ? { exchanges: record.entries() } : {}),
    versions,
    releases,
  };
}

/**
 * The missing fixtures of `parts`, discovered from the target (see engine/discovery). Its answers are judged like
 * any check's. `allowMutations` false keeps it to reads (what `plan` uses).
 */
export async function discoverFixtures(parts: ContextParts, run: Pick<ConformanceRun, 'target' | 'observer' | 'fixtureOrigins'>, allowMutations: boolean) {
  const { target } = run;
  const observed = (i: 'ledger' | 'wallet' | 'scan') => parts.clients[i]?.observed((x, path) => parts.answers.observe(i, 'fixture discovery', x, path));
  return discover({
    sources: DISCOVERY_SOURCES,
    given: target.fixtures,
    givenFrom: (name) => run.fixtureOrigins?.[name] ?? 'the fixture file',
    clients: { ledger: observed('ledger'), wallet: observed('wallet'), scan: observed('scan') },
    allowMutations,
    env: {
      runId: parts.runId,
      // The clients' bearers: a configured token, or the OAuth2 token the preflight obtained.
      ledgerBearer: parts.clients.ledger?.config.credentials.bearer,
      walletBearer: parts.clients.wallet?.config.credentials.bearer,
      walletVariable: parts.clients.wallet?.config.credentialVariables?.bearer,
      now: () => new Date(),
    },
    onSource: (s) => {
      if (s.outcome !== 'not needed') run.observer?.fixtureNote?.(describeSource(s));
    },
  });
}

/** The command line's run id: its seed and start, e.g. "s1-20261126t051500" (tracking ids start "cnc-<run id>-"). */
export const runId = (seed: number, at: Date) => `s${seed}-${at.toISOString().slice(0, 19).replace(/[-:]/g, '').toLowerCase()}`;

const givenOrigins = (fixtures: TargetConfig['fixtures'], from: ConformanceRun['fixtureOrigins']) =>
  Object.fromEntries(Object.keys(fixtures).map((n) => [n, { kind: 'given' as const, from: from?.[n as FixtureName] ?? 'the fixture file' }]));

const basePaths = (target: TargetConfig) => [
  ...new Set((['ledger', 'wallet', 'scan'] as const).filter((n) => target[n]).map((n) => new URL(originFor(n, target[n]!.url)).pathname.replace(/\/$/, ''))),
];

export interface ConformancePlan {
  runs: Requirement[];
  skips: Array<{ requirement: Requirement; reason: string }>;
  /** Operations the requirements that run would call: "METHOD /path" by operationId, sorted by path. */
  operations: Array<{ operationId: string; call: string }>;
}

/** What runConformance would do with the same input, without a single request. */
export function planConformance(run: Pick<ConformanceRun, 'target' | 'documents' | 'requirements'>): ConformancePlan {
  const parts = contextParts(run.target, run.documents.specs as Partial<Record<InterfaceName, (typeof run.documents.specs)[string]>>);
  const runs: Requirement[] = [];
  const skips: ConformancePlan['skips'] = [];
  for (const r of run.requirements) {
    const reason = skipReason(r, parts);
    if (reason) skips.push({ requirement: r, reason });
    else runs.push(r);
  }
  const operations = new Map<string, string>();
  for (const r of runs) {
    for (const id of r.operations) {
      const op = Object.values(run.documents.specs)
        .map((s) => s.catalog.byId.get(id))
        .find(Boolean);
      if (op) operations.set(id, `${op.method.toUpperCase()} ${op.fullPath}`);
    }
  }
  return { runs, skips, operations: [...operations].sort((a, b) => a[1].localeCompare(b[1])).map(([operationId, call]) => ({ operationId, call })) };
}

/** MUST requirements of the interfaces the target has: what --certify requires judged. */
export const certifyScope = (all: readonly Requirement[], target: TargetConfig) => all.filter((r) => r.level === 'MUST' && target[r.interface]);
