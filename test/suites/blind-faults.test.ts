// The blind faults in the detection matrix (detection/blind-faults.ts): what each closed one must make fail is
// a requirement of the catalog, every fault of a closed round has its expectation, and recording a scoring
// keeps the judgements made by hand.
import { describe, expect, it } from 'vitest';
import { BLIND_CAUGHT_BY } from '../../detection/blind-caught-by.ts';
import { blindInMatrix, blindWithoutExpectation, caughtBySource } from '../../detection/blind-faults.ts';
import { BLIND_FAULTS } from '../../reference-node/faults.ts';
import { catalog } from '../../requirements/catalog.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

describe('blind faults in the detection matrix', () => {
  it('name known blind faults and, for each caught one, requirements of the catalog of its interface', async () => {
    const all = catalog(await loadedSpecs());
    const byId = new Map(all.map((r) => [r.id, r]));
    const names = new Set(BLIND_FAULTS.map((f) => f.name));
    expect(Object.keys(BLIND_CAUGHT_BY).filter((n) => !names.has(n))).toEqual([]);
    const { faults, deviations } = blindInMatrix();
    expect(faults.length + deviations.length).toBe(Object.keys(BLIND_CAUGHT_BY).length);
    for (const f of faults) {
      expect(f.rules.length, f.name).toBeGreaterThan(0);
      for (const id of f.rules) expect(byId.get(id)?.interface, `${f.name}: ${id}`).toBe(f.interface);
    }
    for (const d of deviations) expect(d.findings).toEqual([]);
  });

  it('leave no fault of a closed round without its expectation', () => {
    expect(blindWithoutExpectation()).toEqual([]);
  });

  it('record a scoring over what was known: caught faults expect what failed, survivors and judged non-violations keep theirs', () => {
    const [a, b, c] = BLIND_FAULTS.map((f) => f.name);
    const source = caughtBySource(
      { [c!]: { notAViolation: 'what real nodes do' } },
      [
        { fault: a!, caught: true, failed: [{ id: 'SCAN-Z' }, { id: 'SCAN-A' }] },
        { fault: b!, caught: false, failed: [] },
        { fault: c!, caught: true, failed: [{ id: 'SCAN-B' }] },
      ],
      '// header',
    );
    expect(source).toContain(`${JSON.stringify(a)}: {"rules":["SCAN-A","SCAN-Z"]}`);
    expect(source).not.toContain(JSON.stringify(b));
    expect(source).toContain(`${JSON.stringify(c)}: {"notAViolation":"what real nodes do"}`);
    expect(source.startsWith('// header\nexport const BLIND_CAUGHT_BY')).toBe(true);
  });
});
