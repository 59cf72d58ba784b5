// The `cn-conformance` command line: parses, calls the run, renders and returns the exit code. cli/main.ts
// is the process entry; tests call main() in-process.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { applyConfigFile, booleanFlag, checkShadowedEnvironment, settingOrigin, splitList, withEnvironment } from './config-layers.ts';
import { EXIT } from './exit-codes.ts';
import { SpecLoadError } from '../generators/spec-load-error.ts';
import type { RunOptions } from './run-settings.ts';
import type { ConformanceReport } from '../reporting/model.ts';
import { COMPARE_BOUNDS, DEFAULT_BOUNDS } from '../engine/bounds.ts';
import { UsageError } from '../runner/usage-error.ts';
import type { ServeOptions } from './serve-reference.ts';
import type { StrictnessOptions } from './strictness.ts';
import type { CompareCliOptions } from './compare.ts';
import { packageFile } from '../common/package-files.ts';
import { clientSecretVariable } from './oauth-settings.ts';
import { INTERFACES } from '../common/vocabulary.ts';
import { SPLICE_RELEASE } from '../reference-node/splice-version.ts';

// The commands load their implementations when they run: the suite's whole graph (documents, engine,
// reference node) takes seconds to load, which `--version`, `--help` and a usage error do without.

const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };

/** A repeatable option: every value given, in order. */
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** --only and --skip take one pattern per flag or a comma-separated list. */
const collectPatterns = (value: string, previous: string[] = []) => [...previous, ...splitList(value)];

const SCAN_RELEASE_HELP = `the Splice release the scan plays: routes of later releases answer as unknown paths (default: the newest, ${SPLICE_RELEASE})`;
const LEDGER_RELEASE_HELP = "the ledger's release line: 3.4 answers as that line and has no command-completions (default 3.5)";

/** `argv`: the arguments as given (a bundle's manifest records them, masked). */
function program(argv: readonly string[]): Command {
  const cli = new Command('cn-conformance')
    .description('Conformance suite for the Canton Network HTTP JSON interfaces (ledger, wallet, scan)')
    .version(pkg.version)
    .exitOverride();

  targetCommand(cli.command('run'))
    .description('Run the conformance requirements against the targets (default: the embedded reference node)')
    .option('--no-allure', 'do not write Allure results (allure-results/ in the report dir, written through allure-vitest)')
    .option(
      '--har <file>',
      "write every request and answer of the run to FILE as HAR 1.2 (opens in a browser's network panel; secrets masked, bodies cut at 64 KiB)",
    )
    .option(
      '--bundle <file>',
      'pack the report files, the HAR file (exchanges.har in the report dir unless --har), the documents and a manifest with their sha256 into FILE (.tar.gz); see verify-bundle',
    )
    .action(async (opts: RunOptions, command: Command) => {
      const { run } = await import('./run.ts');
      process.exitCode = (await run({ ...checkedRunOptions(command, opts), commandLine: [...argv] })).exitCode;
    });

  cli
    .command('verify-bundle <file>')
    .description(
      'Check a bundle of run --bundle against its manifest: exit 0 when every file matches, 1 when one was changed, added or removed, 2 when it cannot be read',
    )
    .action(async (file: string) => {
      const { verifyBundleCommand } = await import('./verify-bundle.ts');
      process.exitCode = await verifyBundleCommand(file);
    });

  targetCommand(cli.command('plan'))
    .description(
      'Show what run would do with the same options: the fixtures and where they come from (read-only discovery, unless --no-discovery), requirements run or skipped (and why), operations called; changes nothing',
    )
    .action(async (opts: RunOptions, command: Command) => {
      const { plan } = await import('./plan.ts');
      await plan(checkedRunOptions(command, opts));
    });

  cli
    .command('list')
    .description('Print the requirement catalog: every rule the suite checks')
    .option('--spec <NAME=PATH>', "replace or add an OpenAPI document, or the ledger's AsyncAPI one (path or URL); repeatable", collect, [])
    .option('--json', 'print JSON')
    .option('--markdown', 'print the requirements document (docs/requirements.md)')
    .option('--traceability', 'print the traceability document (docs/traceability.md): every normative sentence of the description and what enforces it')
    .action(async (opts: { spec: string[]; json?: boolean; markdown?: boolean; traceability?: boolean }) => {
      const { usableDocuments } = await import('./run-settings.ts');
      const { catalog } = await import('../requirements/catalog.ts');
      const { specs, builtinIds } = await usableDocuments(opts.spec, true);
      if (opts.markdown) {
        const { requirementsMarkdown } = await import('./requirements-doc.ts');
        const { DEVIATION_CATALOG, FAULT_CATALOG } = await import('../reference-node/faults.ts');
        process.stdout.write(requirementsMarkdown(catalog(specs, builtinIds), FAULT_CATALOG, DEVIATION_CATALOG));
        return;
      }
      if (opts.traceability) {
        const { recordedProof, traceabilityMarkdown } = await import('./traceability-doc.ts');
        const { SENTENCE_SECTIONS } = await import('../description/index.ts');
        process.stdout.write(traceabilityMarkdown(SENTENCE_SECTIONS, catalog(specs, builtinIds), recordedProof()));
        return;
      }
      const rows = catalog(specs, builtinIds).map((r) => ({
        id: r.id,
        level: r.level,
        interface: r.interface,
        operations: r.operations,
        mutates: r.mutates,
        section: r.section,
        sentence: r.sentence,
      }));
      if (opts.json) console.log(JSON.stringify(rows, null, 2));
      else for (const r of rows) console.log(`${r.id.padEnd(58)} ${r.level.padEnd(6)} ${r.interface.padEnd(6)} ${r.mutates ? 'mutates ' : ''}${r.sentence}`);
    });

  cli
    .command('diff <old> <new>')
    .description(
      'Compare two report.json files: regressions, fixes, coverage lost and gained, new and removed requirements (exit 1 on a regression or on coverage lost)',
    )
    .option('--allow-coverage-loss [bool]', 'do not fail when requirements judged before are not judged now', booleanFlag('--allow-coverage-loss'))
    .action(async (oldPath: string, newPath: string, opts: { allowCoverageLoss?: boolean }) => {
      const read = (path: string): ConformanceReport => {
        try {
          const r = JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
          if (!Array.isArray(r.requirements)) throw new Error('no requirements array');
          return r;
        } catch (e) {
          throw new UsageError(`cannot read the report ${path}: ${(e as Error).message}`);
        }
      };
      const { diffReports, renderDiff } = await import('../reporting/diff.ts');
      const d = diffReports(read(oldPath), read(newPath));
      const allowLoss = opts.allowCoverageLoss === true;
      process.stdout.write(renderDiff(d, allowLoss));
      process.exitCode = d.regressions.length > 0 || (d.coverageLost.length > 0 && !allowLoss) ? EXIT.failed : EXIT.ok;
    });

  cli
    .command('catalog')
    .description('List the operations of the loaded OpenAPI documents and the channels of the AsyncAPI ones')
    .option('--spec <NAME=PATH>', "replace or add an OpenAPI document, or the ledger's AsyncAPI one (path or URL); repeatable", collect, [])
    .option('--json', 'print JSON instead of a table')
    .action(async (opts: { spec: string[]; json?: boolean }) => {
      const { usableDocuments } = await import('./run-settings.ts');
      const rows = [];
      const documents = await usableDocuments(opts.spec, true);
      for (const [name, spec] of Object.entries(documents.specs)) {
        for (const op of spec.catalog.operations) {
          const auth = op.security.length === 0 ? 'none' : op.security.map((s) => Object.keys(s).join('+') || 'optional').join(' | ');
          rows.push({
            spec: name,
            id: op.id,
            method: op.method.toUpperCase(),
            path: op.fullPath,
            auth,
            deprecated: op.deprecated,
            statuses: op.responses.map((r) => r.status),
          });
        }
      }
      // The WebSocket channels: an upgrade of GET on the path, named by the operation that reads the node's messages.
      for (const channels of Object.values(documents.channels))
        for (const c of channels.channels)
          rows.push({
            spec: channels.name,
            id: c.subscribeOperationId ?? c.publishOperationId ?? c.path,
            method: 'WS',
            path: c.path,
            auth: c.auth.join(' | ') || 'not stated',
            deprecated: false,
            statuses: [] as string[],
          });
      if (opts.json) console.log(JSON.stringify(rows, null, 2));
      else
        for (const r of rows)
          console.log(
            `${r.spec.padEnd(7)} ${r.method.padEnd(5)} ${r.path.padEnd(78)} ${r.id}${r.deprecated ? ' (deprecated)' : ''}  auth: ${r.auth}  statuses: ${r.statuses.join(',')}`,
          );
    });

  cli
    .command('strictness')
    .description(
      'Compare one of our documents with the official documents of the same interface: every place where ours refuses what theirs allows (exit 1 when there is one)',
    )
    .requiredOption('--ours <NAME|PATH>', 'a built-in document (ledger, wallet, scan) or a path')
    .requiredOption('--theirs <PATH|URL>', 'an official document; repeatable (operations are looked up in each, in order)', collect, [])
    .option('--nullable', 'also fail on null refused at a property ours leaves optional in an answer (tolerated by the SHOULD policy otherwise)')
    .option('--verbose', 'also list the answers and bodies that could not be compared')
    .option('--json', 'print the comparison as JSON')
    .action(async (opts: StrictnessOptions) => {
      const { strictness } = await import('./strictness.ts');
      process.exitCode = await strictness(opts);
    });

  cli
    .command('serve-reference')
    .description('Start the embedded reference node (a simulator of the three interfaces) on loopback')
    .option('--port <n>', 'port to listen on, 0 to 65535 (0 picks a free one)', '0')
    .option('--seed <n>', 'seed of the simulated network (same seed, same data)', '1')
    .option('--scale <n>', 'size of the history: 1000 x N extra updates, 100 x N extra holdings', '1')
    .option('--list-limit <n>', "the ledger stream's list limit (413 beyond it)")
    .option('--offset-shift <n>', 'render every offset N higher, as another node of the same network numbers them', '0')
    .option('--fault <name>', 'switch on a named fault; repeatable (see --list-faults)', collect, [])
    .option('--list-faults', 'print the fault catalog and exit')
    .option('--fixtures-out <file>', "write the node's fixture file (the ids the checks need, as run --config reads it)")
    .option('--scan-release <x.y.z>', SCAN_RELEASE_HELP)
    .option('--ledger-release <3.4|3.5>', LEDGER_RELEASE_HELP)
    .action(async (opts: ServeOptions) => {
      const { serveReference } = await import('./serve-reference.ts');
      await serveReference(opts);
    });

  cli
    .command('compare')
    .description(
      "Compare two nodes of one network (read-only): the same reads to both, discovered on the first; every difference with its read, JSON pointer and both values, grouped by cause (one diverging contract, one refused route); where the statuses differ, each answer (a refusal's error code and cause) and a curl line per node. Exit 0 equal, 1 divergent, 2 usage (no report folder left), 4 incomplete (reads not compared)",
    )
    .option('--scan-url <url>', 'base URL of a scan; twice: node A, then node B', collect, [])
    .option('--ledger-url <url>', 'base URL of a ledger JSON interface; twice: node A, then node B', collect, [])
    .option(
      '--ledger-token <jwt>',
      'ledger bearer token; once for both nodes or twice (A, then B; curl lines then read CN_CONFORMANCE_LEDGER_TOKEN_A and _B); default CN_CONFORMANCE_LEDGER_TOKEN',
      collect,
      [],
    )
    .option('--report-dir <dir>', 'where to write compare.json, junit.xml and compare.html', 'reports/compare')
    .option('--timeout-ms <n>', 'timeout of every request', String(DEFAULT_BOUNDS.timeoutMs))
    .option('--max-requests <n>', 'requests each node may be sent', String(DEFAULT_BOUNDS.maxRequests))
    .option('--max-pages <n>', 'pages one paged read may walk on each node', String(COMPARE_BOUNDS.maxPages))
    .option('--concurrency <n>', 'reads in flight at once', String(COMPARE_BOUNDS.concurrency))
    .action(async (opts: CompareCliOptions) => {
      const { compare } = await import('./compare.ts');
      process.exitCode = await compare(opts);
    });

  return cli;
}

/** The options run and plan share (a plan must be asked with exactly the options of its run). */
function targetCommand(command: Command): Command {
  command
    .option(
      '--spec <NAME=PATH>',
      "replace the OpenAPI document of an interface (NAME: ledger, wallet or scan; PATH: a file or URL), or with an AsyncAPI document the ledger's channel document (also NAME ledger-channels); repeatable",
      collect,
      [],
    )
    .option('--config <file>', 'JSON file with the fixtures (ids the checks need): {"fixtures": {...}}')
    .option('--report-dir <dir>', 'where to write the results', 'reports/latest')
    .option('--ledger-url <url>', 'base URL of the ledger JSON interface')
    .option('--wallet-url <url>', 'base URL of the validator (with or without /api/validator)')
    .option('--scan-url <url>', 'base URL of the scan (with or without /api/scan)')
    .option('--ledger-token <jwt>', 'bearer token for the ledger interface (or CN_CONFORMANCE_LEDGER_TOKEN)')
    .option('--ledger-token-file <file>', 'file holding the ledger bearer token')
    .option('--ledger-api-key <key>', 'API key for the ledger interface (or CN_CONFORMANCE_LEDGER_API_KEY)')
    .option('--wallet-token <jwt>', 'bearer token of a wallet user (or CN_CONFORMANCE_WALLET_TOKEN)')
    .option('--wallet-token-file <file>', 'file holding the wallet bearer token')
    .option('--reference-scan-release <x.y.z>', `embedded reference node only: ${SCAN_RELEASE_HELP}`)
    .option('--reference-ledger-release <3.4|3.5>', `embedded reference node only: ${LEDGER_RELEASE_HELP}`);
  deploymentOptions(command);
  command
    .option(
      '--allow-mutations [bool]',
      'also run checks that change the target (buy traffic, force-ACS, command submission); true, false, 1 or 0',
      booleanFlag('--allow-mutations'),
    )
    .option(
      '--skip-websocket [bool]',
      "open no WebSocket channel (a gateway without upgrades): the ledger's channels are reported not judged, with that reason",
      booleanFlag('--skip-websocket'),
    )
    .option('--no-discovery', 'do not discover missing fixtures from the target (read-only unless mutations are allowed); use only the given ones')
    .option('--certify [bool]', 'certification run: every MUST requirement of the targeted interfaces must be judged, else exit 4', booleanFlag('--certify'))
    .option('--runs <n>', 'generated cases per property and per generic check', String(DEFAULT_BOUNDS.runs))
    .option('--seed <n>', 'seed of the generated cases (and of the embedded node)', '1')
    .option('--timeout-ms <n>', 'timeout of every request', String(DEFAULT_BOUNDS.timeoutMs))
    .option('--level <level>', 'must: only MUST requirements; should: all', 'should')
    .option('--waivers <file>', 'JSON list of {id, reason, expires: YYYY-MM-DD}: expected failures that do not fail the gate')
    .option('--only <pattern>', 'run only requirements whose id, tag or interface matches (* wildcard); repeatable or comma-separated', collectPatterns, [])
    .option('--skip <pattern>', 'skip requirements whose id, tag or interface matches; repeatable or comma-separated', collectPatterns, [])
    .option('--max-requests <n>', 'stop sending after this many requests (the rest is skipped with the reason)', String(DEFAULT_BOUNDS.maxRequests))
    .option('--rate <n>', 'at most this many requests per second')
    .option(
      '--concurrency <n>',
      'requirements side by side, and requests in flight to each interface (ones that change the target run alone); --rate and --max-requests hold across them',
      String(DEFAULT_BOUNDS.concurrency),
    )
    .option('--max-pages <n>', 'pages one walk over a paged answer may read before it counts as unfinished', String(DEFAULT_BOUNDS.maxPages));
  return withEnvironment(command);
}

/**
 * How the suite reaches a real deployment: extra headers, TLS and OAuth2 client credentials, for all
 * interfaces or for each (its own setting wins). The proxy comes from HTTPS_PROXY, HTTP_PROXY and NO_PROXY.
 */
function deploymentOptions(command: Command): void {
  command
    .option(
      '--header <header>',
      'extra header "Name: value" of every request (an API gateway\'s key); repeatable; evidence shows its value as ***',
      collect,
      [],
    )
    .option('--ca-file <file>', "PEM CA certificate(s) trusted for https targets, in addition to Node's")
    .option('--client-cert <file>', 'PEM client certificate for mutual TLS (with --client-key)')
    .option('--client-key <file>', 'unencrypted PEM private key of --client-cert');
  for (const i of INTERFACES) {
    command
      .option(`--${i}-header <header>`, `extra header of every ${i} request; repeatable; wins over --header`, collect, [])
      .option(`--${i}-ca-file <file>`, `--ca-file for the ${i} only`)
      .option(`--${i}-client-cert <file>`, `--client-cert for the ${i} only`)
      .option(`--${i}-client-key <file>`, `--client-key for the ${i} only`)
      .option(`--${i}-oauth-token-url <url>`, `OAuth2 token endpoint: the ${i} bearer is a client-credentials token, renewed before it expires`)
      .option(`--${i}-oauth-issuer <url>`, `OpenID issuer whose discovery document names the ${i} token endpoint (instead of --${i}-oauth-token-url)`)
      .option(`--${i}-oauth-client-id <id>`, `OAuth2 client id of the ${i} token`)
      .option(`--${i}-oauth-client-secret-file <file>`, `file holding the client secret (or ${clientSecretVariable(i)}; never a flag)`)
      .option(`--${i}-oauth-audience <audience>`, `audience of the ${i} token (sent as audience, and as resource when a URI)`)
      .option(`--${i}-oauth-scope <scope>`, `scope of the ${i} token (space-separated)`);
  }
}

function checkedRunOptions(command: Command, opts: RunOptions): RunOptions {
  applyConfigFile(command, opts as unknown as Record<string, unknown>);
  checkShadowedEnvironment(command);
  const origins: Record<string, string> = {};
  for (const o of command.options) origins[o.attributeName()] = settingOrigin(command, o.attributeName(), opts.config);
  if (opts.level !== 'must' && opts.level !== 'should') throw new UsageError(`${origins.level} must be must or should, got "${opts.level}"`);
  return { ...opts, origins };
}

export async function main(argv: string[]): Promise<number> {
  // Actions report their code through process.exitCode; start clean and hand it back, leaving it unset.
  process.exitCode = undefined;
  try {
    await program(argv).parseAsync(argv, { from: 'user' });
    return Number(process.exitCode ?? EXIT.ok);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof UsageError || error instanceof SpecLoadError) {
      console.error(`cn-conformance: ${error.message}`);
      return EXIT.usage;
    }
    console.error('cn-conformance: internal error (this is a bug in the suite, not in the target):');
    console.error(error);
    return EXIT.crash;
  } finally {
    process.exitCode = undefined;
  }
}
