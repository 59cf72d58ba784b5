// The WebSocket active-contracts channel (/v2/state/active-contracts): the contracts active at activeAtOffset that
// the requested parties see (the ACS-delta shape of their filters), one JsGetActiveContractsResponse a message in
// the order they became active, then a normal close. A contract is active from its creation, or from its last
// assignment, until archived; one unassigned and not yet assigned again is an incomplete unassignment. Archives and
// reassignments only happen in the base segment and in what was submitted (contract-lookup.ts), so their fates are
// gathered first; the creations, up to a million, are walked lazily.
import type { JsonObject } from '../../../common/json.ts';
import type { NodeContext } from '../../context.ts';
import type { ReassignmentUpdate } from '../../world/model.ts';
import type { World } from '../../world/world.ts';
import { baseStream, submittedStream } from '../base-stream.ts';
import { type Caller, requireReadRights } from '../callers.ts';
import { LedgerHttpError } from '../errors.ts';
import { currentLedgerEnd, streamSlots } from '../offsets.ts';
import { Projector } from '../projection.ts';
import { namedParties, parseActiveContractsRequest } from '../stream-request.ts';
import { updateOfSlot } from '../update-window.ts';
import { type Channel, nextTurn } from './channel.ts';
import { ignoreTemplateFilters } from './update-faults.ts';

/** Slots walked between two turns of the event loop: a narrow filter may walk far between two messages. */
const SLOTS_PER_TURN = 1024;

/** What happened to a contract by the snapshot's offset: archived, or the offset of the reassignment that placed it last. */
interface Fate {
  archived?: boolean;
  placedAt?: number;
}

export async function serveActiveContracts(ctx: NodeContext, channel: Channel, caller: Caller, body: unknown): Promise<void> {
  const { world } = ctx;
  const request = parseActiveContractsRequest(ctx, body);
  const named = namedParties(request.format);
  requireReadRights(caller, named.parties, named.anyParty);
  const at = request.activeAtOffset;
  const end = currentLedgerEnd(world);
  if (at > end) throw new LedgerHttpError(400, 'invalidArgument', `activeAtOffset ${at} is beyond the ledger end ${end}.`, 'OFFSET_AFTER_LEDGER_END');
  if (ctx.faults.has('ledger-ws-filter-ignored')) ignoreTemplateFilters(request.format);
  const fates = contractFates(world, at);
  const projector = new Projector(ctx, {
    beginExclusive: 0,
    descending: false,
    transactions: { format: request.format, shape: 'acs-delta' },
    reassignments: request.format,
  });
  // The created event of each reassigned contract as its last activation shows it, for its incomplete unassignment.
  const activations = new Map<string, JsonObject>();
  // ledger-ws-message-malformed: the workflow id goes out as a number.
  const response = (workflowId: string | undefined, offset: number, contractEntry: JsonObject): JsonObject =>
    ctx.faults.has('ledger-ws-message-malformed') ? { workflowId: offset, contractEntry } : { ...(workflowId ? { workflowId } : {}), contractEntry };
  let walked = 0;
  for (const slot of streamSlots(world.count, world.ledgerOnly, world.submitted.length, 0, at, false)) {
    if (!channel.open) return;
    if (++walked % SLOTS_PER_TURN === 0) await nextTurn();
    if (slot.kind === 'checkpoint') continue;
    const update = updateOfSlot(world, slot);
    const el = update.kind === 'topology' ? undefined : projector.project(update, slot.offset);
    if (!el) continue;
    const [kind, wrapper] = Object.entries(el.update as JsonObject)[0]! as [string, JsonObject];
    const record = wrapper.value as JsonObject;
    if (kind === 'Transaction' && update.kind === 'transaction') {
      for (const ev of record.events as JsonObject[]) {
        const created = ev.CreatedEvent as JsonObject | undefined;
        const fate = created && fates.get(created.contractId as string);
        // active-contracts-archived-included: a contract archived by the offset is still reported active.
        if (!created || (fate?.archived && !ctx.faults.has('ledger-ws-active-contracts-archived-included'))) continue;
        if (fate?.placedAt !== undefined) activations.set(created.contractId as string, created);
        else
          await channel.send(
            response(update.workflowId, slot.offset, {
              JsActiveContract: { createdEvent: created, synchronizerId: update.synchronizerId, reassignmentCounter: 0 },
            }),
          );
      }
    } else if (kind === 'Reassignment' && (update.kind === 'assign' || update.kind === 'unassign')) {
      const fate = fates.get(update.contract.contractId);
      if (!fate || fate.archived) continue;
      const ev = (record.events as JsonObject[])[0]!;
      const assigned = ev.JsAssignmentEvent as JsonObject | undefined;
      if (assigned) activations.set(update.contract.contractId, assigned.createdEvent as JsonObject);
      if (fate.placedAt !== slot.offset) continue;
      const activation = activations.get(update.contract.contractId);
      const entry = assigned
        ? { JsActiveContract: { createdEvent: assigned.createdEvent, synchronizerId: update.target, reassignmentCounter: update.reassignmentCounter } }
        : activation && { JsIncompleteUnassigned: { createdEvent: activation, unassignedEvent: (ev.JsUnassignedEvent as JsonObject).value } };
      if (entry) await channel.send(response(update.workflowId, slot.offset, entry));
    }
  }
  return channel.close(1000);
}

/**
 * The fates of the contracts archived or reassigned by offset `at`. Of a contract's reassignments the pair with
 * the highest counter decides (the history may record a pair's assignment before its unassignment): its
 * assignment when there is one, else its unassignment.
 */
function contractFates(world: World, at: number): Map<string, Fate> {
  const fates = new Map<string, Fate>();
  const fate = (contractId: string) => fates.get(contractId) ?? fates.set(contractId, {}).get(contractId)!;
  const moves = new Map<string, Array<{ offset: number; update: ReassignmentUpdate }>>();
  for (const { offset, update } of boundedHistory(world)) {
    if (offset > at) break;
    if (update.kind === 'transaction') {
      for (const n of update.nodes) if (n.kind === 'exercised' && n.consuming) fate(n.contractId).archived = true;
    } else if (update.kind === 'assign' || update.kind === 'unassign') {
      const list = moves.get(update.contract.contractId) ?? moves.set(update.contract.contractId, []).get(update.contract.contractId)!;
      list.push({ offset, update });
    }
  }
  for (const [contractId, list] of moves) {
    const counter = Math.max(...list.map((m) => m.update.reassignmentCounter));
    const top = list.filter((m) => m.update.reassignmentCounter === counter);
    fate(contractId).placedAt = (top.find((m) => m.update.kind === 'assign') ?? top[0]!).offset;
  }
  return fates;
}

/** Every update that may archive or reassign a contract, in stream order. */
function* boundedHistory(world: World) {
  yield* baseStream(world);
  yield* submittedStream(world);
}
