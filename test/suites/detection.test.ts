// The detection matrix: the whole suite against the clean reference node (every requirement passes,
// none skipped) and once per fault of the catalog (exactly the named requirements fail).
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledSpec } from '../../generators/index.ts';
import { FAULT_CATALOG } from '../../reference-node/faults.ts';
import { catalog } from '../../suites/catalog.ts';
import { judgeDetection } from '../../suites/detection.ts';
import type { Requirement } from '../../suites/model.ts';
import { failedIds, loadedSpecs, runOnFreshNode } from '../support/suite-harness.ts';

let specs: Record<string, CompiledSpec>;
let all: Requirement[];
beforeAll(async () => {
  specs = await loadedSpecs();
  all = catalog(specs);
});

describe('the suite on the clean reference node', () => {
  it('passes every requirement, skipping none (the node carries data for every rule)', async () => {
    const results = await runOnFreshNode({}, all);
    expect(results.length).toBe(all.length);
    expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
  }, 120_000);
});

describe('the detection matrix', () => {
  it('names, for every fault, at least one requirement that catches it', () => {
    const ids = new Set(all.map((r) => r.id));
    for (const f of FAULT_CATALOG) {
      expect(f.detectedBy?.length ?? 0, `${f.name} names no requirement`).toBeGreaterThan(0);
      for (const id of (f.detectedBy ?? []).filter((x) => !x.includes('*'))) expect(ids.has(id), `${f.name} names unknown requirement ${id}`).toBe(true);
    }
  });

  // Each fault switches on code in its own interface only, so its interface's requirements (including the
  // generic ones of that document) are the ones that can notice it; the clean run covers the rest.
  const BATCH = 4;
  const faults = [...FAULT_CATALOG];
  for (let i = 0; i < faults.length; i += BATCH) {
    const batch = faults.slice(i, i + BATCH);
    it(`faults ${batch.map((f) => f.name).join(', ')}: exactly the named requirements fail`, async () => {
      const verdicts = await Promise.all(batch.map(async (f) => {
        const scoped = all.filter((r) => r.interface === f.interface);
        const failed = failedIds(await runOnFreshNode({ faults: [f.name] }, scoped));
        return { fault: f.name, failed, ...judgeDetection(f, failed) };
      }));
      for (const v of verdicts) {
        expect({ fault: v.fault, unexpected: v.unexpected, missed: v.missed, unmatchedPatterns: v.unmatchedPatterns }).toEqual({ fault: v.fault, unexpected: [], missed: [], unmatchedPatterns: [] });
        expect(v.failed.length, `${v.fault} made nothing fail`).toBeGreaterThan(0);
      }
    }, 180_000);
  }
});
