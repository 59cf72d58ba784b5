// The normative sentences of the description, each numbered with its section: the one place each is
// written. The requirement records cite them by number (and quote them from here); docs/traceability.md
// shows each with the requirements that cite it, the reason no check from outside a node can judge it, or
// (honestly) a gap: what a check would need that no requirement does yet.

export interface Sentence {
  /** Stable number: the section's key and the sentence's place in it, e.g. "C.holdings-v1.3". Never renumbered. */
  n: string;
  /** The sentence as the description states it (a normative clause may be cut out of a longer sentence). */
  text: string;
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
