// One result model for every output: report.json, junit.xml (and later HTML and Allure) are pure
// functions of it.
import type { SourceReport } from '../engine/discovery/discover.ts';
import type { FixtureRow } from '../engine/discovery/provenance.ts';
import type { SourceBounds } from '../engine/discovery/reader.ts';
import type { RequirementResult } from '../engine/engine.ts';
import type { SpecCheckResult } from '../runner/documents.ts';
import { releaseNumbers } from '../common/releases.ts';
import type { WaiverNotes } from './waivers.ts';
import type { HarLink } from './har.ts';
import { operationsConfirmed, type ChannelCoverage, type OperationCoverage } from './coverage.ts';
import { judge, type Judgement, type RunMode, type Verdict } from './verdict.ts';

export interface Counts {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Of `skipped`, those that follow from a failed requirement (skipKind `depends`): not missing data. */
  dependent: number;
  /** The target does not serve an operation the requirement needs: not judged, not failed. */
  unsupported: number;
  /** The rule does not apply to the release the node states: not judged, and nothing left unjudged. */
  notApplicable: number;
  waived: number;
  /** The suite's own check failed: nothing judged. */
  error: number;
}

export interface ConformanceReport {
  tool: { name: 'cn-conformance'; version: string };
  startedAt: string;
  finishedAt: string;
  targets: Record<string, string>;
  /** conformant, incomplete or not-conformant: see reporting/verdict.ts. */
  verdict: Verdict;
  /** standard, or certify (--certify: every MUST requirement of the targeted interfaces must be judged). */
  mode: RunMode;
  /** How the verdict came about: selected and judged requirements, reasons, warnings. */
  judgement: Omit<Judgement, 'verdict' | 'mode'>;
  /** The effective configuration of the run, secrets redacted. */
  config: Record<string, unknown>;
  specs: Array<{
    name: string;
    source: string;
    sha256?: string;
    openapi?: string;
    /** A channel document's AsyncAPI version, and its channels. */
    asyncapi?: string;
    channels?: number;
    documentVersion?: string;
    operations: number;
    exampleFailures: string[];
    loadError?: string;
    warnings?: string[];
  }>;
  seed: number;
  /** HTTP requests of the run that the targets answered (absent in reports of older versions). */
  requestsSent?: number;
  summary: Counts & { byInterface: Record<string, Counts>; byLevel: Record<string, Counts> };
  /** One line per fixture discovery source: what it found, or why not. */
  fixtureNotes: string[];
  /** Every fixture of the run and where it came from (fixture file, environment, or endpoint and JSON pointer). */
  fixtures?: FixtureRow[];
  /** What discovery did per source (requests, time, outcome) and its bounds; absent when it did not run. */
  discovery?: { bounds: SourceBounds; sources: SourceReport[] };
  /** The release each node states (the ledger's GET /v2/version, the scan's and the validator's GET /version), or why none is known. */
  releases?: ReportRelease[];
  /** Per interface, the document and the node's release its answers were judged by (absent in reports of older versions). */
  judgedBy?: JudgedBy[];
  /** What the target's release lines make not applicable (GET /v2/version), and what its answers lacked for it. */
  applicability: string[];
  /** Waivers that expired, no longer apply (the requirement passes) or name nothing that ran. */
  waiverNotes: WaiverNotes;
  /** Per operation of each loaded document: what was checked, statuses seen vs documented. */
  coverage: OperationCoverage[];
  /** Per WebSocket channel: the requirements reading it and the upgrades seen (absent in reports of older versions). */
  channels?: ChannelCoverage[];
  requirements: RequirementResult[];
  /** The HAR file of the run's exchanges (--har): where it is, relative to the report, and where each result's exchanges are in it. */
  exchanges?: ReportExchanges;
}

export interface ReportRelease {
  interface: string;
  /** The release the node states; absent when it states none (then every rule applies). */
  version?: string;
  /** The request that asked (method and URL). */
  request: string;
  /** Why no release is known: the answer's status, or that none came. */
  unstated?: string;
  /** Operations the description dates after the stated release ("name (since)"). */
  introducedAfter?: string[];
}

/** "ledger 3.5.14, scan 0.7.5, wallet not stated (answered 404)": the releases in one line. */
export function releasesLine(releases: readonly ReportRelease[]): string {
  return releases
    .map(
      (r) =>
        `${r.interface} ${r.version ?? `not stated (${r.unstated})`}${r.introducedAfter ? ` (the description dates after it: ${r.introducedAfter.join(', ')})` : ''}`,
    )
    .join(', ');
}

export interface ReportExchanges {
  /** The HAR file, relative to the report directory. */
  har: string;
  /** Entries in the file (every request of the run that was sent). */
  entries: number;
  /** By requirement id, for every result that is not a pass: indices of log.entries. */
  links: Record<string, HarLink>;
}

/** Which document, and which release of the node, judged an interface's answers. */
export interface JudgedBy {
  interface: string;
  /** The built-in document, or the source of the one given with --spec. */
  document: string;
  /** The release (line) the document is of: the description's for a built-in ledger document, else its info.version. */
  documentRelease?: string;
  /** The release the node states, when it states one. */
  nodeRelease?: string;
  /** Set when the document's release line is not the node's: its answers are judged by the document chosen. */
  warning?: string;
}

/** The description's ledger document is of release line 3.5 (X.versioning.1); the Splice documents name none. */
const BUILTIN_RELEASE: Record<string, string> = { ledger: '3.5' };

const line = (release: string) => releaseNumbers(release)?.slice(0, 2).join('.');

export function judgedBy(checks: readonly SpecCheckResult[], releases: readonly ReportRelease[]): JudgedBy[] {
  return checks
    .filter((c) => !c.loadError && releases.some((r) => r.interface === c.name))
    .map((c) => {
      const documentRelease = c.builtin ? BUILTIN_RELEASE[c.name] : c.documentVersion;
      const nodeRelease = releases.find((r) => r.interface === c.name)?.version;
      const differ = c.name === 'ledger' && documentRelease && nodeRelease && line(documentRelease) !== line(nodeRelease);
      return {
        interface: c.name,
        document: c.builtin ? `the built-in ${c.name} document` : c.source,
        ...(documentRelease ? { documentRelease } : {}),
        ...(nodeRelease ? { nodeRelease } : {}),
        ...(differ
          ? {
              warning: `the ${c.name} document is of release line ${line(documentRelease)}${line(documentRelease) === documentRelease ? '' : ` (${documentRelease})`} and the node states ${nodeRelease}: its answers were judged by the document chosen`,
            }
          : {}),
      };
    });
}

export function count(results: readonly RequirementResult[]): Counts {
  return {
    total: results.length,
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    skipped: results.filter((r) => r.status === 'skipped').length,
    dependent: results.filter((r) => r.status === 'skipped' && r.skipKind === 'depends').length,
    unsupported: results.filter((r) => r.status === 'unsupported').length,
    notApplicable: results.filter((r) => r.status === 'not-applicable').length,
    waived: results.filter((r) => r.status === 'waived').length,
    error: results.filter((r) => r.status === 'error').length,
  };
}

export function buildReport(input: {
  version: string;
  startedAt: Date;
  finishedAt: Date;
  targets: Record<string, string>;
  config: Record<string, unknown>;
  specChecks: SpecCheckResult[];
  seed: number;
  fixtureNotes: string[];
  fixtures?: FixtureRow[];
  discovery?: { bounds: SourceBounds; sources: SourceReport[] };
  releases?: ReportRelease[];
  applicability?: string[];
  waiverNotes?: WaiverNotes;
  coverage?: OperationCoverage[];
  channels?: ChannelCoverage[];
  requestsSent?: number;
  requirements: RequirementResult[];
  /** Default standard. */
  mode?: RunMode;
  /** Under certify: the MUST requirements of the targeted interfaces (see judge). */
  certifyScope?: ReadonlyArray<{ id: string }>;
  /** The documents (by name) whose operations count as confirmed or not: those of the targeted interfaces (default: every one in `coverage`). */
  operationScope?: readonly string[];
  exchanges?: ReportExchanges;
}): ConformanceReport {
  const rows = (input.coverage ?? []).filter((r) => !input.operationScope || input.operationScope.includes(r.spec));
  const { verdict, mode, ...judgement } = judge(
    input.requirements,
    input.mode ?? 'standard',
    input.certifyScope,
    rows.length > 0 ? operationsConfirmed(rows) : undefined,
  );
  const group = (key: (r: RequirementResult) => string) => {
    const out: Record<string, Counts> = {};
    for (const k of [...new Set(input.requirements.map(key))].sort()) out[k] = count(input.requirements.filter((r) => key(r) === k));
    return out;
  };
  return {
    tool: { name: 'cn-conformance', version: input.version },
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    targets: input.targets,
    verdict,
    mode,
    judgement,
    config: input.config,
    specs: input.specChecks.map((s) => ({
      name: s.name,
      source: s.source,
      sha256: s.sha256,
      openapi: s.openapi,
      ...(s.asyncapi ? { asyncapi: s.asyncapi, channels: s.channels ?? 0 } : {}),
      ...(s.documentVersion ? { documentVersion: s.documentVersion } : {}),
      operations: s.operations,
      exampleFailures: s.failures,
      ...(s.warnings.length > 0 ? { warnings: s.warnings } : {}),
      loadError: s.loadError,
    })),
    seed: input.seed,
    requestsSent: input.requestsSent,
    summary: { ...count(input.requirements), byInterface: group((r) => r.interface), byLevel: group((r) => r.level) },
    fixtureNotes: input.fixtureNotes,
    fixtures: input.fixtures ?? [],
    ...(input.discovery ? { discovery: input.discovery } : {}),
    ...(input.releases ? { releases: input.releases, judgedBy: judgedBy(input.specChecks, input.releases) } : {}),
    applicability: input.applicability ?? [],
    waiverNotes: input.waiverNotes ?? { expired: [], stale: [], unknown: [] },
    coverage: input.coverage ?? [],
    ...(input.channels ? { channels: input.channels } : {}),
    requirements: input.requirements,
    ...(input.exchanges ? { exchanges: input.exchanges } : {}),
  };
}
