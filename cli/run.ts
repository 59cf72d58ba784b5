// `cn-conformance run`: settings, documents, selection and target are checked before the first request
// (cli/run-settings.ts); the run itself is a library call (runner/run-conformance.ts); then waivers,
// coverage, the report files (with --har the run's exchanges, with --bundle all of it packed and checksummed)
// and the console summary. After the first request, every outcome ends in a complete report.
import { readFileSync } from 'node:fs';
import { UsageError } from '../runner/usage-error.ts';
import { applyWaivers, waiverOutsideCatalog } from '../reporting/waivers.ts';
import { buildReport, type ConformanceReport } from '../reporting/model.ts';
import { channelCoverage, coverage } from '../reporting/coverage.ts';
import { writeReports } from '../reporting/write-reports.ts';
import { harOrder } from '../reporting/har.ts';
import { reportExchanges, runOutputs, writeRunOutputs } from './run-outputs.ts';
import { loadDocuments, refuseUnusable } from '../runner/documents.ts';
import { redactUrl } from '../runner/redaction.ts';
import { certifyScope, runConformance, runId, type ConformanceResults } from '../runner/run-conformance.ts';
import { selectRequirements } from '../runner/selection.ts';
import { catalog } from '../requirements/catalog.ts';
import { packageFile } from '../common/package-files.ts';
import { exitCodeOf } from './exit-codes.ts';
import { Progress } from './progress.ts';
import { prepareReportDir } from './report-dir.ts';
import { buildTarget, configFixtures, effectiveConfig, origin, readWaivers, runBounds, scrubberFor, type RunOptions } from './run-settings.ts';
import { selectSpecs } from './spec-options.ts';
import { printSpecChecks, printSummary, printTargets } from './summary.ts';

export type { RunOptions };

const VERSION = (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;

export async function run(opts: RunOptions): Promise<{ report: ConformanceReport; exitCode: number }> {
  const startedAt = new Date();
  const bounds = runBounds(opts);
  const given = await configFixtures(opts.config);
  const waivers = await readWaivers(opts.waivers);
  const documents = await loadDocuments(await selectSpecs(opts.spec));
  printSpecChecks(documents.checks);
  refuseUnusable(documents.checks);
  const all = catalog(documents.specs, documents.builtinIds);
  // A waiver of no requirement at all would waive nothing while its author believes a failure is covered.
  const stray = waiverOutsideCatalog(
    waivers,
    all.map((r) => r.id),
  );
  if (stray)
    throw new UsageError(
      `the waivers file ${opts.waivers}: waiver ${stray.waiver.id} names no requirement of the catalog${stray.guess ? `; did you mean ${stray.guess}?` : ''} (\`list\` prints the ids)`,
    );
  const requirements = selectRequirements(all, { level: opts.level, only: opts.only, skip: opts.skip, onlyOrigin: origin(opts, 'only', '--only') });
  const dir = await prepareReportDir(opts.reportDir);
  const outputs = await runOutputs(opts, dir);

  const { node, target, sources, fixtureOrigins } = await buildTarget(opts, bounds, given);
  const scrubber = scrubberFor(opts, target);
  const say = (line: string) => console.log(scrubber.scrub(line));
  const targets = printTargets(target, Boolean(node), say);
  let results: ConformanceResults;
  let progress: Progress | undefined;
  try {
    results = await runConformance({
      target,
      documents,
      requirements,
      sources,
      discovery: opts.discovery !== false,
      runId: runId(bounds.seed, startedAt),
      fixtureOrigins,
      recordExchanges: outputs.har !== undefined,
      observer: {
        fixtureNote: (n) => say(`  discovery: ${n}`),
        started: (rs) => {
          say(
            `Requirements (${rs.length} selected${opts.certify ? '; certification run: every MUST requirement of the targeted interfaces must be judged' : ''}):`,
          );
          progress = new Progress(rs);
        },
        began: (r) => progress?.began(r.id),
        result: (r) => progress?.record(r),
        secret: (value) => scrubber.add(value),
      },
    });
  } finally {
    progress?.finish();
    await node?.close();
  }

  const { results: judged, notes: waiverNotes } = applyWaivers(results.requirements, waivers, new Date());
  const exchanges = harOrder(results.exchanges ?? []);
  const report = buildReport({
    version: VERSION,
    startedAt,
    finishedAt: new Date(),
    targets,
    config: effectiveConfig(opts, target),
    specChecks: documents.checks.map((c) => ({ ...c, source: redactUrl(c.source) })),
    seed: bounds.seed,
    fixtureNotes: results.fixtureNotes,
    fixtures: results.fixtures,
    discovery: results.discovery,
    releases: results.releases,
    applicability: results.applicability,
    waiverNotes,
    coverage: coverage(documents.specs, all, judged, results.seen, results.basePaths, documents.builtinIds),
    channels: channelCoverage(documents.channels.ledger?.channels.map((c) => c.path) ?? [], all, judged, results.seen, results.basePaths),
    requirements: judged,
    requestsSent: results.seen.filter((s) => s.method !== 'WEBSOCKET').length,
    mode: opts.certify ? 'certify' : 'standard',
    certifyScope: certifyScope(all, target),
    operationScope: (['ledger', 'wallet', 'scan'] as const).filter((i) => target[i]),
    exchanges: reportExchanges(outputs, exchanges, judged),
  });
  const scrub = (t: string) => scrubber.scrub(t);
  const written = await writeReports(dir, report, scrub, { allure: opts.allure, say });
  printSummary(report, waiverNotes, say);
  say(`Written ${written.file}, and beside it ${written.outputs.join(', ')}`);
  const exitCode = exitCodeOf(report, documents.checks);
  const extra = { report, files: written.files, exchanges, documents, versions: results.versions, commandLine: opts.commandLine ?? [], exitCode };
  await writeRunOutputs(outputs, extra, scrub, say);
  return { report, exitCode };
}
