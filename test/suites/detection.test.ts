// The detection matrix: the whole suite against the clean reference node (every requirement passes,
// none skipped) and once per fault of the catalog (exactly the named requirements fail). The running and
// judging are detection/matrix.ts, shared with `npm run detection`.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedFailures } from '../../detection/expectations.ts';
import { runClean, runFault } from '../../detection/matrix.ts';
import { builtinDocuments, type Documents } from '../../runner/documents.ts';
import { FAULT_CATALOG } from '../../reference-node/faults.ts';
import { catalog } from '../../suites/catalog.ts';
import type { Requirement } from '../../suites/model.ts';
import { behaviourText } from '../support/behaviour.ts';

let documents: Documents;
let all: Requirement[];
beforeAll(async () => {
  documents = await builtinDocuments();
  all = catalog(documents.specs);
});

describe('the suite on the clean reference node', () => {
  it('passes every requirement, skipping none (the node carries data for every rule)', async () => {
    const clean = await runClean(all, documents);
    expect(clean.ran).toBe(all.length);
    expect(clean.notPassed.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
  }, 120_000);
});

describe('the detection matrix', () => {
  it('names, for every fault, at least one requirement that catches it', () => {
    const ids = new Set(all.map((r) => r.id));
    for (const f of FAULT_CATALOG) {
      const e = expectedFailures(f, all);
      expect(e.exact.length + e.groups.length, `${f.name} names no requirement`).toBeGreaterThan(0);
      for (const id of f.rules) expect(ids.has(id), `${f.name} names unknown requirement ${id}`).toBe(true);
      for (const g of e.groups) expect(g.ids.length, `${f.name}: ${g.label} is no generic check`).toBeGreaterThan(0);
      if (f.generic?.operations) expect(e.exact.length, `${f.name}: its operations have no generic check`).toBeGreaterThan(f.rules.length);
    }
  });

  it('has distinct fault names, and at least two distinct faults for every rule family of the description', () => {
    const names = FAULT_CATALOG.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    // Faults that only the checks derived from the documents notice break no rule of the description.
    const breakingRules = FAULT_CATALOG.filter((f) => f.rules.length > 0);
    const perFamily = new Map<string, number>();
    for (const f of breakingRules) perFamily.set(`${f.interface}: ${f.family}`, (perFamily.get(`${f.interface}: ${f.family}`) ?? 0) + 1);
    expect([...perFamily].filter(([, n]) => n < 2).map(([family]) => family)).toEqual([]);
  });

  // Each fault switches on code in its own interface only, so its interface's requirements (including the
  // generic ones of that document) are the ones that can notice it; the clean run covers the rest. A fault
  // that refuses one operation runs with the requirements that call it (`npm run detection` runs it with the
  // whole interface, which also shows that every requirement names the operations it calls).
  const BATCH = 4;
  const faults = [...FAULT_CATALOG];
  for (let i = 0; i < faults.length; i += BATCH) {
    const batch = faults.slice(i, i + BATCH);
    it(`faults ${batch.map((f) => f.name).join(', ')}: exactly the named requirements fail`, async () => {
      const outcomes = await Promise.all(batch.map((f) => runFault(f, all, documents, 'operation')));
      for (const o of outcomes) {
        expect({ fault: o.fault, unexpected: o.unexpected, missed: o.missed, unmatchedPatterns: o.unmatchedPatterns }).toEqual({
          fault: o.fault,
          unexpected: [],
          missed: [],
          unmatchedPatterns: [],
        });
        expect(o.failed.length, `${o.fault} made nothing fail`).toBeGreaterThan(0);
        // A failure always shows the exchange that breaks the rule, as a curl line to reproduce it.
        expect(o.withoutEvidence, o.fault).toEqual([]);
        // What failed and why, as before the pipeline's restructuring (and what came out unsupported, if anything).
        const unsupported = o.unsupported.length ? { unsupported: o.unsupported } : {};
        await expect(behaviourText({ failed: o.failed, skipped: o.skipped, ...unsupported, reasons: o.reasons })).toMatchFileSnapshot(
          `../__behaviour__/detection/${o.fault}.json`,
        );
      }
    }, 180_000);
  }
});
