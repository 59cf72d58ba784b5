// Offsets of this participant's stream. Update number i of the world's history sits at offset 2(i+1)
// (positive, strictly increasing); after every CHECKPOINT_EVERY updates an offset checkpoint sits at the
// odd offset just above, so checkpoints never share an offset with an update. A ledger-only update
// (World.ledgerOnly) takes the odd offset just above the update it follows (never one a checkpoint follows).
// Transactions submitted through the interface (World.submitted) follow the history's end, one offset apart.

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

/** Offset of submitted transaction `k` (its index in World.submitted) after a history of `count` updates. */
export function submittedOffset(count: number, k: number): number {
  return ledgerEndOffset(count) + 1 + k;
}

/** The ledger end: the history's, or that of the last submitted transaction. */
export function currentLedgerEnd(world: { readonly count: number; readonly submitted: readonly unknown[] }): number {
  return world.submitted.length === 0 ? ledgerEndOffset(world.count) : submittedOffset(world.count, world.submitted.length - 1);
}

export type Slot = { kind: 'update' | 'checkpoint' | 'ledger-only' | 'submitted'; index: number; offset: number };

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

/** slots() followed by the submitted transactions' (`submitted` of them) in the same window and order. */
export function* streamSlots(
  count: number,
  ledgerOnly: { has(index: number): boolean },
  submitted: number,
  after: number,
  upTo: number,
  descending: boolean,
  inclusiveStart = false,
): Generator<Slot> {
  const tail: Slot[] = [];
  for (let k = 0; k < submitted; k++) {
    const offset = submittedOffset(count, k);
    if ((inclusiveStart ? offset >= after : offset > after) && offset <= upTo) tail.push({ kind: 'submitted', index: k, offset });
  }
  if (descending) yield* tail.reverse();
  yield* slots(count, ledgerOnly, after, upTo, descending, inclusiveStart);
  if (!descending) yield* tail;
}
