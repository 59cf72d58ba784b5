// Suggests the name a user probably meant, for "unknown X; did you mean Y?" messages.

/**
 * The candidate closest to `word` when it is plausibly a typo of it: equal ignoring case, within an edit
 * distance of a third of the longer name, or else the only candidate that is a prefix of it or has it as a
 * prefix (3+ characters: "m" suggests nothing, nor "ledger" one of three ledger* names). Ties go to the
 * earlier candidate, so the answer is deterministic.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  if (!w) return undefined;
  let best: { name: string; distance: number } | undefined;
  const prefixed: string[] = [];
  for (const name of candidates) {
    const c = name.toLowerCase();
    const distance = editDistance(w, c);
    if (distance <= Math.max(1, Math.floor(Math.max(w.length, c.length) / 3))) {
      if (!best || distance < best.distance) best = { name, distance };
    } else if (Math.min(w.length, c.length) >= 3 && (c.startsWith(w) || w.startsWith(c))) prefixed.push(name);
  }
  return best?.name ?? (prefixed.length === 1 ? prefixed[0] : undefined);
}

/** Levenshtein distance counting a swap of two neighbours as one edit (the commonest typo). */
function editDistance(a: string, b: string): number {
  // Rows i-2, i-1 and i of the usual table.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}
