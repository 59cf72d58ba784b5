// Release numbers as nodes state them: a ledger's line (`3.5.14`), a Splice release (`0.5.13`), with or
// without a leading `v` and a pre-release suffix. One reading and one order for every place that compares
// them (the ledger's release-line policy, the description's dated operations).

/** `0.5.13`, `v3.5.14`, `3.5.0-snapshot.1` -> [0, 5, 13], [3, 5, 14], [3, 5, 0]; undefined when it starts with no number. */
export function releaseNumbers(release: string): number[] | undefined {
  const m = /^v?(\d+(?:\.\d+)*)/.exec(release.trim());
  return m ? m[1]!.split('.').map(Number) : undefined;
}

/**
 * Whether `release` is before `than`, compared on the parts `than` names (`3.4.9` is before `3.5`; `3.5.14` is
 * not). Undefined when either is no release number: then nothing is known to predate anything.
 */
export function releaseBefore(release: string, than: string): boolean | undefined {
  const [a, b] = [releaseNumbers(release), releaseNumbers(than)];
  if (!a || !b) return undefined;
  for (let i = 0; i < b.length; i++) {
    const [x, y] = [a[i] ?? 0, b[i]!];
    if (x !== y) return x < y;
  }
  return false;
}
