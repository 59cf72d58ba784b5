// Offsets of this participant's stream. Update number i of the world's history sits at offset 2(i+1)
// (positive, strictly increasing); after every CHECKPOINT_EVERY updates an offset checkpoint sits at the
// odd offset just above, so checkpoints never share an offset with an update. A ledger-only update
// (World.ledgerOnly) takes the odd offset just above the update it follows (never one a checkpoint follows).

export const CHECKPOINT_EVERY = 50;

export function updateOffset(index: number): number {
  return 2 * (index + 1);
}

/** Whether an offset checkpoint follows update `index`. */
export function hasCheckpointAfter(index: number): boolean {
  return (index + 1) % CHECKPOINT_EVERY === 0;
}

export function checkpointOffset(index: number): number {
  return updateOffset(index) + 1;
}

/** Offset of the ledger-only update that follows update `index`: the odd one just above it. */
export const ledgerOnlyOffset = checkpointOffset;

/** Offset of the last element of a history of `count` updates (0 for an empty history). */
export function ledgerEndOffset(count: number): number {
  if (count === 0) return 0;
  return hasCheckpointAfter(count - 1) ? checkpointOffset(count - 1) : updateOffset(count - 1);
}

export type Slot = { kind: 'update' | 'checkpoint' | 'ledger-only'; index: number; offset: number };

/**
 * The stream's slots with offsets in (after, upTo] (or [after, upTo] when `inclusiveStart`), in the order
 * asked, for a history of `count` updates with ledger-only updates after the indices of `ledgerOnly`. Lazy:
 * callers stop when they have enough.
 */
export function* slots(
  count: number,
  ledgerOnly: { has(index: number): boolean },
  after: number,
  upTo: number,
  descending: boolean,
  inclusiveStart = false,
): Generator<Slot> {
  const inWindow = (o: number) => (inclusiveStart ? o >= after : o > after) && o <= upTo;
  // Only indices whose update or checkpoint offset can fall in the window are visited.
  const lo = Math.max(0, Math.floor(after / 2) - 1);
  const hi = Math.min(count - 1, Math.floor(upTo / 2));
  if (lo > hi) return;
  const at = (i: number): Slot[] => {
    const out: Slot[] = [{ kind: 'update', index: i, offset: updateOffset(i) }];
    if (hasCheckpointAfter(i)) out.push({ kind: 'checkpoint', index: i, offset: checkpointOffset(i) });
    else if (ledgerOnly.has(i)) out.push({ kind: 'ledger-only', index: i, offset: ledgerOnlyOffset(i) });
    return out.filter((s) => inWindow(s.offset));
  };
  if (descending) {
    for (let i = hi; i >= lo; i--) yield* at(i).reverse();
  } else {
    for (let i = lo; i <= hi; i++) yield* at(i);
  }
}
