// `npm run bench`: measured figures with their targets, written to reports/bench.{json,md}; exit 1 when a
// target is missed. Every sample runs in a fresh process (cold JIT and module loading included), and the
// reference node runs in a process of its own except in figure 1, where the run embeds it as a user's does.
// BENCH_SAMPLES (default 5) sets the samples per figure; BENCH_ONLY (a comma-separated list of run, overhead,
// holdings, ledger, spec, remote, lookups, package) measures only those figures and writes reports/bench-<names>.{json,md} instead, so a
// partial run never replaces the full report.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLargeDocument } from './large-document.ts';
import { ROUND_TRIP_MS } from './delay-proxy.ts';
import { figure, growthRatio, median, renderMarkdown, type BenchReport, type Figure, type ScalePoint } from './figures.ts';
import { packAndInstall } from './packed-install.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);
if (!Number.isInteger(SAMPLES) || SAMPLES < 1) throw new Error(`BENCH_SAMPLES must be a positive integer, got ${process.env.BENCH_SAMPLES}`);
const CHILD_TIMEOUT_MS = 10 * 60_000;
const GROUPS = ['run', 'overhead', 'holdings', 'ledger', 'spec', 'remote', 'lookups', 'package'] as const;
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => s.trim()) : undefined;
const unknown = ONLY?.filter((g) => !(GROUPS as readonly string[]).includes(g)) ?? [];
if (unknown.length > 0 || ONLY?.length === 0) throw new Error(`BENCH_ONLY takes a comma-separated list of ${GROUPS.join(', ')}; got ${process.env.BENCH_ONLY}`);
const measures = (group: (typeof GROUPS)[number]) => !ONLY || ONLY.includes(group);

/** Runs a script of bench/ in a fresh process; its last stdout line, parsed. */
function sample<T>(script: string, args: string[]): T {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: CHILD_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  const last = r.stdout?.trim().split('\n').at(-1);
  if (r.status !== 0 || !last)
    throw new Error(`bench/${script} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr?.slice(-2000)}`);
  return JSON.parse(last) as T;
}

const progress = (s: string) => process.stderr.write(`bench: ${s}\n`);

/** 1. The default conformance run (`cn-conformance run`, embedded reference node), start-up included. */
function conformanceRun(): Figure {
  const seconds: number[] = [];
  const requests: number[] = [];
  let summary = '';
  for (let i = 0; i < SAMPLES; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'cn-bench-run-'));
    try {
      const started = performance.now();
      const r = spawnSync(process.execPath, [join(root, 'bin/cn-conformance.js'), 'run', '--report-dir', dir], {
        cwd: root,
        encoding: 'utf8',
        timeout: CHILD_TIMEOUT_MS,
      });
      seconds.push((performance.now() - started) / 1000);
      if (r.status !== 0) throw new Error(`the default run exited ${r.status ?? r.error?.message}: ${(r.stdout + r.stderr).slice(-2000)}`);
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { requestsSent?: number; summary: { total: number; passed: number } };
      if (typeof report.requestsSent !== 'number') throw new Error('report.json does not record requestsSent');
      requests.push(report.requestsSent);
      summary = `${report.summary.passed}/${report.summary.total} requirements passed`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    progress(`conformance run ${i + 1}/${SAMPLES}: ${seconds.at(-1)!.toFixed(1)} s`);
  }
  return figure({
    id: '1',
    name: 'Default conformance run against the embedded reference node (wall time, start-up included)',
    value: median(seconds),
    unit: 's',
    target: 20,
    samples: seconds,
    detail: `${median(requests)} requests sent (samples ${[...new Set(requests)].join(', ')}); ${summary}; \`cn-conformance run\` in a fresh process per sample`,
  });
}

/** 2. Suite overhead: the same request sequence, bare undici vs the suite's request, validation and recording. */
function overhead(): Figure {
  progress('suite overhead (capture, warm-up, then alternating replays)');
  const r = sample<{
    requests: number;
    validated: number;
    leftOut: { idle: number; unanswered: number };
    bareMs: number[];
    clientMs: number[];
    suiteMs: number[];
  }>('overhead-sample.ts', [String(SAMPLES)]);
  const ratios = r.suiteMs.map((s, i) => s / r.bareMs[i]!);
  const ms = (xs: number[]) => `${Math.round(median(xs))} ms`;
  return figure({
    id: '2',
    name: "Suite overhead: the suite's path over a bare undici replay of the same requests (time ratio)",
    value: median(ratios),
    unit: 'x',
    target: 1.3,
    samples: ratios,
    detail:
      `${r.requests} requests of the default run's read-only requirements, in order, against one reference node in its own process ` +
      `(${r.leftOut.idle} open-ended reads left out: the node answers them after its idle timeout). Medians: bare undici ${ms(r.bareMs)}; ` +
      `suite Client.request alone ${ms(r.clientMs)} (${(median(r.clientMs) / median(r.bareMs)).toFixed(2)}x); full path ${ms(r.suiteMs)} ` +
      `(Client.request, then responseProblems on all ${r.validated} documented answers and an evidence summary of every exchange, ` +
      'more than a run does). Value: the median of the per-pass ratios (the passes of a sample run back to back).',
  });
}

/** 5. The default run with mutations allowed against the reference node behind a 50 ms round-trip proxy. */
function remoteRun(): Figure {
  const runs: Array<{ requests: number; wallMs: number; discoveryMs: number; criticalMs: number; statuses: Record<string, number>; notPassed: string[] }> = [];
  for (let i = 0; i < SAMPLES; i++) {
    runs.push(sample('remote-run-sample.ts', []));
    progress(`remote run ${i + 1}/${SAMPLES}: ${(runs.at(-1)!.wallMs / 1000).toFixed(1)} s`);
  }
  const ratios = runs.map((r) => r.wallMs / (r.requests * ROUND_TRIP_MS));
  const notPassed = [...new Set(runs.flatMap((r) => r.notPassed))];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return figure({
    id: '5',
    name: `Default run with --allow-mutations against the reference node behind a ${ROUND_TRIP_MS} ms round-trip proxy: wall time over (requests x ${ROUND_TRIP_MS} ms)`,
    value: median(ratios),
    unit: 'x',
    target: 0.2,
    complete: notPassed.length === 0,
    samples: ratios,
    detail:
      `${median(runs.map((r) => r.requests))} requests, wall ${s(median(runs.map((r) => r.wallMs)))} (preflight and discovery ${s(median(runs.map((r) => r.discoveryMs)))}); ` +
      `critical path ${s(median(runs.map((r) => r.criticalMs)))} (${Math.round(median(runs.map((r) => r.criticalMs)) / ROUND_TRIP_MS)} round trips: discovery, then per lane of the engine its longest requirement); ` +
      `default concurrency; ${notPassed.length ? `not passed: ${notPassed.join('; ')}` : 'every requirement passed'}`,
  });
}

interface ScaleSample {
  items: number;
  units?: number;
  ms?: number;
  requests?: number;
  rssKb: number;
  nodeRssKb: number;
  error?: string;
}

function scalePoints(kind: 'holdings' | 'ledger', sizes: Array<{ scale: number; label: string }>, unit: string): ScalePoint[] {
  return sizes.map(({ scale, label }) => {
    const point: ScalePoint = { label, items: 0, unit, units: 0, ms: [], requests: 0, rssKb: [], nodeRssKb: [] };
    for (let i = 0; i < SAMPLES; i++) {
      const s = sample<ScaleSample>('scale-sample.ts', [kind, String(scale)]);
      point.items = s.items;
      if (s.error) {
        // A size the suite cannot run does not become faster with more samples.
        point.error = s.error;
        break;
      }
      point.ms.push(s.ms!);
      point.units = s.units!;
      point.requests = s.requests!;
      point.rssKb.push(s.rssKb);
      point.nodeRssKb.push(s.nodeRssKb);
      progress(`${kind} ${label} ${i + 1}/${SAMPLES}: ${Math.round(s.ms!)} ms, ${Math.round(s.rssKb / 1024)} MB`);
    }
    if (point.error) progress(`${kind} ${label}: not measured: ${point.error}`);
    return point;
  });
}

/** 3. Scale: time per unit across sizes (linear growth) and peak RSS of the suite's process at the largest size. */
function scaleFigures(id: string, what: string, points: ScalePoint[]): Figure[] {
  const largest = points.at(-1)!;
  const measured = points.filter((p) => !p.error);
  const ratio = growthRatio(points);
  const per = (p: ScalePoint) => `${p.label} ${(median(p.ms) / p.units).toPrecision(3)} ms/${p.unit}`;
  const missing = points.filter((p) => p.error).map((p) => `${p.label}: not measured (${p.error})`);
  return [
    figure({
      id: `${id}a`,
      name: `${what}: time per ${largest.unit} at the largest over the smallest measured size (linear growth; every size must be measured)`,
      value: ratio ?? null,
      unit: 'x',
      target: 1.5,
      complete: missing.length === 0,
      samples: measured.map((p) => median(p.ms) / p.units),
      detail: [measured.map(per).join('; '), ...missing].join('; '),
    }),
    figure({
      id: `${id}b`,
      name: `${what}: peak RSS of the suite's process at ${largest.label}`,
      value: largest.error ? null : median(largest.rssKb) / 1024,
      unit: 'MB',
      target: 300,
      samples: largest.rssKb.map((k) => k / 1024),
      detail: largest.error
        ? missing.join('; ') + (measured.length ? `; at ${measured.at(-1)!.label}: ${Math.round(median(measured.at(-1)!.rssKb) / 1024)} MB` : '')
        : `the node's own process peaked at ${Math.round(median(largest.nodeRssKb) / 1024)} MB`,
    }),
  ];
}

/** 4. Loading the generated ~300 KB document and compiling all its validators. */
function specLoading(): Figure {
  const file = join(mkdtempSync(join(tmpdir(), 'cn-bench-')), 'large-ledger-like.json');
  const stats = writeLargeDocument(file);
  const runs = Array.from({ length: SAMPLES }, () => sample<{ millis: number; validators: number }>('spec-loading-sample.ts', [file]));
  const samples = runs.map((r) => Math.round(r.millis));
  return figure({
    id: '4',
    name: 'Spec loading: load + compile all validators of the generated ledger-like document',
    value: median(samples),
    unit: 'ms',
    target: 2000,
    samples,
    detail: `${(stats.bytes / 1024).toFixed(0)} KB, ${stats.schemas} schemas, ${stats.operations} operations, ${runs[0]!.validators} validators; a fresh process per sample`,
  });
}

function scanLookups(): Figure {
  const runs = Array.from({ length: SAMPLES }, () =>
    sample<{ slowest: string; slowestMs: number; ms: Record<string, number>; updates: number; holdings: number }>('scan-lookups-sample.ts', []),
  );
  const samples = runs.map((r) => r.slowestMs);
  const last = runs.at(-1)!;
  return figure({
    id: '6',
    name: 'Scan lookups near the end of a large history (scale 1000): the slowest of holdings, ACS, by-id, list and bulk lookups',
    value: median(samples),
    unit: 'ms',
    target: 1000,
    samples,
    detail: `${last.updates} updates, ${last.holdings} holdings; last sample: ${Object.entries(last.ms)
      .map(([what, ms]) => `${what} ${ms} ms`)
      .join('; ')}`,
  });
}

/** Wall seconds of `command args` in a fresh process, once per sample; every one must exit 0. */
function startUp(what: string, command: string, args: string[], cwd: string): number[] {
  return Array.from({ length: SAMPLES }, () => {
    const started = performance.now();
    const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    const s = (performance.now() - started) / 1000;
    if (r.status !== 0) throw new Error(`${what} exited ${r.status ?? r.error?.message}: ${r.stderr?.slice(-2000)}`);
    return s;
  });
}

/** Bytes of every file under a folder. */
const folderBytes = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);

/** 7. The package as a user installs it (`npm pack`, then an install of the tarball): its size, and how soon its command answers. */
async function packageFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cn-bench-package-'));
  try {
    progress('package: npm pack (prepack compiles dist/), then an offline install of the tarball');
    const p = await packAndInstall(dir);
    const installedMb = folderBytes(join(p.prefix, 'node_modules')) / 1024 / 1024;
    const version = startUp('cn-conformance --version', p.bin, ['--version'], p.prefix);
    const list = startUp('cn-conformance list', p.bin, ['list'], p.prefix);
    const fromCheckout = startUp('bin/cn-conformance.js --version', process.execPath, [join(root, 'bin/cn-conformance.js'), '--version'], root);
    const s = (xs: number[]) => `${median(xs).toFixed(2)} s`;
    return [
      figure({
        id: '7a',
        name: 'Packed size: the tarball `npm pack` makes',
        value: p.bytes,
        unit: 'bytes',
        target: 1_000_000,
        samples: [p.bytes],
        detail: `${p.files.length} files (${p.files.filter((f) => f.startsWith('dist/')).length} compiled), ${p.unpackedBytes} bytes unpacked; installed with its dependencies: ${installedMb.toFixed(0)} MB`,
      }),
      figure({
        id: '7b',
        name: 'Start-up: `cn-conformance --version` of the installed package (wall time of a fresh process)',
        value: median(version),
        unit: 's',
        target: 1,
        samples: version,
        detail: `the compiled entry (dist/cli/main.js); the checkout's bin/cn-conformance.js through tsx: ${s(fromCheckout)}`,
      }),
      figure({
        id: '7c',
        name: 'Start-up: `cn-conformance list` of the installed package (wall time of a fresh process)',
        value: median(list),
        unit: 's',
        target: 3,
        samples: list,
        detail: 'loads the three documents and compiles their validators (the generic requirements come from them), then prints the catalog',
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const loadBefore = load();
const figures: Figure[] = [];
if (measures('run')) figures.push(conformanceRun());
if (measures('overhead')) figures.push(overhead());
const scale: BenchReport['scale'] = {};
if (measures('holdings')) {
  const holdings = scalePoints(
    'holdings',
    [
      { scale: 100, label: '10k' },
      { scale: 1000, label: '100k' },
    ],
    'page',
  );
  figures.push(...scaleFigures('3.1', 'Holdings paging completeness (SCAN-HOLDINGS-PAGING-COMPLETE)', holdings));
  scale[
    'Holdings paging completeness: the requirement SCAN-HOLDINGS-PAGING-COMPLETE over all holdings of the fixture owners (10k: scale 100, 100k: scale 1000); unit: one page request'
  ] = holdings;
}
if (measures('ledger')) {
  const ledger = scalePoints(
    'ledger',
    [
      { scale: 10, label: '10k' },
      { scale: 100, label: '100k' },
      { scale: 1000, label: '1M' },
    ],
    'update',
  );
  figures.push(...scaleFigures('3.2', 'Ledger stream read in windows', ledger));
  scale[
    'Ledger stream: the whole history read in windows of 1000 updates with readWindow (10k/100k/1M: scale 10/100/1000, list limit 1000); unit: one update of the history'
  ] = ledger;
}
if (measures('spec')) figures.push(specLoading());
if (measures('remote')) figures.push(remoteRun());
if (measures('lookups')) figures.push(scanLookups());
if (measures('package')) figures.push(...(await packageFigures()));

const machine = `${process.platform} ${process.arch}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, load average ${loadBefore} before / ${load()} after`;
const report: BenchReport = { date: new Date().toISOString(), machine, samples: SAMPLES, figures, scale };
const outDir = join(root, 'reports');
const name = ONLY ? `bench-${ONLY.join('-')}` : 'bench';
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${name}.json`), JSON.stringify(report, null, 2) + '\n');
const markdown = renderMarkdown(report);
writeFileSync(join(outDir, `${name}.md`), `# Benchmark${ONLY ? ` (${ONLY.join(', ')} only)` : ''}\n\n${markdown}`);
console.log(markdown);
if (figures.some((f) => !f.met)) {
  console.log(
    `Missed: ${figures
      .filter((f) => !f.met)
      .map((f) => f.id)
      .join(', ')}`,
  );
  process.exitCode = 1;
}
