// The base segment of the history with the ledger-only updates between its updates, in stream order: every
// update a search for archives or topology changes needs (the bulk segment holds neither), besides those
// submitted through the interface (submittedStream).
import type { Update } from '../world/model.ts';
import type { World } from '../world/world.ts';
import { ledgerOnlyOffset, submittedOffset, updateOffset } from './offsets.ts';

export function* baseStream(world: World): Generator<{ offset: number; update: Update }> {
  for (let i = 0; i < world.baseCount; i++) {
    yield { offset: updateOffset(i), update: world.getUpdate(i) };
    const extra = world.ledgerOnly.get(i);
    if (extra) yield { offset: ledgerOnlyOffset(i), update: extra };
  }
}

/** The updates submitted through the interface (World.submitted), in stream order. */
export function* submittedStream(world: World): Generator<{ offset: number; update: Update }> {
  for (const [k, update] of world.submitted.entries()) yield { offset: submittedOffset(world.count, k), update };
}
