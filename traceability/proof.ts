// Sentences proven, not only linked: a sentence a requirement cites is proven when a fault that breaks it (a
// catalog fault or a blind one, each citing the sentences it breaks) is caught by a requirement citing it.
// What caught each fault is what the detection runs recorded in proof.json (detection/proof-file.ts writes it).
import { readFileSync } from 'node:fs';
import { packageFile } from '../common/package-files.ts';
import type { Requirement } from '../engine/model.ts';

/** The committed record of the detection runs: per fault, the requirements that failed on a node with it. */
export interface ProofRecord {
  /** The commands that rewrite it (each run records the faults it ran, and drops faults that are gone). */
  regenerate: string;
  /** Fault name -> ids of the requirements that failed on its node (sorted); [] when nothing caught it. */
  faults: Record<string, string[]>;
}

/** A fault as the proof sees it: its name and the numbers of the sentences it breaks. */
export interface CitingFault {
  readonly name: string;
  readonly cites: readonly string[];
}

export const PROOF_FILE = packageFile('traceability/proof.json');

export const REGENERATE_PROOF = 'npm run detection && npm run detection:blind (a run with --fault records only the faults it ran)';

export function readProof(file: URL | string = PROOF_FILE): ProofRecord {
  return JSON.parse(readFileSync(file, 'utf8')) as ProofRecord;
}

/**
 * For each sentence number, the faults that prove it, in the order given: the fault cites the sentence and a
 * requirement that cites it failed on the fault's node.
 */
export function provenBy(
  faults: readonly CitingFault[],
  caught: ProofRecord['faults'],
  requirements: readonly Pick<Requirement, 'id' | 'cites'>[],
): ReadonlyMap<string, readonly string[]> {
  const cites = new Map(requirements.map((r) => [r.id, new Set(r.cites)]));
  const out = new Map<string, string[]>();
  for (const f of faults) {
    const failed = caught[f.name] ?? [];
    for (const n of new Set(f.cites)) if (failed.some((id) => cites.get(id)?.has(n))) out.set(n, [...(out.get(n) ?? []), f.name]);
  }
  return out;
}

/** What became of a fault's sentences: not run yet, not caught at all, caught but by no requirement citing them, or proven. */
export function faultProof(
  f: CitingFault,
  caught: ProofRecord['faults'],
  proven: ReadonlyMap<string, readonly string[]>,
): 'not run' | 'not caught' | 'caught elsewhere' | 'proves' {
  const failed = caught[f.name];
  if (failed === undefined) return 'not run';
  if (f.cites.some((n) => proven.get(n)?.includes(f.name))) return 'proves';
  return failed.length === 0 ? 'not caught' : 'caught elsewhere';
}
