// The normative sentences of the description, each numbered with its section and mapped to the requirements
// that enforce it, to the reason it cannot be checked from outside, or (honestly) to a gap: what a check
// would need that no requirement does yet. docs/traceability.md is generated from these lists.

export interface Sentence {
  /** Stable number: the section's key and the sentence's place in it, e.g. "C.holdings-v1.3". */
  n: string;
  /** The sentence as the description states it (a normative clause may be cut out of a longer sentence). */
  text: string;
  /** Requirement ids that enforce it. */
  ids?: readonly string[];
  /** Why no check from outside the node can judge it (e.g. it describes internals, or advice to clients). */
  notCheckable?: string;
  /** Checkable, but no requirement enforces it yet: what the check would do. */
  gap?: string;
}

export interface SentenceSection {
  /** Key used in the numbers, e.g. "A.updates". */
  key: string;
  /** The description's heading path, e.g. "Endpoints > A. Ledger interface > POST /v2/updates". */
  heading: string;
  sentences: readonly Sentence[];
}

/** What a sentence is: enforced, not checkable, a gap, or (a defect of the list) none of them. */
export function standing(s: Sentence): 'enforced' | 'not checkable' | 'gap' | 'unmapped' {
  if (s.ids?.length) return 'enforced';
  if (s.notCheckable) return 'not checkable';
  if (s.gap) return 'gap';
  return 'unmapped';
}
