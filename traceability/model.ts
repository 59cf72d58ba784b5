// What each sentence of the description (description/) is: enforced by requirements, not checkable from
// outside a node, or a named gap.
import type { Sentence } from '../description/model.ts';

/** What a sentence is: enforced, not checkable, a gap, or (a defect of the list) none of them. */
export function standing(s: Sentence): 'enforced' | 'not checkable' | 'gap' | 'unmapped' {
  if (s.ids?.length) return 'enforced';
  if (s.notCheckable) return 'not checkable';
  if (s.gap) return 'gap';
  return 'unmapped';
}
