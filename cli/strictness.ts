// `cn-conformance strictness`: where one of our documents accepts less than the official documents of the
// same interface (a false alarm waiting for a correct node). Exit 0: never stricter; 1: stricter somewhere.
import { BUILTIN_SPECS, blockingFindings, compareStrictness, loadDocument, type StrictnessFinding, type StrictnessReport } from '../generators/index.ts';
import { EXIT, type ExitCode } from './exit-codes.ts';
import { UsageError } from '../runner/usage-error.ts';

export interface StrictnessOptions {
  ours: string;
  theirs: string[];
  json?: boolean;
  nullable?: boolean;
  verbose?: boolean;
}

export async function strictness(opts: StrictnessOptions): Promise<ExitCode> {
  if (opts.theirs.length === 0) throw new UsageError('--theirs names at least one official document (a path or a URL)');
  const builtin = (BUILTIN_SPECS as Record<string, string>)[opts.ours];
  const ours = await loadDocument(builtin ?? opts.ours, builtin ? { name: opts.ours } : {});
  const theirs = [];
  for (const source of opts.theirs) theirs.push(await loadDocument(source));
  const report = compareStrictness(ours, theirs);
  if (report.matched.length === 0) {
    throw new UsageError(`no operation of ${ours.name} is in ${opts.theirs.join(', ')} (same method and path): not the same interface?`);
  }
  const blocking = blockingFindings(report, { nullable: opts.nullable });
  if (opts.json) console.log(JSON.stringify({ ...report, blocking: blocking.length }, null, 2));
  else process.stdout.write(renderStrictness(report, blocking, opts.verbose === true));
  return blocking.length > 0 ? EXIT.failed : EXIT.ok;
}

export function renderStrictness(report: StrictnessReport, blocking: readonly StrictnessFinding[], verbose: boolean): string {
  const lines: string[] = [];
  lines.push(`ours:   ${report.ours.name} (${report.ours.source})`);
  for (const t of report.theirs) lines.push(`theirs: ${t.name} (${t.source})`);
  lines.push(
    `${report.matched.length} operations compared${report.unmatched.length > 0 ? `; not in theirs: ${report.unmatched.map((u) => u.endpoint).join(', ')}` : ''}`,
  );
  const blocks = new Set(blocking);
  const excused = report.findings.filter((f) => f.excused !== undefined);
  const informational = report.findings.filter((f) => !blocks.has(f) && f.excused === undefined);
  section(lines, `Stricter than theirs (${blocking.length})`, blocking, (f) =>
    f.kind === 'nullable' ? (f.side === 'request' ? 'null refused in a request' : 'null at a place ours requires: no policy tolerates it') : undefined,
  );
  section(lines, `Stricter because the description says so (${excused.length})`, excused, (f) => `description: ${f.excused}`);
  section(lines, `Informational (${informational.length})`, informational, (f) =>
    f.kind === 'nullable' ? 'null at a property ours leaves optional: tolerated at MUST, reported by a SHOULD requirement' : undefined,
  );
  if (report.notCompared.length > 0) {
    if (verbose) section(lines, `Not compared (${report.notCompared.length})`, [], undefined, report.notCompared);
    else lines.push(`${report.notCompared.length} answers or bodies not compared (theirs documents none): --verbose lists them`);
  }
  lines.push(blocking.length > 0 ? `STRICTER: ${blocking.length} places where ours refuses what theirs allows` : 'OK: ours is nowhere stricter than theirs');
  return lines.join('\n') + '\n';
}

function section(
  lines: string[],
  title: string,
  findings: readonly StrictnessFinding[],
  why?: (f: StrictnessFinding) => string | undefined,
  plain: string[] = [],
): void {
  if (findings.length === 0 && plain.length === 0) return;
  lines.push('', title);
  for (const p of plain) lines.push(`  ${p}`);
  let last = '';
  for (const f of findings) {
    const head = `${f.operation} (${f.endpoint})`;
    if (head !== last) lines.push(`  ${head}`);
    last = head;
    lines.push(`    ${f.side === 'request' ? 'request' : 'answer'} ${f.part} ${f.pointer || '(root)'}: ${f.kind}: ours ${f.ours}; theirs ${f.theirs}`);
    const extra = [f.note, why?.(f)].filter(Boolean);
    if (extra.length > 0) lines.push(`      ${extra.join('; ')}`);
  }
}
