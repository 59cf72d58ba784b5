// The discovery phase: before the checks, read-only unless mutations are allowed, each source bounded in
// pages and time. Given fixtures win; every fixture keeps its origin; every source reports what it sent,
// how long it took and what it found or why not. A source the target does not serve is a line of the
// report, never a stop; only the run's request budget ends discovery early.
import type { InterfaceName } from '../../common/vocabulary.ts';
import type { Client } from '../transport/http.ts';
import { BudgetExhausted } from '../transport/limits.ts';
import type { FixtureName, Fixtures } from '../fixtures.ts';
import { Findings } from './findings.ts';
import type { FixtureOrigin } from './provenance.ts';
import { DISCOVERY_BOUNDS, SourceReader, SourceStopped, type Shortfall, type SourceBounds } from './reader.ts';
import type { DiscoveryEnv, Source } from './source.ts';

export type SourceOutcome = 'found' | 'nothing new' | Shortfall | 'not needed' | 'needs mutations' | 'interface not given' | 'budget used up';

export interface SourceReport {
  source: string;
  interface: InterfaceName;
  what: string;
  mutates: boolean;
  outcome: SourceOutcome;
  found: FixtureName[];
  requests: number;
  ms: number;
  detail?: string;
}

export interface DiscoveryInput {
  /** The interfaces' sources, in the order they run (interfaces/discovery-sources.ts). */
  sources: readonly Source[];
  given: Fixtures;
  /** Where a given fixture came from (default: the fixture file). */
  givenFrom?: (name: FixtureName) => string;
  /** The clients of the run (observed, so that their answers are judged). */
  clients: Partial<Record<InterfaceName, Client>>;
  allowMutations: boolean;
  env: DiscoveryEnv;
  bounds?: SourceBounds;
  /** Told of each source's report as it ends. */
  onSource?(report: SourceReport): void;
}

export interface DiscoveryResult {
  fixtures: Fixtures;
  origins: Partial<Record<FixtureName, FixtureOrigin>>;
  sources: SourceReport[];
  bounds: SourceBounds;
}

export async function discover(input: DiscoveryInput): Promise<DiscoveryResult> {
  const bounds = input.bounds ?? DISCOVERY_BOUNDS;
  const f = new Findings(input.given, input.givenFrom ?? (() => 'the fixture file'));
  const sources: SourceReport[] = [];
  let budgetGone = false;
  for (const s of input.sources) {
    const base = { source: s.id, interface: s.interface, what: s.what, mutates: s.mutates === true, found: [] as FixtureName[], requests: 0, ms: 0 };
    const client = input.clients[s.interface];
    const wanted = s.provides.filter((n) => f.missing(n));
    let report: SourceReport;
    if (wanted.length === 0) report = { ...base, outcome: 'not needed', detail: 'what it provides is given or found' };
    else if (!client) report = { ...base, outcome: 'interface not given' };
    else if (s.mutates && !input.allowMutations) report = { ...base, outcome: 'needs mutations', detail: `would look for ${wanted.join(', ')}` };
    else if (budgetGone) report = { ...base, outcome: 'budget used up' };
    else {
      f.found = [];
      f.learned = [];
      const r = new SourceReader(client, { ...bounds, pages: s.pages ?? bounds.pages });
      try {
        await s.run(r, f, input.env);
      } catch (e) {
        if (e instanceof BudgetExhausted) budgetGone = true;
        else if (!(e instanceof SourceStopped)) throw e;
      }
      const learned = f.learned.length > 0 ? `learned ${f.learned.join(', ')}` : undefined;
      const outcome: SourceOutcome = budgetGone ? 'budget used up' : f.found.length > 0 || learned ? 'found' : (r.shortfall?.kind ?? 'nothing new');
      const detail = [learned, r.shortfall?.detail].filter(Boolean).join('; ') || undefined;
      report = { ...base, outcome, found: [...f.found], requests: r.requests, ms: r.elapsedMs, ...(detail ? { detail } : {}) };
    }
    sources.push(report);
    input.onSource?.(report);
  }
  return { fixtures: f.fixtures, origins: f.origins, sources, bounds };
}

/** One line per source for the console and the notes: "scan-dso: found svParties (1 request, 12 ms)". */
export function describeSource(s: SourceReport): string {
  const figures = s.requests > 0 ? ` (${s.requests} request${s.requests === 1 ? '' : 's'}, ${s.ms} ms)` : '';
  const what = s.outcome === 'found' ? `found ${s.found.join(', ') || 'no fixture'}` : s.outcome;
  return `${s.source}: ${what}${figures}${s.detail ? `: ${s.detail}` : ''}`;
}
