// Scoring blind faults (reference-node/blind/): how many of a round the suite catches as it stands. A blind
// fault names no requirement (its author never read one), so it is caught when some requirement that passes
// on the clean node fails on the faulty one; which ones failed is recorded for the survivors' review.
import { catalog } from '../requirements/catalog.ts';
import { BLIND_FAULTS, type BlindFault } from '../reference-node/faults.ts';
import { builtinDocuments } from '../runner/documents.ts';
import { inPool } from '../common/pool.ts';
import { runClean, runOnReferenceNode } from './matrix.ts';

export interface BlindOutcome {
  fault: string;
  round: number;
  interface: string;
  breaks: string;
  caught: boolean;
  /** Requirements that failed on the faulty node, with their reasons. */
  failed: Array<{ id: string; reason: string }>;
  /** Requirements that ended in error (the suite's own bug) on the faulty node. */
  errors: string[];
}

export interface BlindRound {
  round: number;
  caught: number;
  total: number;
  outcomes: BlindOutcome[];
}

export async function scoreBlind(
  options: { faults?: readonly BlindFault[]; concurrency?: number; onFault?: (o: BlindOutcome, done: number, total: number) => void } = {},
): Promise<{ clean: string[]; rounds: BlindRound[] }> {
  const documents = await builtinDocuments();
  const all = catalog(documents.specs, documents.builtinIds);
  const clean = await runClean(all, documents);
  const faults = options.faults ?? BLIND_FAULTS;
  const cleanNotPassed = new Set(clean.notPassed.map((n) => n.id));
  let done = 0;
  const outcomes = await inPool(faults, options.concurrency ?? 4, async (f): Promise<BlindOutcome> => {
    // A blind fault rewrites answers of its own interface only, so its interface's requirements are the ones that can see it.
    const results = await runOnReferenceNode(
      { faults: [f.name] },
      all.filter((r) => r.interface === f.interface),
      documents,
    );
    const failed = results.filter((r) => r.status === 'failed' && !cleanNotPassed.has(r.id)).map((r) => ({ id: r.id, reason: r.reason ?? '' }));
    const o = {
      fault: f.name,
      round: f.round,
      interface: f.interface,
      breaks: f.breaks,
      caught: failed.length > 0,
      failed,
      errors: results.filter((r) => r.status === 'error').map((r) => r.id),
    };
    options.onFault?.(o, ++done, faults.length);
    return o;
  });
  const rounds = [...new Set(outcomes.map((o) => o.round))].sort().map((round) => {
    const of = outcomes.filter((o) => o.round === round);
    return { round, caught: of.filter((o) => o.caught).length, total: of.length, outcomes: of };
  });
  return { clean: [...cleanNotPassed], rounds };
}
