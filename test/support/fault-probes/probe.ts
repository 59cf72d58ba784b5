// A fault's probe: its misbehaviour asked of a node with requests of the test's own, not through the suite's
// requirements, so that the detection matrix's verdict and the node's behaviour are shown independently. Each
// fault's probe runs on the node its matrix run used, once the requirements are done (test/support/fault-batches.ts).
import type { RunningReferenceNode } from '../../../reference-node/index.ts';

/** Whether the node shows the fault's misbehaviour, or what of it (nothing: it does not). */
export type Probe = (n: RunningReferenceNode) => Promise<boolean | string[]>;

export interface InterfaceProbes {
  /**
   * The probe of each fault of the interface, or the requirement that probes it: one the fault names, so the
   * matrix's run (exactly the named requirements fail; every requirement passes on the clean node) shows it.
   */
  probes: Record<string, Probe | { requirement: string }>;
  /** Problems of a fixed battery of requests across the interface's operations, judged by their document. */
  battery(n: RunningReferenceNode): Promise<string[]>;
  /** Faults whose rule is the document itself: the only ones whose battery finds problems (and they do). */
  documentFaults: ReadonlySet<string>;
}

/** What a probe saw, as findings. */
export async function findings(probe: Probe, n: RunningReferenceNode): Promise<string[]> {
  const seen = await probe(n);
  return typeof seen === 'boolean' ? (seen ? ['the probe saw it'] : []) : seen;
}
