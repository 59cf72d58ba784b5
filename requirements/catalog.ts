// Every requirement of a run: the ones derived from the loaded documents and the rules of the description.
import type { CompiledSpec } from '../generators/index.ts';
import { genericRequirements } from './generic/spec-requirements.ts';
import { LEDGER_REQUIREMENTS } from './ledger/index.ts';
import type { Requirement } from '../engine/model.ts';
import { SCAN_REQUIREMENTS } from './scan/index.ts';
import { WALLET_REQUIREMENTS } from './wallet/index.ts';

export const DESCRIPTION_REQUIREMENTS: readonly Requirement[] = [...LEDGER_REQUIREMENTS, ...WALLET_REQUIREMENTS, ...SCAN_REQUIREMENTS];

/** `builtinIds`: for each document the user swapped in, the built-in document's operationIds by operation key (see genericRequirements). */
export function catalog(specs: Record<string, CompiledSpec>, builtinIds: Readonly<Record<string, ReadonlyMap<string, string>>> = {}): Requirement[] {
  const all = [...Object.entries(specs).flatMap(([name, spec]) => derived(name, spec, builtinIds[name])), ...DESCRIPTION_REQUIREMENTS];
  const seen = new Set<string>();
  for (const r of all) {
    if (seen.has(r.id)) throw new Error(`duplicate requirement id ${r.id}`);
    seen.add(r.id);
  }
  return all;
}

// The generic requirements of a compiled document, per document object and name: a document compiled once per
// process (compileSpec) is read by every run of the process, and its records hold no state of a run.
const generic = new WeakMap<CompiledSpec, Map<string, Requirement[]>>();

function derived(name: string, spec: CompiledSpec, builtinIds: ReadonlyMap<string, string> | undefined): Requirement[] {
  if (builtinIds) return genericRequirements(name, spec, builtinIds);
  const byName = generic.get(spec) ?? new Map<string, Requirement[]>();
  generic.set(spec, byName);
  const made = byName.get(name) ?? genericRequirements(name, spec);
  byName.set(name, made);
  return made;
}
