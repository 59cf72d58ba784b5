// The benchmark's own arithmetic: medians, the growth rule and the table.
import { describe, expect, it } from 'vitest';
import { figure, growthRatio, median, renderMarkdown, type ScalePoint } from '../../bench/figures.ts';

const point = (items: number, ms: number[], units = items, error?: string): ScalePoint => ({
  label: `${items}`,
  items,
  unit: 'update',
  units,
  ms,
  requests: 1,
  rssKb: [1024],
  nodeRssKb: [2048],
  error,
});

describe('bench figures', () => {
  it('median of odd and even sample counts, NaN without samples', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('a figure is met only when measured and at most its target', () => {
    expect(figure({ id: '1', name: 'n', value: 20, unit: 's', target: 20, samples: [], detail: '' }).met).toBe(true);
    expect(figure({ id: '1', name: 'n', value: 20.1, unit: 's', target: 20, samples: [], detail: '' }).met).toBe(false);
    expect(figure({ id: '1', name: 'n', value: null, unit: 's', target: 20, samples: [], detail: '' }).met).toBe(false);
    expect(figure({ id: '1', name: 'n', value: 1, unit: 'x', target: 1.5, samples: [], detail: '', complete: false }).met).toBe(false);
  });

  it('growth ratio: time per unit at the largest over the smallest measured size', () => {
    // Linear with a fixed cost: per-unit time falls with size.
    expect(growthRatio([point(1000, [150]), point(100_000, [10_050])])).toBeCloseTo(10_050 / 100_000 / (150 / 1000));
    // Quadratic: per-unit time grows with the size.
    expect(growthRatio([point(100_000, [10_000]), point(10_000, [100])])).toBeCloseTo(10);
    // Sizes that could not be measured are left out; one size alone gives no ratio.
    expect(growthRatio([point(10, [1]), point(100, [], 100, 'skipped')])).toBeUndefined();
  });

  it('renders every figure with its target, ratio and verdict, and unmeasured sizes with their reason', () => {
    const md = renderMarkdown({
      date: '2026-01-02T00:00:00Z',
      machine: 'm',
      samples: 3,
      figures: [
        figure({ id: '2', name: 'a | b', value: 1.2, unit: 'x', target: 1.3, samples: [1.1, 1.2, 1.3], detail: 'd' }),
        figure({ id: '3', name: 'c', value: null, unit: 'MB', target: 300, samples: [], detail: 'e' }),
      ],
      scale: { w: [point(10, [5]), point(100, [], 100, 'bound')] },
    });
    expect(md).toContain('| 2 | a \\| b | 1.2 x | ≤ 1.3 x | 0.92 | yes | 1.1, 1.2, 1.3 | d |');
    expect(md).toContain('| 3 | c | not measured | ≤ 300 MB | - | **no** |  | e |');
    expect(md).toContain('| 10 | 10 | 1 | 5 | 0.500 per update | 1 MB | 2 MB |');
    expect(md).toContain('| 100 | 100 | - | - | - | - | not measured: bound |');
  });
});
