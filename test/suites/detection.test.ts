// The detection matrix: the whole suite against the clean reference node (every requirement passes,
// none skipped) and once per fault of the catalog (exactly the named requirements fail). The running and
// judging are detection/matrix.ts, shared with `npm run detection`.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedFailures } from '../../detection/expectations.ts';
import { runClean } from '../../detection/matrix.ts';
import { builtinDocuments, type Documents } from '../../runner/documents.ts';
import { FAULT_CATALOG } from '../../reference-node/faults.ts';
import { catalog } from '../../requirements/catalog.ts';
import type { Requirement } from '../../engine/model.ts';
import { faultBatches } from '../support/fault-batches.ts';

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

  // The ledger's faults; the wallet's and the scan's run in detection-wallet-scan.test.ts, so two workers share them.
  faultBatches(
    FAULT_CATALOG.filter((f) => f.interface === 'ledger'),
    () => ({ all, documents }),
  );
});
