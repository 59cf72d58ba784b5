// `npm run bench`: measured figures with their targets, written to reports/bench.{json,md}.
// Each sample runs in a fresh process, so the figures include cold JIT and module loading.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLargeDocument } from '../generators/large-document.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5);

interface Figure { name: string; value: number; unit: string; target: number; samples: number[]; detail: string }

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };

function specLoading(): Figure {
  const file = join(mkdtempSync(join(tmpdir(), 'cn-bench-')), 'large-ledger-like.json');
  const stats = writeLargeDocument(file);
  const runs = Array.from({ length: SAMPLES }, () => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', join(root, 'bench/spec-loading-sample.ts'), file], { cwd: root, encoding: 'utf8' })) as { millis: number; validators: number });
  const samples = runs.map((r) => Math.round(r.millis));
  return {
    name: 'Spec loading: load + compile all validators of the generated ledger-like document',
    value: median(samples), unit: 'ms', target: 2000, samples,
    detail: `${(stats.bytes / 1024).toFixed(0)} KB, ${stats.schemas} schemas, ${stats.operations} operations, ${runs[0]!.validators} validators`,
  };
}

const figures = [specLoading()];
const machine = `${process.platform} ${process.arch}, Node ${process.version}, ${(await import('node:os')).cpus().length} cores`;
const outDir = join(root, 'reports');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'bench.json'), JSON.stringify({ date: new Date().toISOString(), machine, figures }, null, 2) + '\n');
const lines = [
  `# Benchmark (${new Date().toISOString().slice(0, 10)}, ${machine})`, '',
  '| figure | median | target | ratio | samples | detail |', '|---|---|---|---|---|---|',
  ...figures.map((f) => `| ${f.name} | ${f.value} ${f.unit} | < ${f.target} ${f.unit} | ${(f.value / f.target).toFixed(2)} | ${f.samples.join(', ')} | ${f.detail} |`),
];
writeFileSync(join(outDir, 'bench.md'), lines.join('\n') + '\n');
console.log(lines.join('\n'));
if (figures.some((f) => f.value > f.target)) process.exitCode = 1;
