// `cn-conformance compare`: two nodes of one network, the same reads, every difference listed. A thin shell
// over runner/compare: it checks the options, writes the reports and turns the verdict into the exit code.
import { compareNodes, type CompareNode, type CompareResult } from '../runner/compare/compare.ts';
import { answerLines, causeTitle, firstRead, occurrenceLines, refusalLines } from '../reporting/compare-causes.ts';
import { writeCompareReports } from '../reporting/compare-report.ts';
import { Scrubber, urlSecrets } from '../runner/redaction.ts';
import { UsageError } from '../runner/usage-error.ts';
import { sendable } from './secrets.ts';
import { CREDENTIAL_VARIABLES } from '../engine/target.ts';
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

/** What the console shows (the reports hold everything): causes, reads per cause, unread reads, characters per value. */
const PRINTED = { causes: 20, readsPerCause: 5, reads: 20, chars: 120 };

/**
 * The variable a node's curl lines name for its token: the run's when one token serves both nodes, one per
 * node when they differ (a pasted line must send the token that node was sent).
 */
const tokenVariable = (tokens: Array<string | undefined>, i: 0 | 1) =>
  tokens[0] === tokens[1] ? CREDENTIAL_VARIABLES.ledger.bearer! : `${CREDENTIAL_VARIABLES.ledger.bearer}_${i === 0 ? 'A' : 'B'}`;

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
  const env = process.env[CREDENTIAL_VARIABLES.ledger.bearer!]?.trim() || undefined;
  const tokens = o.ledgerToken.length === 0 ? [env, env] : [o.ledgerToken[0], o.ledgerToken.at(-1)];
  const origin = (i: number) =>
    o.ledgerToken.length === 0
      ? `the environment variable ${CREDENTIAL_VARIABLES.ledger.bearer}`
      : `--ledger-token${o.ledgerToken.length === 2 ? ` (${i === 0 ? 'A' : 'B'})` : ''}`;
  tokens.forEach((t, i) => t && sendable({ value: t, from: origin(i) }));
  for (const url of [...o.scanUrl, ...o.ledgerUrl]) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`not an http(s) URL: ${url}`);
  }
  const node = (i: 0 | 1): CompareNode => ({
    ...(o.scanUrl[i] ? { scanUrl: o.scanUrl[i] } : {}),
    ...(o.ledgerUrl[i] ? { ledgerUrl: o.ledgerUrl[i], ...(tokens[i] ? { ledgerToken: tokens[i], ledgerTokenVariable: tokenVariable(tokens, i) } : {}) } : {}),
  });
  return [node(0), node(1)];
}

export function summaryLines(r: CompareResult): string[] {
  const lines = [
    `nodes ${r.verdict}: ${r.summary.equal} of ${r.summary.reads} reads equal, ${r.summary.divergent} divergent (${r.summary.differences} differences${r.summary.causes ? `, ${r.summary.causes} ${r.summary.causes === 1 ? 'cause' : 'causes'}` : ''})` +
      (r.summary.notCompared ? `, ${r.summary.notCompared} not compared` : ''),
  ];
  const unread = r.reads.filter((x) => !x.compared);
  for (const o of unread.slice(0, PRINTED.reads))
    lines.push(`  ${o.read.method} ${o.read.interface} ${o.read.path} (${o.read.what}): ${o.note}`, ...refusalLines(o).map((l) => `    ${l}`));
  if (unread.length > PRINTED.reads) lines.push(`  ... ${unread.length - PRINTED.reads} more reads not compared in the report`);
  // Cause by cause: one diverging contract or one refused route is one entry, however many reads show it.
  for (const c of r.causes.slice(0, PRINTED.causes)) {
    lines.push(`  ${causeTitle(c, PRINTED.chars)}`);
    const first = firstRead(r, c);
    if (c.kind === 'status' && first) lines.push(...answerLines(first, PRINTED.chars).map((l) => `    ${l}`));
    const where = occurrenceLines(r, c);
    const more = where.length - PRINTED.readsPerCause;
    lines.push(...where.slice(0, PRINTED.readsPerCause).map((l) => `    ${l}`), ...(more > 0 ? [`    ... ${more} more reads in the report`] : []));
  }
  if (r.causes.length > PRINTED.causes) lines.push(`  ... ${r.causes.length - PRINTED.causes} more causes in the report`);
  const variables = [...new Set(lines.flatMap((l) => l.match(/\$CN_CONFORMANCE_[A-Z_]+/g) ?? []))].map((v) => v.slice(1)).sort();
  if (variables.length)
    lines.push(
      `  (curl lines read the tokens from the environment: export ${variables.join(', ')} before pasting them${variables.some((v) => v.endsWith('_B')) ? "; _A holds A's --ledger-token, _B B's" : ''})`,
    );
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
  // No token or URL secret reaches a file or the console, whatever quoted it (a body that echoes a token).
  const scrubber = new Scrubber([...[a, b].map((n) => n.ledgerToken), ...[...o.scanUrl, ...o.ledgerUrl].flatMap(urlSecrets)]);
  const scrub = (t: string) => scrubber.scrub(t);
  const file = await writeCompareReports(report.dir, result, scrub);
  for (const line of summaryLines(result)) console.log(scrub(line));
  console.log(`report: ${file} (junit.xml and compare.html beside it)`);
  // Incomplete: no difference, but not everything was compared; that is no "equal".
  return result.verdict === 'equal' ? EXIT.ok : result.verdict === 'divergent' ? EXIT.failed : EXIT.incomplete;
}
