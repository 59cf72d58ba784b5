// `npm run detection [-- --scope all] [--out DIR] [--fault PATTERN ...]`: runs the detection matrix and writes
// DIR/detection.json and DIR/detection.md (default reports/); `--fault` (repeatable, `*` wildcards) runs only
// the faults it names, for a quick look at a few (the report then scores those only). Exit 0 when the clean run passes and every fault is detected exactly as
// its record names, 1 otherwise, 2 on a usage error. It also records, per fault it ran, the requirements that
// failed in traceability/proof.json (what docs/traceability.md counts sentences proven by).
import { parseArgs } from 'node:util';
import { globToRegExp } from '../common/glob.ts';
import { BLIND_FAULTS, DEVIATION_CATALOG, FAULT_CATALOG } from '../reference-node/faults.ts';
import { blindInMatrix } from './blind-faults.ts';
import { runDetection, type DetectionScope } from './matrix.ts';
import { recordProof } from './proof-file.ts';
import { buildDetectionReport, writeDetectionReports } from './report.ts';

const USAGE = 'usage: npm run detection -- [--scope interface|all|operation|sentence] [--out DIR] [--concurrency N] [--fault PATTERN ...] [--runs N]';

async function main(): Promise<number> {
  let values: { scope?: string; out?: string; concurrency?: string; fault?: string[]; runs?: string };
  try {
    ({ values } = parseArgs({
      options: {
        scope: { type: 'string', default: 'interface' },
        out: { type: 'string', default: 'reports' },
        concurrency: { type: 'string', default: '4' },
        fault: { type: 'string', multiple: true },
        runs: { type: 'string' },
      },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const concurrency = Number(values.concurrency);
  const runs = values.runs === undefined ? undefined : Number(values.runs);
  if (runs !== undefined && (!Number.isInteger(runs) || runs < 1)) {
    console.error(`--runs must be a positive integer, got ${JSON.stringify(values.runs)}\n${USAGE}`);
    return 2;
  }
  if (!['interface', 'all', 'operation', 'sentence'].includes(values.scope!) || !Number.isInteger(concurrency) || concurrency < 1) {
    console.error(USAGE);
    return 2;
  }
  const patterns = (values.fault ?? []).map(globToRegExp);
  // The catalog's faults and deviations, and the blind faults of the closed rounds (blind-faults.ts).
  const blind = blindInMatrix();
  const picked = <F extends { name: string }>(all: readonly F[]) => (patterns.length ? all.filter((f) => patterns.some((p) => p.test(f.name))) : all);
  const faults = picked([...FAULT_CATALOG, ...blind.faults]);
  const deviations = patterns.length ? picked(blind.deviations) : [...DEVIATION_CATALOG, ...blind.deviations];
  if (faults.length + deviations.length === 0) {
    console.error(`no fault matches ${values.fault!.join(', ')} (see \`cn-conformance serve-reference --list-faults\`)`);
    return 2;
  }
  const started = performance.now();
  const run = await runDetection({
    scope: values.scope as DetectionScope,
    faults,
    runs,
    // A look at a few faults leaves the catalog's deviations out.
    deviations,
    concurrency,
    onFault: (o, done, total) => {
      const mark = o.unexpected.length || o.missed.length || o.unmatchedPatterns.length || o.failed.length === 0 ? 'MISMATCH' : 'ok';
      process.stderr.write(`[${String(done).padStart(3)}/${total}] ${mark.padEnd(8)} ${o.fault}\n`);
    },
  });
  const report = buildDetectionReport(run, faults);
  const paths = await writeDetectionReports(values.out!, report);
  // A requirement failing only because it calls an operation the fault refuses proves nothing of the fault.
  const proof = recordProof(
    run.outcomes.map((o) => ({ fault: o.fault, failed: o.failed.filter((id) => !o.incidental.includes(id)) })),
    [...FAULT_CATALOG, ...BLIND_FAULTS].map((f) => f.name),
  );
  const s = report.score;
  const frac = (r: { count: number; total: number }) => `${r.count}/${r.total}`;
  console.log(`clean run: ${report.clean.passed ? 'all passed' : `${report.clean.notPassed.length} did not pass`}`);
  const deviationsOk = report.deviations.filter((d) => d.ok).length;
  if (report.deviations.length) console.log(`deviations: ${deviationsOk}/${report.deviations.length} fail no MUST requirement and exactly their findings`);
  for (const d of report.deviations.filter((x) => !x.ok))
    console.log(`  NOT OK ${d.deviation}: failed ${d.failed.join(', ') || 'nothing'} (findings ${d.findings.join(', ') || 'none'}); ${d.mustWrong.join('; ')}`);
  console.log(
    `detection score: ${frac(s.faultsDetected)} faults detected, ${frac(s.faultsExact)} exact; requirements proven ${frac(s.requirementsProven)} (rules ${frac(s.rulesProven)}, generic ${frac(s.genericProven)})`,
  );
  console.log(`recorded the faults' failures in ${proof} (regenerate docs/traceability.md from it)`);
  console.log(`wrote ${paths.json} and ${paths.markdown} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e);
    process.exitCode = 3;
  },
);
