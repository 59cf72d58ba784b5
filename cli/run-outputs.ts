// What a run writes besides its report directory: the HAR file of its exchanges (--har) and a certification
// bundle (--bundle). Their places are checked before the first request, so one the run cannot write to is
// a usage error up front rather than a file lost after the run; a bundle holds the exchanges too, so without
// --har they go to exchanges.har in the report directory.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { RequirementResult } from '../engine/engine.ts';
import type { RecordedExchange } from '../engine/exchange-record.ts';
import { shellQuote } from '../engine/transport/redaction.ts';
import { MANIFEST, writeBundle, type BundleSource } from '../reporting/bundle.ts';
import { harLinks, writeHar } from '../reporting/har.ts';
import type { ConformanceReport, ReportExchanges } from '../reporting/model.ts';
import { REPORT_FILES, ReportWriteError } from '../reporting/write-reports.ts';
import type { Documents } from '../runner/documents.ts';
import type { VersionAnswer } from '../runner/node-versions.ts';
import { redactUrl } from '../runner/redaction.ts';
import { UsageError } from '../runner/usage-error.ts';
import { maskedCommandLine } from './secrets.ts';

export interface RunOutputs {
  /** The report directory. */
  dir: string;
  /** Where the HAR file goes (--har, or beside the report for a bundle); absent: the run keeps no exchanges. */
  har?: string;
  bundle?: string;
}

/** The file `setting` names, resolved, once its folder is known to exist and take files. */
export async function outputFile(setting: string, path: string): Promise<string> {
  const file = resolve(path);
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`${setting} ${path} is a directory; give a file name`);
  const folder = dirname(file);
  const parent = await stat(folder).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UsageError(`${setting} ${path}: the folder ${folder} does not exist`);
  await access(folder, constants.W_OK).catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`${setting} ${path}: cannot write to ${folder} (${e.code ?? e.message})`);
  });
  return file;
}

/**
 * The run's HAR and bundle files, checked: writable, not the same file, and not named like a file of the
 * report directory or the bundle's manifest (it would overwrite it there, or clash with it in the bundle).
 */
export async function runOutputs(opts: { har?: string; bundle?: string }, dir: string): Promise<RunOutputs> {
  const har = opts.har === undefined ? undefined : await outputFile('--har', opts.har);
  const bundle = opts.bundle === undefined ? undefined : await outputFile('--bundle', opts.bundle);
  const taken: string[] = [...REPORT_FILES, MANIFEST];
  for (const [setting, file, example] of [
    ['--har', har, 'exchanges.har'],
    ['--bundle', bundle, 'certification.tar.gz'],
  ] as const)
    if (file && taken.includes(basename(file)))
      throw new UsageError(`${setting} ${file}: ${basename(file)} is the name of a report file; name it otherwise (e.g. ${example})`);
  if (har && har === bundle) throw new UsageError(`--har and --bundle name the same file ${opts.har}; give each its own`);
  return { dir, har: har ?? (bundle ? join(dir, 'exchanges.har') : undefined), bundle };
}

/** `file` relative to `dir` with forward slashes, when it is inside it. */
function inside(dir: string, file: string): string | undefined {
  const rel = relative(dir, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : undefined;
}

/** What the report says of the HAR file (`ordered`: the exchanges in harOrder): where it is and where each result's exchanges are. */
export function reportExchanges(outputs: RunOutputs, ordered: readonly RecordedExchange[], results: readonly RequirementResult[]): ReportExchanges | undefined {
  if (!outputs.har) return undefined;
  return { har: inside(outputs.dir, outputs.har) ?? outputs.har, entries: ordered.length, links: harLinks(results, ordered) };
}

async function writeOrRefuse<T>(file: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw new ReportWriteError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

export interface WrittenRun {
  report: ConformanceReport;
  /** The files writeReports wrote, relative to the report directory. */
  files: string[];
  /** The run's exchanges in harOrder. */
  exchanges: readonly RecordedExchange[];
  documents: Documents;
  versions?: VersionAnswer[];
  /** The command's arguments as given (masked before they are written). */
  commandLine: readonly string[];
  exitCode: number;
}

/** Writes the HAR file and the bundle the run was asked for; `scrub` passes over every text written. */
export async function writeRunOutputs(outputs: RunOutputs, run: WrittenRun, scrub: (text: string) => string, say: (line: string) => void): Promise<void> {
  const { har, bundle, dir } = outputs;
  if (!har) return;
  const { report } = run;
  await writeOrRefuse(har, () => writeHar(har, run.exchanges, report.tool, scrub, `cn-conformance run of ${report.startedAt}, seed ${report.seed}`));
  say(`Exchanges: ${har} (HAR 1.2, ${run.exchanges.length} entries)`);
  if (!bundle) return;
  const harMember = inside(dir, har) ?? basename(har);
  const sources: BundleSource[] = [
    ...run.files.map((f) => ({ name: f, path: join(dir, f) })),
    { name: harMember, path: har },
    ...documentMembers(run.documents),
  ];
  const fields = {
    tool: report.tool,
    createdAt: new Date().toISOString(),
    runtime: { node: process.version, platform: `${process.platform}-${process.arch}` },
    commandLine: ['cn-conformance', ...maskedCommandLine(run.commandLine, scrub)].map(shellWord).join(' '),
    run: {
      verdict: report.verdict,
      mode: report.mode,
      exitCode: run.exitCode,
      seed: report.seed,
      startedAt: report.startedAt,
      finishedAt: report.finishedAt,
      requestsSent: report.requestsSent,
    },
    targets: report.targets,
    nodeVersions: run.versions ?? [],
    documents: run.documents.checks.map((c) => ({ name: c.name, source: redactUrl(c.source), sha256: c.sha256, member: documentMember(c.name, c.source) })),
    har: { member: harMember, entries: run.exchanges.length },
  };
  const { manifest, manifestSha256 } = await writeOrRefuse(bundle, () => writeBundle(bundle, sources, fields, scrub));
  say(`Bundle: ${bundle} (${manifest.files.length + 1} files; manifest.json sha256 ${manifestSha256}; check it with cn-conformance verify-bundle)`);
}

/** Where a document goes in the bundle: documents/NAME/ and the file name it was read from. */
function documentMember(name: string, source: string): string {
  const file = /^https?:/i.test(source) ? new URL(source).pathname : source;
  return `documents/${name}/${basename(file) || `${name}.yaml`}`;
}

/** The documents the run judged against, as read (their sha256 is the report's). */
function documentMembers(documents: Documents): BundleSource[] {
  return documents.checks.flatMap((c) => {
    const bytes = documents.specs[c.name]?.loaded.bytes ?? Object.values(documents.channels).find((d) => d.name === c.name)?.bytes;
    return bytes ? [{ name: documentMember(c.name, c.source), data: bytes }] : [];
  });
}

/** An argument as a shell reads it back. */
const shellWord = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg));
