// What a reassignment command does to the simulated ledger: an unassignment takes an active contract off its
// synchronizer (the counter grows by one), and the assignment naming its id puts it on the target with the same
// counter. Each is recorded as the next update of the participant's stream with its completion, like a
// transaction (submission.ts); its id derives from the seed and its position, so the ledger stays deterministic.
import type { NodeContext } from '../context.ts';
import type { ReassignmentUpdate } from '../world/model.ts';
import { derivedHex } from '../world/rng.ts';
import type { World } from '../world/world.ts';
import { baseStream } from './base-stream.ts';
import type { ReassignmentMove, SubmittedReassignment } from './command-request.ts';
import { findContract, type ContractHistory } from './contract-lookup.ts';
import { LedgerHttpError } from './errors.ts';
import { record, type Recorded, type SubmitOptions } from './submission.ts';

const conflict = (message: string): never => {
  throw new LedgerHttpError(409, 'failedPrecondition', message);
};

/** The contract as the submitter may reassign it: known, active and with the submitter among its stakeholders. */
function stakeholderContract(world: World, contractId: string, submitter: string): ContractHistory {
  const found = findContract(world, contractId);
  const c = found?.contract;
  if (!found || !c || found.archived || ![...c.signatories, ...c.observers].includes(submitter))
    throw new LedgerHttpError(404, 'notFound', `Contract could not be found or is not active: ${contractId}`, 'CONTRACT_NOT_FOUND');
  return found;
}

function requireSynchronizers(world: World, source: string, target: string): void {
  for (const id of [source, target])
    if (!world.synchronizers.some((s) => s.id === id)) throw new LedgerHttpError(404, 'notFound', `This participant is not connected to synchronizer ${id}.`);
  if (source === target) conflict(`The source and target synchronizer are the same: ${source}.`);
}

/** The unassignment with `reassignmentId`, submitted or in the history. */
function unassignment(world: World, reassignmentId: string): ReassignmentUpdate | undefined {
  for (const u of [...world.submitted, ...[...baseStream(world)].map((s) => s.update)]) if (u.kind === 'unassign' && u.unassignId === reassignmentId) return u;
  return undefined;
}

type Planned = Pick<ReassignmentUpdate, 'kind' | 'synchronizerId' | 'reassignmentCounter' | 'contract'> & { unassignId?: string };

/** What the move does, checked against where its contract lives. */
function plan(ctx: NodeContext, move: ReassignmentMove, submitter: string): Planned {
  const { world } = ctx;
  requireSynchronizers(world, move.source, move.target);
  if (move.kind === 'unassign') {
    const { contract, placement } = stakeholderContract(world, move.contractId, submitter);
    if (placement.unassigned) conflict(`Contract ${move.contractId} is unassigned already (reassignment ${placement.unassigned.unassignId}).`);
    if (placement.synchronizerId !== move.source) conflict(`Contract ${move.contractId} is not active on ${move.source} but on ${placement.synchronizerId}.`);
    // ledger-unassign-counter-unchanged: the counter is not raised.
    const raise = ctx.faults.has('ledger-unassign-counter-unchanged') ? 0 : 1;
    return { kind: 'unassign', synchronizerId: move.source, reassignmentCounter: placement.reassignmentCounter + raise, contract };
  }
  const unassigned = unassignment(world, move.reassignmentId);
  const found = unassigned && stakeholderContract(world, unassigned.contract.contractId, submitter);
  if (!unassigned || !found) throw new LedgerHttpError(404, 'notFound', `No unassignment with id ${move.reassignmentId} is known here.`);
  if (found.placement.unassigned?.unassignId !== move.reassignmentId) conflict(`The reassignment ${move.reassignmentId} is assigned already.`);
  if (unassigned.source !== move.source || unassigned.target !== move.target)
    conflict(`The reassignment ${move.reassignmentId} moves ${unassigned.contract.contractId} from ${unassigned.source} to ${unassigned.target}.`);
  return {
    kind: 'assign',
    synchronizerId: move.target,
    // ledger-assign-counter-raised: the assignment raises the counter once more.
    reassignmentCounter: unassigned.reassignmentCounter + (ctx.faults.has('ledger-assign-counter-raised') ? 1 : 0),
    contract: unassigned.contract,
    unassignId: move.reassignmentId,
  };
}

/** Checks and records one reassignment of `userId` (its rights are the caller's to check). */
export function reassign(ctx: NodeContext, cmds: SubmittedReassignment, userId: string, options: SubmitOptions = {}): Recorded<ReassignmentUpdate> {
  const { world } = ctx;
  const { move, submitter } = cmds;
  const change = { userId, commandId: cmds.commandId, actAs: [submitter], submissionId: cmds.submissionId };
  // ledger-async-reassignment-dropped: an async reassignment is checked, then lost.
  const lost = options.async === true && ctx.faults.has('ledger-async-reassignment-dropped');
  return record(
    ctx,
    change,
    (k, recordTimeMicros) => {
      const planned = plan(ctx, move, submitter);
      const index = world.count + k;
      return {
        ...planned,
        index,
        updateId: world.updateId(index),
        migrationId: world.currentMigrationId,
        recordTimeMicros,
        unassignId: planned.unassignId ?? derivedHex(ctx.settings.seed, `unassign:${index}`, 20),
        submitter,
        source: move.source,
        target: move.target,
        commandId: cmds.commandId,
        workflowId: cmds.workflowId,
      };
    },
    lost,
  );
}
