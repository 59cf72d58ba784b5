// The detection matrix's fault runs as vitest tests, a few faults at a time: each fault must fail exactly what
// its record names (detection/expectations.ts), with a curl line in every failure, and the same failures and
// reasons as its behaviour snapshot. Shared by the detection test files, which split the catalog between them.
import { expect, it } from 'vitest';
import { runFault } from '../../detection/matrix.ts';
import type { FaultDefinition } from '../../reference-node/faults.ts';
import type { Documents } from '../../runner/documents.ts';
import type { Requirement } from '../../engine/model.ts';
import { behaviourText } from './behaviour.ts';

const BATCH = 4;
/**
 * Cases per property check: half the run's default. Every fault is detected exactly at 4 as at 12 (`npm run
 * detection -- --scope operation --runs 4`); `npm run detection` itself keeps the default.
 */
const RUNS = 4;

// Each fault switches on code in its own interface only, and runs with the requirements that call an operation
// its expectation touches (DetectionScope 'operation'); the clean run covers the rest. `npm run detection` runs
// each with its whole interface, which also shows that no fault leaks to other operations and that every
// requirement names the operations it calls.
export function faultBatches(faults: readonly FaultDefinition[], run: () => { all: readonly Requirement[]; documents: Documents }): void {
  for (let i = 0; i < faults.length; i += BATCH) {
    const batch = faults.slice(i, i + BATCH);
    it(`faults ${batch.map((f) => f.name).join(', ')}: exactly the named requirements fail`, async () => {
      const { all, documents } = run();
      const outcomes = await Promise.all(batch.map((f) => runFault(f, all, documents, 'operation', { runs: RUNS })));
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
}
