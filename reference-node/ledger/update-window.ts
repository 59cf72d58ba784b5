// The window walk of the ledger's update stream, one code path for both transports (POST /v2/updates and the
// WebSocket channel): the stream's slots of a window in the order asked, each projected for the request
// (projection.ts), lazily, so a million-update history is never materialised; and the rule faults that change
// which elements a window holds or how they read. What one transport alone decides (HTTP's list limit and
// query parameters, the channel's reading on past the ledger end) stays with it.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Update } from '../world/model.ts';
import type { World } from '../world/world.ts';
import { CHECKPOINT_EVERY, checkpointOffset, currentLedgerEnd, type Slot, streamSlots } from './offsets.ts';
import type { Projector } from './projection.ts';
import { checkpointRecord, element, transactionTree } from './render.ts';
import { namedParties, type StreamRequest } from './stream-request.ts';

/** How far past endInclusive the end-ignored fault reads. */
const END_IGNORED_EXTRA = 20;

/** `trees`: the deprecated /v2/updates/trees, whose transactions are ledger-effects trees keyed by node id. */
export type StreamForm = 'updates' | 'trees';

export interface Element {
  offset: number;
  json: JsonObject;
  checkpoint: boolean;
}

/** The parties a request reads as, and whether it asks for any party: what the caller's read rights must cover. */
export function requestedParties(r: StreamRequest): { parties: string[]; anyParty: boolean } {
  const tx = namedParties(r.transactions?.format);
  const re = namedParties(r.reassignments);
  const topo = r.topology?.parties;
  return {
    parties: [...new Set([...tx.parties, ...re.parties, ...(topo && topo !== 'all' ? topo : [])])],
    anyParty: tx.anyParty || re.anyParty || topo === 'all',
  };
}

/** The update in a slot of the stream that is not a checkpoint. */
export function updateOfSlot(world: World, slot: Slot): Update {
  return slot.kind === 'ledger-only'
    ? world.ledgerOnly.get(slot.index)!
    : slot.kind === 'submitted'
      ? world.submitted[slot.index]!
      : world.getUpdate(slot.index);
}

/** The last offset a read reaches: its endInclusive, or the ledger end now. */
export function windowEnd(ctx: NodeContext, r: StreamRequest): number {
  if (r.endInclusive === undefined) return currentLedgerEnd(ctx.world);
  // end-ignored: elements beyond endInclusive are read too.
  return ctx.faults.has('ledger-end-ignored') ? r.endInclusive + END_IGNORED_EXTRA : r.endInclusive;
}

/** Whether the read goes backwards (descending-ignored: never). */
export function readsDescending(ctx: NodeContext, r: StreamRequest): boolean {
  return r.descending && !ctx.faults.has('ledger-descending-ignored');
}

/**
 * The elements with offsets up to `upTo`, in the order asked: from the request's beginExclusive, or, for an
 * open-ended read that goes on past what it delivered, from `continuesAfter` (the faults of the request's own
 * beginning then no longer apply). Lazy: callers stop when they have enough.
 */
export function* windowElements(ctx: NodeContext, r: StreamRequest, projector: Projector, upTo: number, continuesAfter?: number): Generator<Element> {
  const { world } = ctx;
  const first = continuesAfter === undefined;
  const descending = readsDescending(ctx, r);
  // paging-gap: the lowest-offset update of a window that starts inside the history is lost (descending: trailingGap).
  let dropNext = first && !descending && ctx.faults.has('ledger-paging-gap') && r.beginExclusive > 0;
  // begin-zero-after-checkpoint: a read from 0 starts after the first offset checkpoint, not at the ledger's start.
  const zeroSkipped = first && r.beginExclusive === 0 && ctx.faults.has('ledger-begin-zero-after-checkpoint');
  const after = continuesAfter ?? (zeroSkipped ? checkpointOffset(CHECKPOINT_EVERY - 1) : r.beginExclusive);
  const inclusive = first && ctx.faults.has('ledger-begin-inclusive');
  for (const slot of streamSlots(world.count, world.ledgerOnly, world.submitted.length, after, upTo, descending, inclusive)) {
    if (slot.kind === 'checkpoint') {
      const micros = world.recordTimeMicros(slot.index);
      const times = world.synchronizers.map((s) => ({ synchronizerId: s.id, recordTimeMicros: micros }));
      yield { offset: slot.offset, json: element('OffsetCheckpoint', checkpointRecord(slot.offset, times)), checkpoint: true };
      continue;
    }
    const json = projector.project(updateOfSlot(world, slot), slot.offset);
    if (json && dropNext) {
      dropNext = false;
      continue;
    }
    if (json) yield { offset: slot.offset, json, checkpoint: false };
  }
}

/**
 * A step between the walk and the wire, for faults that need to see more than one element: it may hold elements
 * back until it knows what to do with them. `end(complete)`: the walk is over, having read its whole window
 * (not stopped at a count).
 */
export interface ElementStage {
  push(e: Element): Element[];
  end(complete: boolean): Element[];
}

/** The elements a stage lets through for a whole sequence. */
export function throughStage(stage: ElementStage, elements: readonly Element[], complete: boolean): Element[] {
  return [...elements.flatMap((e) => stage.push(e)), ...stage.end(complete)];
}

/** Stages one after the other. */
export function chainStages(...stages: ElementStage[]): ElementStage {
  return {
    push: (e) => stages.reduce<Element[]>((els, s) => els.flatMap((x) => s.push(x)), [e]),
    end: (complete) =>
      stages.reduce<Element[]>((els, s) => {
        const pushed = els.flatMap((x) => s.push(x));
        return [...pushed, ...s.end(complete)];
      }, []),
  };
}

/** paging-gap on a descending read: the last update delivered (the lowest offset) of a whole window is lost. */
export function trailingGap(ctx: NodeContext, r: StreamRequest): ElementStage {
  if (!(ctx.faults.has('ledger-paging-gap') && r.beginExclusive > 0 && readsDescending(ctx, r))) return { push: (e) => [e], end: () => [] };
  // The newest update with the checkpoints after it, held until another update shows it is not the last.
  let held: Element[] = [];
  return {
    push(e) {
      if (e.checkpoint && held.length > 0) {
        held.push(e);
        return [];
      }
      if (e.checkpoint) return [e];
      const out = held;
      held = [e];
      return out;
    },
    end(complete) {
      const out = complete ? held.slice(1) : held;
      held = [];
      return out;
    },
  };
}

/** The element-level faults of the wire records: the first two elements swapped, a second key, a misnamed kind. */
export function wireFaults(ctx: NodeContext, r: StreamRequest): ElementStage {
  const swap = ctx.faults.has('ledger-offsets-not-increasing') && !r.descending;
  const twoKeys = ctx.faults.has('ledger-two-keys-update');
  const misnamed = ctx.faults.has('ledger-checkpoint-kind-misnamed');
  let count = 0;
  let first: Element | undefined;
  let twoKeysDone = false;
  const shaped = (e: Element): Element => {
    if (twoKeys && !twoKeysDone && !e.checkpoint) {
      twoKeysDone = true;
      (e.json.update as JsonObject).OffsetCheckpoint = { value: { offset: e.offset } };
    }
    if (misnamed && e.checkpoint) return { ...e, json: { update: { offsetCheckpoint: (e.json.update as JsonObject).OffsetCheckpoint } } };
    return e;
  };
  return {
    push(e) {
      count++;
      if (swap && count === 1) {
        first = e;
        return [];
      }
      if (first) {
        const held = first;
        first = undefined;
        return [shaped(e), shaped(held)];
      }
      return [shaped(e)];
    },
    end() {
      const out = first ? [shaped(first)] : [];
      first = undefined;
      return out;
    },
  };
}

/** An element of the deprecated /v2/updates/trees: its transaction a ledger-effects tree keyed by node id. */
export function asTree(e: JsonObject): JsonObject {
  const tx = (e.update as JsonObject).Transaction as JsonObject | undefined;
  return tx ? { update: { TransactionTree: { value: transactionTree(tx.value as JsonObject) } } } : e;
}
