// What each sentence of the description (description/) is, derived from the requirement records: enforced
// by the requirements that cite it, not checkable from outside a node, or a named gap. No sentence names its
// requirements: the records cite the sentences, and the links are read from them.
import type { Sentence } from '../description/model.ts';
import type { Requirement } from '../engine/model.ts';

/** For each sentence number, the ids of the requirements that cite it, in the order of the catalog. */
export function citedBy(requirements: readonly Pick<Requirement, 'id' | 'cites'>[]): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>();
  for (const r of requirements) for (const n of new Set(r.cites)) out.set(n, [...(out.get(n) ?? []), r.id]);
  return out;
}

/** What a sentence is, given the ids citing it: enforced, not checkable, a gap, or (a defect of the list) none of them. */
export function standing(s: Sentence, ids: readonly string[] = []): 'enforced' | 'not checkable' | 'gap' | 'unmapped' {
  if (ids.length > 0) return 'enforced';
  if (s.notCheckable) return 'not checkable';
  if (s.gap) return 'gap';
  return 'unmapped';
}
