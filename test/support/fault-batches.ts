// The detection matrix's fault runs as vitest tests, a few faults at a time, each on one node of its own that
// serves two proofs: the fault's probe shows its misbehaviour there (and not on a clean node), with requests of
// the test's own; and the suite fails exactly what its record names (detection/expectations.ts), with a curl
// line in every failure, and the same failures and reasons as its behaviour snapshot. Shared by the detection
// test files, which split the catalog between them.
import { expect, it } from 'vitest';
import { runFault, type FaultOutcome } from '../../detection/matrix.ts';
import type { FaultDefinition } from '../../reference-node/faults.ts';
import type { RunningReferenceNode } from '../../reference-node/index.ts';
import type { Documents } from '../../runner/documents.ts';
import type { Requirement } from '../../engine/model.ts';
import { behaviourText } from './behaviour.ts';
import { FAULT_PROBES } from './fault-probes/catalog.ts';
import { findings } from './fault-probes/probe.ts';

/** Faults one test judges. */
const BATCH = 4;
/** Faults running at once, and how many batches after its own a test queues (see faultBatches). */
const IN_FLIGHT = 8;
const LOOKAHEAD = 3;
/**
 * Cases per property check: a third of the run's default. Every fault is detected exactly at 4 as at 12 (`npm run
 * detection -- --scope sentence --runs 4`); `npm run detection` itself keeps the default.
 */
const RUNS = 4;

export interface FaultRunContext {
  all: readonly Requirement[];
  documents: Documents;
  /** A clean node the probes ask too (they change nothing a probe of another fault reads). */
  clean: RunningReferenceNode;
}

/** What the probe of a fault and its interface's battery found on its node, asked once the requirements ran. */
interface Probed {
  /** What the fault's own probe saw with the fault on and off; undefined where a requirement it names is its probe. */
  shown?: { on: string[]; off: string[] };
  requirement?: string;
  battery: string[];
}

/** Undefined for a refusal fault: refusals.test.ts shows the refusals, and the matrix the confirming requirement failing. */
async function probe(f: FaultDefinition, faulty: RunningReferenceNode, clean: RunningReferenceNode): Promise<Probed | undefined> {
  const { probes, battery } = FAULT_PROBES[f.interface];
  const p = probes[f.name];
  if (!p) return undefined;
  const seen = typeof p === 'function' ? { shown: { on: await findings(p, faulty), off: await findings(p, clean) } } : { requirement: p.requirement };
  return { ...seen, battery: await battery(faulty) };
}

/** Runs the functions given at most `limit` at a time, in the order given. */
function limiter(limit: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return (work) =>
    new Promise((resolve, reject) => {
      const start = () => {
        running++;
        work()
          .then(resolve, reject)
          .finally(() => {
            running--;
            waiting.shift()?.();
          });
      };
      if (running < limit) start();
      else waiting.push(start);
    });
}

interface FaultRun {
  f: FaultDefinition;
  o: FaultOutcome;
  probed: Probed | undefined;
}

async function runOne(f: FaultDefinition, { all, documents, clean }: FaultRunContext): Promise<FaultRun> {
  let probed: Probed | undefined;
  const o = await runFault(f, all, documents, 'sentence', { runs: RUNS }, async (node) => {
    probed = await probe(f, node, clean);
  });
  return { f, o, probed };
}

// Each fault switches on code in its own interface only, and runs with the requirements it names and those citing
// a sentence it breaks (DetectionScope 'sentence'), which keeps the suite within its time; the clean run covers
// the rest. `npm run detection` runs each with its whole interface, which also shows that no fault breaks
// anything else, not even another rule of its operations, and that every requirement names the operations it calls. Its probe runs after the requirements, so the matrix's verdict is
// that of a node nothing else touched.
export function faultBatches(faults: readonly FaultDefinition[], run: () => FaultRunContext): void {
  it('the batteries of the probes: the clean node answers them within the documents', async () => {
    const { clean } = run();
    for (const iface of new Set(faults.map((f) => f.interface))) expect(await FAULT_PROBES[iface].battery(clean), iface).toEqual([]);
  });

  // The runs flow through one pool, IN_FLIGHT at a time: a fault that waits (a timeout, an idle stream) holds
  // one place, while the faults after it run, instead of holding up its batch. A batch's test queues its own
  // faults and the LOOKAHEAD batches after it, and judges its own (a test picked alone by name also runs those
  // batches, unjudged).
  const batches: FaultDefinition[][] = [];
  for (let i = 0; i < faults.length; i += BATCH) batches.push(faults.slice(i, i + BATCH));
  const slot = limiter(IN_FLIGHT);
  const queued = new Map<string, Promise<FaultRun>>();
  const queue = (batch: readonly FaultDefinition[] | undefined) => {
    for (const f of batch ?? []) {
      if (queued.has(f.name)) continue;
      const p = slot(() => runOne(f, run()));
      p.catch(() => {}); // judged in its batch's test
      queued.set(f.name, p);
    }
  };

  batches.forEach((batch, i) => {
    it(`faults ${batch.map((f) => f.name).join(', ')}: each shows on its node, and exactly the named requirements fail there`, async () => {
      for (const next of batches.slice(i, i + 1 + LOOKAHEAD)) queue(next);
      const runs = await Promise.all(batch.map((f) => queued.get(f.name)!));
      for (const { f, o, probed } of runs) {
        if (probed) {
          // The probe sees the misbehaviour with the fault on, not with it off; where a requirement the fault
          // names is its probe, the run shows it failing (and every requirement passes on the clean node).
          if (probed.shown) {
            expect(probed.shown.on.length, `${f.name}: its probe saw nothing with the fault on`).toBeGreaterThan(0);
            expect(probed.shown.off, `${f.name}: its probe with the fault off`).toEqual([]);
          } else expect(o.failed, f.name).toContain(probed.requirement);
          // It breaks its own rule only: the battery's answers stay within the documents unless the rule is the document's.
          if (FAULT_PROBES[f.interface].documentFaults.has(f.name)) expect(probed.battery.length, `${f.name}: its battery`).toBeGreaterThan(0);
          else expect(probed.battery, `${f.name}: its battery`).toEqual([]);
        }
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
  });
}
