// The benchmark's figures and their rendering: pure functions of the measured samples.

export interface Figure {
  id: string;
  name: string;
  /** The measured figure (a median, or a ratio of medians); null when it could not be measured. */
  value: number | null;
  unit: string;
  /** The value must be at most this. */
  target: number;
  samples: number[];
  detail: string;
  met: boolean;
}

/** One size of a scale workload, with the medians of its samples. */
export interface ScalePoint {
  label: string;
  /** Size of the workload (holdings in the set, updates in the history). */
  items: number;
  /** What `perUnit` counts (e.g. "page", "update"), and how many of those the measured part handled. */
  unit: string;
  units: number;
  ms: number[];
  requests: number;
  rssKb: number[];
  nodeRssKb: number[];
  /** Why this size could not be measured. */
  error?: string;
}

export interface BenchReport {
  date: string;
  machine: string;
  samples: number;
  figures: Figure[];
  scale: Record<string, ScalePoint[]>;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `complete: false`: part of the figure could not be measured (the detail says which), so it is not met. */
export function figure(f: Omit<Figure, 'met'> & { complete?: boolean }): Figure {
  const { complete = true, ...rest } = f;
  return { ...rest, met: complete && f.value !== null && Number.isFinite(f.value) && f.value <= f.target };
}

/** Milliseconds per unit of a measured point (median of its samples). */
export const perUnit = (p: ScalePoint): number => median(p.ms) / p.units;

/**
 * Linear growth: the time per unit at the largest measured size over the time per unit at the smallest.
 * Fixed costs make small sizes dearer per unit, so a linear workload stays at or below 1; a quadratic one
 * grows with the size ratio. Undefined with fewer than two measured sizes.
 */
export function growthRatio(points: readonly ScalePoint[]): number | undefined {
  const ok = points.filter((p) => !p.error && p.ms.length > 0).sort((a, b) => a.items - b.items);
  if (ok.length < 2) return undefined;
  return perUnit(ok.at(-1)!) / perUnit(ok[0]!);
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const mb = (kb: number) => Math.round(kb / 1024);

export function formatValue(f: Figure): string {
  return f.value === null ? 'not measured' : `${round(f.value)} ${f.unit}`.trim();
}

export function renderMarkdown(r: BenchReport): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    `Benchmark of ${r.date.slice(0, 10)} on ${r.machine}; ${r.samples} samples per figure (medians).`,
    '',
    '| # | figure | median | target | ratio | met | samples | detail |',
    '|---|---|---|---|---|---|---|---|',
    ...r.figures.map(
      (f) =>
        `| ${f.id} | ${cell(f.name)} | ${formatValue(f)} | ≤ ${f.target} ${f.unit} | ${f.value === null ? '-' : round(f.value / f.target)} | ${f.met ? 'yes' : '**no**'} | ${f.samples.map((s) => round(s)).join(', ')} | ${cell(f.detail)} |`,
    ),
  ];
  for (const [name, points] of Object.entries(r.scale)) {
    lines.push('', `${name}:`, '', '| size | items | requests | median ms | ms per unit | suite peak RSS | node peak RSS |', '|---|---|---|---|---|---|---|');
    for (const p of points) {
      if (p.error) lines.push(`| ${p.label} | ${p.items} | - | - | - | - | not measured: ${cell(p.error)} |`);
      else
        lines.push(
          `| ${p.label} | ${p.items} | ${p.requests} | ${Math.round(median(p.ms))} | ${perUnit(p).toPrecision(3)} per ${p.unit} | ${mb(median(p.rssKb))} MB | ${mb(median(p.nodeRssKb))} MB |`,
        );
    }
  }
  return lines.join('\n') + '\n';
}
