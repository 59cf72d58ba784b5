// traceability/proof.json, the record docs/traceability.md reads to count sentences proven: each detection run
// (catalog or blind) writes, per fault it ran, the requirements that failed on its node. Faults it did not run
// keep their record (a run of a few faults refreshes those only); faults that no longer exist are dropped.
// Sorted throughout, so the same results give the same file.
import { existsSync, writeFileSync } from 'node:fs';
import { PROOF_FILE, readProof, REGENERATE_PROOF, type ProofRecord } from '../traceability/proof.ts';

export interface FaultFailures {
  fault: string;
  /** Requirements that failed on the fault's node (not counting those that do not pass on the clean node either). */
  failed: readonly string[];
}

/** The record with `runs` written over it, keeping only the faults named in `known`. */
export function mergeProof(previous: ProofRecord['faults'], runs: readonly FaultFailures[], known: readonly string[]): ProofRecord {
  const exists = new Set(known);
  const merged = { ...previous, ...Object.fromEntries(runs.map((r) => [r.fault, [...new Set(r.failed)].sort()])) };
  const faults = Object.fromEntries(
    Object.keys(merged)
      .filter((name) => exists.has(name))
      .sort()
      .map((name) => [name, merged[name]!]),
  );
  return { regenerate: REGENERATE_PROOF, faults };
}

/** The record as JSON, one fault a line, so that a run changes the lines of the faults whose results changed. */
export function proofJson(record: ProofRecord): string {
  const faults = Object.entries(record.faults).map(([name, ids]) => `    ${JSON.stringify(name)}: ${JSON.stringify(ids)}`);
  return `{\n  "regenerate": ${JSON.stringify(record.regenerate)},\n  "faults": {${faults.length ? `\n${faults.join(',\n')}\n  ` : ''}}\n}\n`;
}

/** Writes the runs into the proof file (traceability/proof.json unless `file` is given); returns its path. */
export function recordProof(runs: readonly FaultFailures[], known: readonly string[], file: URL | string = PROOF_FILE): string {
  const previous = existsSync(file) ? readProof(file).faults : {};
  writeFileSync(file, proofJson(mergeProof(previous, runs, known)));
  return file instanceof URL ? file.pathname : file;
}
