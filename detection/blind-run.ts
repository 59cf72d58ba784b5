// `npm run detection:blind -- [--round N] [--fault PATTERN ...] [--out DIR] [--concurrency N] [--record]`: scores the blind
// faults (see blind.ts) and writes DIR/blind.json (default reports/); `--record` also writes what each caught fault
// made fail into detection/blind-caught-by.ts (the matrix's expectation, blind-faults.ts), to be reviewed. Prints, per round, how many the suite caught and
// each survivor with the sentence it breaks. Exit 0 once scored (a survivor is a finding, not an error),
// 1 when the clean run does not pass, 2 on a usage error. It also records, per fault it ran, the requirements
// that failed in traceability/proof.json (what docs/traceability.md counts sentences proven by).
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { globToRegExp } from '../common/glob.ts';
import { BLIND_FAULTS, FAULT_CATALOG } from '../reference-node/faults.ts';
import { recordProof } from './proof-file.ts';
import { scoreBlind } from './blind.ts';
import { caughtBySource } from './blind-faults.ts';
import { BLIND_CAUGHT_BY } from './blind-caught-by.ts';

const USAGE = 'usage: npm run detection:blind -- [--round N] [--fault PATTERN ...] [--out DIR] [--concurrency N] [--record]';

async function main(): Promise<number> {
  let values: { round?: string; out?: string; concurrency?: string; fault?: string[]; record?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        round: { type: 'string' },
        fault: { type: 'string', multiple: true },
        out: { type: 'string', default: 'reports' },
        concurrency: { type: 'string', default: '4' },
        record: { type: 'boolean', default: false },
      },
    }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const concurrency = Number(values.concurrency);
  const round = values.round === undefined ? undefined : Number(values.round);
  if (!Number.isInteger(concurrency) || concurrency < 1 || (round !== undefined && !Number.isInteger(round))) {
    console.error(USAGE);
    return 2;
  }
  const patterns = (values.fault ?? []).map(globToRegExp);
  const faults = BLIND_FAULTS.filter((f) => (round === undefined || f.round === round) && (patterns.length === 0 || patterns.some((p) => p.test(f.name))));
  if (faults.length === 0) {
    console.error(
      `no blind fault${round === undefined ? '' : ` of round ${round}`}${patterns.length ? ` matches ${values.fault!.join(', ')}` : ''} (reference-node/blind/)`,
    );
    return 2;
  }
  const scored = await scoreBlind({
    faults,
    concurrency,
    onFault: (o, done, total) => process.stderr.write(`[${String(done).padStart(3)}/${total}] ${o.caught ? 'caught  ' : 'MISSED  '} ${o.fault}\n`),
  });
  await mkdir(values.out!, { recursive: true });
  const path = join(values.out!, 'blind.json');
  await writeFile(path, `${JSON.stringify(scored, null, 2)}\n`);
  const proof = recordProof(
    scored.rounds.flatMap((r) => r.outcomes.map((o) => ({ fault: o.fault, failed: o.failed.map((x) => x.id) }))),
    [...FAULT_CATALOG, ...BLIND_FAULTS].map((f) => f.name),
  );
  console.log(`recorded the faults' failures in ${proof}`);
  if (scored.clean.length > 0) console.log(`the clean node does not pass: ${scored.clean.join(', ')}`);
  for (const r of scored.rounds) {
    console.log(`round ${r.round}: caught ${r.caught} of ${r.total} (${Math.round((100 * r.caught) / r.total)} %)`);
    for (const o of r.outcomes.filter((x) => !x.caught)) console.log(`  missed ${o.fault} [${o.interface}]: ${o.breaks}`);
  }
  console.log(`Written ${path}`);
  if (values.record && scored.clean.length === 0) {
    const file = new URL('./blind-caught-by.ts', import.meta.url);
    const header = (await readFile(file, 'utf8')).split('\nexport const BLIND_CAUGHT_BY')[0]!;
    await writeFile(
      file,
      caughtBySource(
        BLIND_CAUGHT_BY,
        scored.rounds.flatMap((r) => r.outcomes),
        header,
      ),
    );
    // In the repository's format, so that the review's diff shows only what changed.
    execFileSync('npx', ['biome', 'format', '--write', fileURLToPath(file)], { stdio: 'ignore' });
    console.log(`Recorded what the caught faults made fail in detection/blind-caught-by.ts: review it`);
  }
  return scored.clean.length > 0 ? 1 : 0;
}

process.exitCode = await main();
