// `cn-conformance run`: spec-level checks, then every selected requirement against the targets (the
// embedded reference node when no URL is given). Everything a user can get wrong is found before the first
// request (settings, fixtures, documents, the selection, the report directory, reachability, credentials);
// after it, every outcome ends in a complete report.
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CompiledSpec } from '../generators/index.ts';
import { referenceNodeTarget } from '../suites/reference-target.ts';
import { startReferenceNode, type RunningReferenceNode } from '../reference-node/index.ts';
import { catalog } from '../suites/catalog.ts';
import { fixtureProblems } from '../suites/fixture-validation.ts';
import { discoverFixtures, LIMITED_TOKEN_VARIABLE, type Fixtures } from '../suites/fixtures.ts';
import type { InterfaceName, Requirement } from '../suites/model.ts';
import { matches, runAll, select, type RequirementResult } from '../suites/runner.ts';
import { contextParts, CREDENTIAL_VARIABLES, DEFAULT_BOUNDS, originFor, type TargetConfig } from '../suites/target.ts';
import { buildReport, type ConformanceReport } from '../reporting/model.ts';
import { renderJunit } from '../reporting/junit.ts';
import { renderHtml } from '../reporting/html.ts';
import { coverage, renderCoverageMarkdown, type OperationCoverage } from '../reporting/coverage.ts';
import { applyWaivers, parseWaivers, WaiverFileError, type Waiver, type WaiverNotes } from '../reporting/waivers.ts';
import { writeAllureResults } from '../reporting/allure-results.ts';
import { readConfigFile } from './config-layers.ts';
import { checkCredentials, type CredentialSources } from './credentials-preflight.ts';
import { EXIT } from './exit-codes.ts';
import { checkSpec, type SpecCheckResult } from './spec-check.ts';
import { Progress } from './progress.ts';
import { ensureReachable } from './reachability.ts';
import { carriesExtras, redactUrl, Scrubber, urlSecrets } from './redaction.ts';
import { prepareReportDir } from './report-dir.ts';
import { secretWithSource } from './secrets.ts';
import { selectSpecs, UsageError } from './spec-options.ts';
import { printSummary } from './summary.ts';

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
  /** Every MUST requirement of the targeted interfaces must be judged; an incomplete run exits 4. */
  certify?: boolean;
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
  /** Where each setting came from ("--runs", "CN_CONFORMANCE_RUNS (environment)", ...), for messages. */
  origins?: Record<string, string>;
}

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** The name of a setting as the user gave it, for messages. */
const origin = (opts: RunOptions, key: keyof RunOptions, flag: string) => opts.origins?.[key] ?? flag;

/** The run's effective settings for the report; credentials appear only as "***", URLs without their secrets. */
function effectiveConfig(opts: RunOptions, target: TargetConfig): Record<string, unknown> {
  const redacted = (v: unknown) => (v ? '***' : undefined);
  const shown = (url: string | undefined) => (url ? redactUrl(url) : undefined);
  return {
    ledgerUrl: shown(target.ledger?.url), walletUrl: shown(target.wallet?.url), scanUrl: shown(target.scan?.url),
    ledgerToken: redacted(target.ledger?.credentials?.bearer), ledgerApiKey: redacted(target.ledger?.credentials?.apiKey),
    walletToken: redacted(target.wallet?.credentials?.bearer),
    specs: opts.spec.map(redactUrl), config: opts.config, allowMutations: target.allowMutations, certify: opts.certify === true, seed: target.seed, runs: target.runs,
    timeoutMs: target.timeoutMs, maxRequests: target.maxRequests, rate: target.rate, maxPages: target.maxPages, level: opts.level, only: opts.only, skip: opts.skip,
  };
}

export interface RunResult {
  specChecks: SpecCheckResult[];
  requirements: RequirementResult[];
  targets: Record<string, string>;
  fixtureNotes: string[];
}

function positive(setting: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${setting} must be a positive integer, got "${text}"`);
  return n;
}

function url(setting: string, value: string): string {
  try {
    const u = new URL(value);
    if (!/^https?:$/.test(u.protocol)) throw new Error('not http(s)');
    return value;
  } catch {
    throw new UsageError(`${setting} is not an http(s) URL: "${redactUrl(value)}"`);
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

/** The fixtures of the config file, checked against suites/fixtures.schema.json: a typo or a wrong type stops the run. */
export async function configFixtures(path: string | undefined): Promise<Fixtures> {
  if (!path) return {};
  const fixtures = readConfigFile(path).fixtures;
  const problems = fixtureProblems(fixtures);
  if (problems.length) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more: ${problems.slice(1).join('; ')})` : '';
    throw new UsageError(`config file ${path}: ${problems[0]}${more}; the fixtures' schema is suites/fixtures.schema.json`);
  }
  return (fixtures ?? {}) as Fixtures;
}

export async function loadSpecs(overrides: string[]): Promise<{ specs: Record<string, CompiledSpec>; checks: SpecCheckResult[] }> {
  const specs: Record<string, CompiledSpec> = {};
  const checks: SpecCheckResult[] = [];
  for (const [name, source] of selectSpecs(overrides)) {
    const { spec, ...check } = await checkSpec(name, source);
    checks.push(check);
    if (spec) specs[name] = spec;
  }
  return { specs, checks };
}

/** An unusable document stops the run before any request: its requirements would silently vanish. */
export function refuseUnusable(checks: readonly SpecCheckResult[]): void {
  const bad = checks.filter((c) => c.loadError);
  if (bad.length === 0) return;
  const first = bad[0]!;
  const [headline, ...details] = first.loadError!.split('\n');
  throw new UsageError(`the ${first.name} document ${redactUrl(first.source)} is unusable: ${redactUrl(headline!)}${details.length ? ` (and ${details.length} more problems)` : ''}; fix it or drop --spec ${first.name}=...${bad.length > 1 ? ` (${bad.length - 1} more unusable: ${bad.slice(1).map((b) => b.name).join(', ')})` : ''}`);
}

/**
 * The requirements a run judges. A selection that is empty, or an --only pattern that matches nothing, is a
 * usage error: a gate that judges nothing must not look green.
 */
export function selection(all: readonly Requirement[], opts: RunOptions): Requirement[] {
  for (const p of opts.only) {
    if (!all.some((r) => matches(r, [p]))) throw new UsageError(`${origin(opts, 'only', '--only')} pattern "${p}" matches no requirement; \`cn-conformance list\` shows the ids (patterns match ids, tags and interfaces, * is a wildcard)`);
  }
  const selected = select(all, { level: opts.level, only: opts.only, skip: opts.skip });
  if (selected.length === 0) {
    const given = [...opts.only.map((p) => `--only ${p}`), ...opts.skip.map((p) => `--skip ${p}`), ...(opts.level === 'must' ? ['--level must'] : [])].join(' ');
    throw new UsageError(`the selection is empty: ${given || 'no requirement is loaded'} leaves no requirement to run; widen --only or narrow --skip (\`cn-conformance list\` shows the ids)`);
  }
  return selected;
}

/** The credentials of an external run, each with where it came from. */
function credentials(opts: RunOptions) {
  return {
    ledgerBearer: secretWithSource({ value: opts.ledgerToken, name: '--ledger-token' }, { path: opts.ledgerTokenFile, name: '--ledger-token-file' }, CREDENTIAL_VARIABLES.ledger.bearer!),
    ledgerApiKey: secretWithSource({ value: opts.ledgerApiKey, name: '--ledger-api-key' }, undefined, CREDENTIAL_VARIABLES.ledger.apiKey!),
    walletBearer: secretWithSource({ value: opts.walletToken, name: '--wallet-token' }, { path: opts.walletTokenFile, name: '--wallet-token-file' }, CREDENTIAL_VARIABLES.wallet.bearer!),
  };
}

/** The target of a run: the embedded reference node when no URL is given, else the given URLs. */
export async function buildTarget(opts: RunOptions, bounds: ReturnType<typeof runBounds>, given: Fixtures): Promise<{ node?: RunningReferenceNode; target: TargetConfig; sources: CredentialSources }> {
  const external = Boolean(opts.ledgerUrl || opts.walletUrl || opts.scanUrl);
  if (!external) {
    const node = await startReferenceNode({ seed: bounds.seed });
    // The embedded node is disposable: everything runs, including checks that change its state, unless the
    // user said otherwise.
    const target = referenceNodeTarget(node, { ...bounds, allowMutations: opts.allowMutations ?? true });
    target.fixtures = { ...target.fixtures, ...given };
    return { node, target, sources: { ledger: 'the embedded node\'s admin token', wallet: 'the embedded node\'s wallet token' } };
  }
  const { ledgerBearer, ledgerApiKey, walletBearer } = credentials(opts);
  const fixtures = { ...given };
  // The limited user's token may come from the environment, where curl lines of its checks read it too.
  fixtures.ledgerLimitedToken ??= process.env[LIMITED_TOKEN_VARIABLE]?.trim() || undefined;
  const target: TargetConfig = {
    ledger: opts.ledgerUrl ? { url: url(origin(opts, 'ledgerUrl', '--ledger-url'), opts.ledgerUrl), credentials: { bearer: ledgerBearer?.value, apiKey: ledgerApiKey?.value } } : undefined,
    wallet: opts.walletUrl ? { url: url(origin(opts, 'walletUrl', '--wallet-url'), opts.walletUrl), credentials: { bearer: walletBearer?.value } } : undefined,
    scan: opts.scanUrl ? { url: url(origin(opts, 'scanUrl', '--scan-url'), opts.scanUrl) } : undefined,
    fixtures,
    allowMutations: opts.allowMutations === true,
    ...bounds,
  };
  return { target, sources: { ledger: (ledgerBearer ?? ledgerApiKey)?.from, wallet: walletBearer?.from } };
}

export function runBounds(opts: RunOptions): typeof DEFAULT_BOUNDS & { rate?: number } {
  const p = (key: 'runs' | 'seed' | 'timeoutMs' | 'maxRequests' | 'maxPages' | 'rate', flag: string, text: string) => positive(origin(opts, key, flag), text);
  return {
    ...DEFAULT_BOUNDS, runs: p('runs', '--runs', opts.runs), seed: p('seed', '--seed', opts.seed), timeoutMs: p('timeoutMs', '--timeout-ms', opts.timeoutMs),
    maxRequests: p('maxRequests', '--max-requests', opts.maxRequests), maxPages: opts.maxPages === undefined ? DEFAULT_BOUNDS.maxPages : p('maxPages', '--max-pages', opts.maxPages),
    rate: opts.rate === undefined ? undefined : p('rate', '--rate', opts.rate),
  };
}

/** Every secret of the run: tokens, API keys, URL user info and secret query values, so no output carries them. */
function scrubberFor(opts: RunOptions, target: TargetConfig): Scrubber {
  return new Scrubber([
    target.ledger?.credentials?.bearer, target.ledger?.credentials?.apiKey, target.wallet?.credentials?.bearer, target.fixtures.ledgerLimitedToken,
    ...[opts.ledgerUrl, opts.walletUrl, opts.scanUrl, ...opts.spec.map((s) => s.slice(s.indexOf('=') + 1))].flatMap(urlSecrets),
  ]);
}

/** MUST requirements of the interfaces the run targets: what --certify requires judged. */
const certifyScope = (all: readonly Requirement[], target: TargetConfig) => all.filter((r) => r.level === 'MUST' && target[r.interface]);

export async function run(opts: RunOptions): Promise<{ result: RunResult; report: ConformanceReport; exitCode: number }> {
  const startedAt = new Date();
  const bounds = runBounds(opts);
  const given = await configFixtures(opts.config);
  const waivers = await readWaivers(opts.waivers);
  const { specs, checks } = await loadSpecs(opts.spec);
  printSpecChecks(checks);
  refuseUnusable(checks);
  const all = catalog(specs);
  const selected = selection(all, opts);
  const dir = await prepareReportDir(opts.reportDir);

  const { node, target, sources } = await buildTarget(opts, bounds, given);
  const scrubber = scrubberFor(opts, target);
  const say = (line: string) => console.log(scrubber.scrub(line));
  const targets: Record<string, string> = {};
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    const t = target[name];
    targets[name] = t ? (node ? `embedded reference node ${t.url}` : redactUrl(t.url)) : 'not given';
  }
  say('Targets:');
  for (const [name, t] of Object.entries(targets)) say(`  ${name.padEnd(8)} ${t}`);
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    const t = target[name];
    if (t && carriesExtras(t.url)) say(`  note: credentials and query parameters in the ${name} URL are not sent; requests go to ${originFor(name, t.url)} (give tokens with the token options)`);
  }

  let requirements: RequirementResult[];
  let fixtureNotes: string[] = [];
  let waiverNotes: WaiverNotes = { expired: [], stale: [], unknown: [] };
  let covered: OperationCoverage[] = [];
  let seen: ReadonlyArray<unknown> = [];
  try {
    const parts = contextParts(target, specs as Partial<Record<InterfaceName, CompiledSpec>>);
    seen = parts.seen ?? [];
    await ensureReachable(parts.clients);
    await checkCredentials(parts.clients, sources);
    const discovered = await discoverFixtures(target.fixtures, parts.clients.scan, target.allowMutations);
    parts.fixtures = discovered.fixtures;
    fixtureNotes = discovered.notes;
    for (const n of fixtureNotes) say(`  fixture: ${n}`);
    say(`Requirements (${selected.length} selected${opts.certify ? '; certification run: every MUST requirement of the targeted interfaces must be judged' : ''}):`);
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
    version: VERSION, startedAt, finishedAt: new Date(), targets, config: effectiveConfig(opts, target), specChecks: checks.map((c) => ({ ...c, source: redactUrl(c.source) })),
    seed: bounds.seed, fixtureNotes, waiverNotes, coverage: covered, requirements, requestsSent: seen.length,
    mode: opts.certify ? 'certify' : 'standard', certifyScope: certifyScope(all, target),
  });
  const file = join(dir, 'report.json');
  try {
    await writeFile(file, scrubber.scrub(JSON.stringify(report, null, 2)) + '\n');
    await writeFile(join(dir, 'junit.xml'), scrubber.scrub(renderJunit(report)));
    await writeFile(join(dir, 'report.html'), scrubber.scrub(renderHtml(report)));
    await writeFile(join(dir, 'coverage.md'), scrubber.scrub(renderCoverageMarkdown(report.coverage)));
  } catch (error) {
    throw new UsageError(`cannot write the reports to ${dir}: ${(error as Error).message}`);
  }
  const outputs = ['junit.xml', 'report.html', 'coverage.md'];
  if (opts.allure) {
    // Replayed from the written (scrubbed) report.json.
    const allure = await writeAllureResults(file, join(dir, 'allure-results'));
    if ('files' in allure) outputs.push(`allure-results/ (${allure.files} results)`);
    else say(`Allure results not written: ${allure.error}`);
  }
  printSummary(report, waiverNotes, say);
  say(`Written ${file}, and beside it ${outputs.join(', ')}`);
  return { result, report, exitCode: exitCodeOf(report, checks) };
}

/** Not conformant (1) before the suite's own failures (3) before an incomplete certification (4). */
export function exitCodeOf(report: ConformanceReport, checks: readonly SpecCheckResult[]): number {
  if (report.verdict === 'not-conformant' || checks.some((c) => c.failures.length > 0)) return EXIT.failed;
  if (report.summary.error > 0) return EXIT.crash;
  if (report.mode === 'certify' && report.verdict !== 'conformant') return EXIT.incomplete;
  return EXIT.ok;
}

function printSpecChecks(checks: SpecCheckResult[]): void {
  console.log('Spec-level checks:');
  for (const r of checks) {
    if (r.loadError) console.log(`  ${r.name.padEnd(8)} UNUSABLE  ${redactUrl(r.loadError)}`);
    else console.log(`  ${r.name.padEnd(8)} OpenAPI ${r.openapi}  ${r.operations} operations  ${r.validators} validators  ${r.examplesChecked} examples  ${r.failures.length} failed  (${r.millis} ms)`);
    for (const f of r.failures) console.log(`    FAIL ${f}`);
  }
}
