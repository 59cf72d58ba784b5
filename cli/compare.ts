// `cn-conformance compare`: two nodes of one network, the same reads, every difference listed. A thin shell
// over runner/compare: it checks the options, writes the reports and turns the verdict into the exit code.
import { compareNodes, type CompareNode, type CompareResult } from '../runner/compare/compare.ts';
import { differenceLines, writeCompareReports } from '../reporting/compare-report.ts';
import { UsageError } from '../runner/usage-error.ts';
import { CREDENTIAL_VARIABLES, DEFAULT_BOUNDS } from '../suites/target.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { reserveReportDir } from './report-dir.ts';
import { integer } from './serve-reference.ts';

export interface CompareCliOptions {
  scanUrl: string[];
  ledgerUrl: string[];
  ledgerToken: string[];
  reportDir: string;
  timeoutMs: string;
  maxRequests: string;
  maxPages: string;
  concurrency: string;
}

/** What the console shows (the reports hold everything): differences per read, reads, characters per value. */
const PRINTED = { differences: 5, reads: 20, chars: 120 };

function nodes(o: CompareCliOptions): [CompareNode, CompareNode] {
  for (const [flag, list] of [
    ['--scan-url', o.scanUrl],
    ['--ledger-url', o.ledgerUrl],
  ] as const) {
    if (list.length !== 0 && list.length !== 2) throw new UsageError(`${flag} is given for both nodes or for none: twice (A, then B), got ${list.length}`);
  }
  if (o.scanUrl.length === 0 && o.ledgerUrl.length === 0) throw new UsageError('nothing to compare: give --scan-url twice and/or --ledger-url twice');
  if (o.ledgerToken.length > 2) throw new UsageError(`--ledger-token is given at most twice (A, then B), got ${o.ledgerToken.length}`);
  // One token serves both nodes; none: the run's environment variable.
  const env = process.env[CREDENTIAL_VARIABLES.ledger.bearer!];
  const tokens = o.ledgerToken.length === 0 ? [env, env] : [o.ledgerToken[0], o.ledgerToken.at(-1)];
  for (const url of [...o.scanUrl, ...o.ledgerUrl]) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`not an http(s) URL: ${url}`);
  }
  const node = (i: 0 | 1): CompareNode => ({
    ...(o.scanUrl[i] ? { scanUrl: o.scanUrl[i] } : {}),
    ...(o.ledgerUrl[i] ? { ledgerUrl: o.ledgerUrl[i], ...(tokens[i] ? { ledgerToken: tokens[i] } : {}) } : {}),
  });
  return [node(0), node(1)];
}

export function summaryLines(r: CompareResult): string[] {
  const lines = [
    `nodes ${r.verdict}: ${r.summary.equal} of ${r.summary.reads} reads equal, ${r.summary.divergent} divergent (${r.summary.differences} differences)` +
      (r.summary.notCompared ? `, ${r.summary.notCompared} not compared` : ''),
  ];
  const unread = r.reads.filter((x) => !x.compared);
  for (const o of unread.slice(0, PRINTED.reads)) lines.push(`  ${o.read.method} ${o.read.interface} ${o.read.path} (${o.read.what}): ${o.note}`);
  const divergent = r.reads.filter((x) => x.compared && !x.equal);
  for (const o of divergent.slice(0, PRINTED.reads)) {
    lines.push(`  ${o.read.method} ${o.read.interface} ${o.read.path} (${o.read.what})`);
    const d = differenceLines(o, PRINTED.chars);
    const more = d.length - PRINTED.differences;
    lines.push(...d.slice(0, PRINTED.differences).map((l) => `    ${l}`), ...(more > 0 ? [`    ... ${more} more in the report`] : []));
  }
  if (divergent.length > PRINTED.reads) lines.push(`  ... ${divergent.length - PRINTED.reads} more divergent reads in the report`);
  return lines;
}

export async function compare(o: CompareCliOptions): Promise<ExitCode> {
  const [a, b] = nodes(o);
  const bounds = {
    timeoutMs: integer('--timeout-ms', o.timeoutMs, 1),
    maxRequests: integer('--max-requests', o.maxRequests, 1),
    maxPages: integer('--max-pages', o.maxPages, 1),
    concurrency: integer('--concurrency', o.concurrency, 1, 64),
  };
  const report = await reserveReportDir(o.reportDir);
  let result: CompareResult;
  try {
    result = await compareNodes({ a, b, ...bounds });
  } catch (e) {
    // Nothing to write (e.g. a node nothing answers at, exit 2): no empty folder is left behind.
    await report.discardIfEmpty();
    throw e;
  }
  const file = await writeCompareReports(report.dir, result);
  for (const line of summaryLines(result)) console.log(line);
  console.log(`report: ${file} (junit.xml and compare.html beside it)`);
  // Incomplete: no difference, but not everything was compared; that is no "equal".
  return result.verdict === 'equal' ? EXIT.ok : result.verdict === 'divergent' ? EXIT.failed : EXIT.incomplete;
}

export const COMPARE_DEFAULTS = {
  timeoutMs: String(DEFAULT_BOUNDS.timeoutMs),
  maxRequests: String(DEFAULT_BOUNDS.maxRequests),
  maxPages: '20',
  concurrency: '4',
};
