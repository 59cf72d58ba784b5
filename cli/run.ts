// `cn-conformance run`: spec-level checks, then every selected requirement against the targets (the
// embedded reference node when no URL is given).
import { readFileSync } from 'node:fs';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compileSpec, SpecLoadError, type CompiledSpec } from '../generators/index.ts';
import { referenceNodeTarget } from '../suites/reference-target.ts';
import { startReferenceNode, type RunningReferenceNode } from '../reference-node/index.ts';
import { catalog } from '../suites/catalog.ts';
import { discoverFixtures, type Fixtures } from '../suites/fixtures.ts';
import type { InterfaceName } from '../suites/model.ts';
import { runAll, select, type RequirementResult } from '../suites/runner.ts';
import { contextParts, DEFAULT_BOUNDS, originFor, type TargetConfig } from '../suites/target.ts';
import { buildReport } from '../reporting/model.ts';
import { renderJunit } from '../reporting/junit.ts';
import { renderHtml } from '../reporting/html.ts';
import { coverage, renderCoverageMarkdown, type OperationCoverage } from '../reporting/coverage.ts';
import { applyWaivers, parseWaivers, WaiverFileError, type Waiver, type WaiverNotes } from '../reporting/waivers.ts';
import { writeAllureResults } from '../reporting/allure-results.ts';
import { checkSpec, type SpecCheckResult } from './spec-check.ts';
import { Progress } from './progress.ts';
import { ensureReachable } from './reachability.ts';
import { secret } from './secrets.ts';
import { selectSpecs, UsageError } from './spec-options.ts';

export interface RunOptions {
  spec: string[];
  reportDir: string;
  config?: string;
  ledgerUrl?: string;
  walletUrl?: string;
  scanUrl?: string;
  ledgerToken?: string;
  ledgerTokenFile?: string;
  ledgerApiKey?: string;
  walletToken?: string;
  walletTokenFile?: string;
  allowMutations?: boolean;
  runs: string;
  seed: string;
  timeoutMs: string;
  level?: 'must' | 'should';
  waivers?: string;
  maxRequests: string;
  /** Optional for programmatic callers (default DEFAULT_BOUNDS.maxPages). */
  maxPages?: string;
  rate?: string;
  only: string[];
  skip: string[];
  /** Also write allure-results/ (the CLI's default; programmatic callers opt in). */
  allure?: boolean;
}

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The run's effective settings for the report; credentials appear only as "***". */
function effectiveConfig(opts: RunOptions, target: TargetConfig): Record<string, unknown> {
  const redacted = (v: unknown) => (v ? '***' : undefined);
  return {
    ledgerUrl: target.ledger?.url, walletUrl: target.wallet?.url, scanUrl: target.scan?.url,
    ledgerToken: redacted(target.ledger?.credentials?.bearer), ledgerApiKey: redacted(target.ledger?.credentials?.apiKey),
    walletToken: redacted(target.wallet?.credentials?.bearer),
    specs: opts.spec, config: opts.config, allowMutations: target.allowMutations, seed: target.seed, runs: target.runs,
    timeoutMs: target.timeoutMs, maxRequests: target.maxRequests, rate: target.rate, maxPages: target.maxPages, level: opts.level, only: opts.only, skip: opts.skip,
  };
}

export interface RunResult {
  specChecks: SpecCheckResult[];
  requirements: RequirementResult[];
  targets: Record<string, string>;
  fixtureNotes: string[];
}

function positive(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got "${text}"`);
  return n;
}

function url(flag: string, value: string): string {
  try {
    const u = new URL(value);
    if (!/^https?:$/.test(u.protocol)) throw new Error('not http(s)');
    return value;
  } catch {
    throw new UsageError(`${flag} is not an http(s) URL: "${value}"`);
  }
}

async function readWaivers(path: string | undefined): Promise<Waiver[]> {
  if (!path) return [];
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read the waivers file ${path}: ${(e as Error).message}`);
  }
  try {
    return parseWaivers(text, path);
  } catch (e) {
    if (e instanceof WaiverFileError) throw new UsageError(e.message);
    throw e;
  }
}

export async function configFixtures(path: string | undefined): Promise<Fixtures> {
  if (!path) return {};
  let parsed: { fixtures?: Fixtures };
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the config file ${path}: ${(e as Error).message}`);
  }
  return parsed.fixtures ?? {};
}

export async function loadSpecs(overrides: string[]): Promise<{ specs: Record<string, CompiledSpec>; checks: SpecCheckResult[] }> {
  const specs: Record<string, CompiledSpec> = {};
  const checks: SpecCheckResult[] = [];
  for (const [name, source] of selectSpecs(overrides)) {
    const check = await checkSpec(name, source);
    checks.push(check);
    if (check.loadError) continue;
    try {
      specs[name] = await compileSpec(source, { name });
    } catch (e) {
      if (!(e instanceof SpecLoadError)) throw e;
    }
  }
  return { specs, checks };
}

/** The target of a run: the embedded reference node when no URL is given, else the given URLs. */
export async function buildTarget(opts: RunOptions, bounds: ReturnType<typeof runBounds>, given: Fixtures): Promise<{ node?: RunningReferenceNode; target: TargetConfig }> {
  const external = Boolean(opts.ledgerUrl || opts.walletUrl || opts.scanUrl);
  let node: RunningReferenceNode | undefined;
  let target: TargetConfig;
  if (!external) {
    node = await startReferenceNode({ seed: bounds.seed });
    // The embedded node is disposable: everything runs, including checks that change its state.
    target = referenceNodeTarget(node, bounds);
    target.fixtures = { ...target.fixtures, ...given };
  } else {
    const ledgerBearer = secret({ value: opts.ledgerToken, name: '--ledger-token' }, { path: opts.ledgerTokenFile, name: '--ledger-token-file' }, 'CN_CONFORMANCE_LEDGER_TOKEN');
    const ledgerApiKey = secret({ value: opts.ledgerApiKey, name: '--ledger-api-key' }, undefined, 'CN_CONFORMANCE_LEDGER_API_KEY');
    const walletBearer = secret({ value: opts.walletToken, name: '--wallet-token' }, { path: opts.walletTokenFile, name: '--wallet-token-file' }, 'CN_CONFORMANCE_WALLET_TOKEN');
    target = {
      ledger: opts.ledgerUrl ? { url: url('--ledger-url', opts.ledgerUrl), credentials: { bearer: ledgerBearer, apiKey: ledgerApiKey } } : undefined,
      wallet: opts.walletUrl ? { url: url('--wallet-url', opts.walletUrl), credentials: { bearer: walletBearer } } : undefined,
      scan: opts.scanUrl ? { url: url('--scan-url', opts.scanUrl) } : undefined,
      fixtures: given,
      allowMutations: opts.allowMutations ?? false,
      ...bounds,
    };
  }
  return { node, target };
}

export function runBounds(opts: RunOptions): typeof DEFAULT_BOUNDS & { rate?: number } {
  return {
    ...DEFAULT_BOUNDS, runs: positive('--runs', opts.runs), seed: positive('--seed', opts.seed), timeoutMs: positive('--timeout-ms', opts.timeoutMs),
    maxRequests: positive('--max-requests', opts.maxRequests), maxPages: opts.maxPages === undefined ? DEFAULT_BOUNDS.maxPages : positive('--max-pages', opts.maxPages), rate: opts.rate === undefined ? undefined : positive('--rate', opts.rate),
  };
}

export async function run(opts: RunOptions): Promise<{ result: RunResult; exitCode: number }> {
  const startedAt = new Date();
  const bounds = runBounds(opts);
  const given = await configFixtures(opts.config);
  const waivers = await readWaivers(opts.waivers);
  const { specs, checks } = await loadSpecs(opts.spec);
  printSpecChecks(checks);

  const { node, target } = await buildTarget(opts, bounds, given);
  const targets: Record<string, string> = {};
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    const t = target[name];
    targets[name] = t ? (node ? `embedded reference node ${t.url}` : t.url) : 'not given';
  }
  printTargets(targets);

  let requirements: RequirementResult[];
  let fixtureNotes: string[] = [];
  let waiverNotes: WaiverNotes = { expired: [], stale: [], unknown: [] };
  let covered: OperationCoverage[] = [];
  let seen: ReadonlyArray<unknown> = [];
  try {
    const parts = contextParts(target, specs as Partial<Record<InterfaceName, CompiledSpec>>);
    seen = parts.seen ?? [];
    await ensureReachable(parts.clients);
    const discovered = await discoverFixtures(target.fixtures, parts.clients.scan, target.allowMutations);
    parts.fixtures = discovered.fixtures;
    fixtureNotes = discovered.notes;
    for (const n of fixtureNotes) console.log(`  fixture: ${n}`);
    const selected = select(catalog(specs), { level: opts.level, only: opts.only, skip: opts.skip });
    console.log(`Requirements (${selected.length} selected):`);
    const progress = new Progress(selected);
    try {
      requirements = await runAll(selected, parts, (r) => progress.record(r));
    } finally {
      progress.finish();
    }
    ({ results: requirements, notes: waiverNotes } = applyWaivers(requirements, waivers, new Date()));
    const bases = (['ledger', 'wallet', 'scan'] as const).filter((n) => target[n]).map((n) => new URL(originFor(n, target[n]!.url)).pathname.replace(/\/$/, ''));
    covered = coverage(specs, requirements, parts.seen ?? [], [...new Set(bases)]);
  } finally {
    await node?.close();
  }

  const result: RunResult = { specChecks: checks, requirements, targets, fixtureNotes };
  const report = buildReport({
    version: VERSION, startedAt, finishedAt: new Date(), targets, config: effectiveConfig(opts, target), specChecks: checks,
    seed: bounds.seed, fixtureNotes, waiverNotes, coverage: covered, requirements, requestsSent: seen.length,
  });
  const dir = resolve(opts.reportDir);
  const file = join(dir, 'report.json');
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(file, JSON.stringify(report, null, 2) + '\n');
    await writeFile(join(dir, 'junit.xml'), renderJunit(report));
    await writeFile(join(dir, 'report.html'), renderHtml(report));
    await writeFile(join(dir, 'coverage.md'), renderCoverageMarkdown(report.coverage));
  } catch (error) {
    throw new UsageError(`cannot write the reports to ${dir}: ${(error as Error).message}`);
  }
  const outputs = ['junit.xml', 'report.html', 'coverage.md'];
  if (opts.allure) {
    const allure = await writeAllureResults(file, join(dir, 'allure-results'));
    if ('files' in allure) outputs.push(`allure-results/ (${allure.files} results)`);
    else console.log(`Allure results not written: ${allure.error}`);
  }
  printSummary(result, waiverNotes);
  console.log(`Written ${file}, and beside it ${outputs.join(', ')}`);
  const unusable = checks.some((r) => r.loadError);
  const failed = checks.some((r) => r.failures.length > 0) || requirements.some((r) => r.status === 'failed' && r.level === 'MUST');
  return { result, exitCode: unusable ? 2 : failed ? 1 : 0 };
}

function printSpecChecks(checks: SpecCheckResult[]): void {
  console.log('Spec-level checks:');
  for (const r of checks) {
    if (r.loadError) console.log(`  ${r.name.padEnd(8)} UNUSABLE  ${r.loadError}`);
    else console.log(`  ${r.name.padEnd(8)} OpenAPI ${r.openapi}  ${r.operations} operations  ${r.validators} validators  ${r.examplesChecked} examples  ${r.failures.length} failed  (${r.millis} ms)`);
    for (const f of r.failures) console.log(`    FAIL ${f}`);
  }
}

function printTargets(targets: Record<string, string>): void {
  console.log('Targets:');
  for (const [name, t] of Object.entries(targets)) console.log(`  ${name.padEnd(8)} ${t}`);
}

function printSummary(result: RunResult, waiverNotes: WaiverNotes): void {
  console.log('Summary:');
  for (const iface of ['ledger', 'wallet', 'scan'] as const) {
    for (const level of ['MUST', 'SHOULD'] as const) {
      const rs = result.requirements.filter((r) => r.interface === iface && r.level === level);
      if (rs.length === 0) continue;
      const count = (s: string) => rs.filter((r) => r.status === s).length;
      console.log(`  ${iface.padEnd(8)} ${level.padEnd(6)} ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped${count('waived') ? `, ${count('waived')} waived` : ''}`);
    }
  }
  for (const r of result.requirements.filter((x) => x.status === 'failed')) {
    console.log(`  FAIL ${r.id} [${r.level}] ${r.reason}`);
    if (r.evidence?.exchange) console.log(`       ${r.evidence.exchange.curl}`);
    if (r.evidence?.property) console.log(`       fast-check seed ${r.evidence.property.seed} path ${r.evidence.property.path ?? '-'}: ${r.evidence.property.counterexample.slice(0, 200)}`);
  }
  for (const r of result.requirements.filter((x) => x.status === 'waived')) console.log(`  WAIVED ${r.id}: ${r.reason}`);
  for (const w of waiverNotes.expired) console.log(`  waiver EXPIRED on ${w.expires} for ${w.id} (${w.reason}): the failure counts again; renew or remove it`);
  for (const w of waiverNotes.stale) console.log(`  waiver no longer needed for ${w.id}: it passes; remove the waiver`);
  for (const w of waiverNotes.unknown) console.log(`  waiver for ${w.id} matches no requirement of this run`);
}
