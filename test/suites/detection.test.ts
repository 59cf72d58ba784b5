// The detection matrix: the whole suite against the clean reference node (every requirement passes,
// none skipped) and once per fault of the catalog (its probe shows it, and exactly the named requirements
// fail). The running and judging are detection/matrix.ts, shared with `npm run detection`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedFailures } from '../../detection/expectations.ts';
import { runClean, type CleanOutcome } from '../../detection/matrix.ts';
import { missingVariants, missingVersions, unknownExclusions } from '../../engine/answers/variant-coverage.ts';
import { builtinDocuments, type Documents } from '../../runner/documents.ts';
import { FAULT_CATALOG } from '../../reference-node/faults.ts';
import { REFUSAL_FAULTS } from '../../reference-node/refusal-faults.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import type { Requirement } from '../../engine/model.ts';
import { faultBatches } from '../support/fault-batches.ts';
import { FAULT_PROBES } from '../support/fault-probes/catalog.ts';

let documents: Documents;
let all: Requirement[];
let clean: RunningReferenceNode;
beforeAll(async () => {
  documents = await builtinDocuments();
  all = catalog(documents.specs);
  clean = await startReferenceNode();
});
afterAll(() => clean?.close());

describe('the suite on the clean reference node', () => {
  let run: CleanOutcome | undefined;
  it('passes every requirement, skipping none (the node carries data for every rule)', async () => {
    run = await runClean(all, documents);
    expect(run.ran).toBe(all.length);
    expect(run.notPassed.map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
  });

  // Variant closure (issue 27): a rule of an operation with variants (x-cn-variants of specs/) exercises every
  // value of every axis on the clean node, or its record says why a value does not apply (Requirement.variants).
  // Observed from the requests each check made in the run above, never declared by the check.
  it('exercises every variant of the operations each rule calls, or says why one does not apply', () => {
    expect(run, 'the clean run above').toBeDefined();
    expect(unknownExclusions(all, documents.specs)).toEqual([]);
    const missing = missingVariants(all, run!.exercised!, documents.specs).map(
      (m) => `${m.requirement} on ${m.operation}: ${m.axis} ${m.missing.join(', ')} not exercised (only ${m.exercised.join(', ') || 'none'})`,
    );
    expect(missing).toEqual([]);
  });

  // The versions of one path (x-cn-version-of) are variants too: a rule naming one names them all, or its
  // record says, per version left out, why it does not apply there (the description tells them apart, or a
  // sibling record checks it there). Read from the records: the run above holds them to the operations they call.
  it('names every version of an operation each rule names, or says why one does not apply', () => {
    expect(missingVersions(all, documents.specs)).toEqual([]);
  });
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

  it("declares every fault with its interface's prefix, a family and a one-sentence rule, and a probe that shows it", () => {
    const refusals = new Set<string>(REFUSAL_FAULTS.map((f) => f.name));
    for (const f of FAULT_CATALOG) {
      expect(f.name).toMatch(new RegExp(`^${f.interface}-[a-z0-9-]+$`));
      expect(f.family.length, f.name).toBeGreaterThan(0);
      // A sentence; the wallet's start with a capital (the ledger's and the scan's may start with a field's name).
      expect(f.breaks, f.name).toMatch(f.interface === 'wallet' ? /^[A-Z][\s\S]*\.$/ : /\.$/);
      // A requirement that probes a fault is one it names: the matrix shows it failing. The refusals have none
      // (refusals.test.ts shows them; each fails the requirement confirming its operation).
      const probe = FAULT_PROBES[f.interface].probes[f.name];
      expect(probe === undefined, `${f.name}: a probe`).toBe(refusals.has(f.name));
      if (typeof probe === 'object') expect(f.rules, f.name).toContain(probe.requirement);
    }
    const probed = Object.values(FAULT_PROBES).flatMap(({ probes }) => Object.keys(probes));
    expect(probed.sort()).toEqual(
      FAULT_CATALOG.filter((f) => !refusals.has(f.name))
        .map((f) => f.name)
        .sort(),
    );
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
    () => ({ all, documents, clean }),
  );
});
