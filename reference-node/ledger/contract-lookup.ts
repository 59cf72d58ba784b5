// Finds a contract of the world by id, with the offset of the update that created it and, if any, the consuming
// exercise that archived it. Contract ids encode their creating update's index and node id, so no index is needed
// for the history's own; the few ledger-only transactions are searched. Archives only happen in the base segment
// and the ledger-only transactions, so the search for one is bounded by their size; so are the transactions
// submitted through the interface (World.submitted), searched last. The same walk follows the contract's
// reassignments, which also only happen there, to tell where it lives now.
import type { World } from '../world/world.ts';
import type { Contract, ExercisedNode, ReassignmentUpdate } from '../world/model.ts';
import { baseStream, submittedStream } from './base-stream.ts';
import { ledgerOnlyOffset, updateOffset } from './offsets.ts';

export interface ContractHistory {
  contract: Contract;
  createdOffset: number;
  createdNodeId: number;
  synchronizerId: string;
  archived?: { offset: number; node: ExercisedNode; synchronizerId: string };
  placement: Placement;
}

/** Where a contract lives: its synchronizer and reassignment counter, or the unassignment it awaits assignment after. */
export interface Placement {
  synchronizerId: string;
  reassignmentCounter: number;
  unassigned?: ReassignmentUpdate;
}

const CONTRACT_ID = /^00([0-9a-f]{8})([0-9a-f]{4})[0-9a-f]{60}$/;

export function findContract(world: World, contractId: string): ContractHistory | undefined {
  const found = created(world, contractId);
  if (!found) return undefined;
  const moves: ReassignmentUpdate[] = [];
  for (const { offset, update: u } of [...baseStream(world), ...submittedStream(world)]) {
    // The creating transaction itself may archive it (a create-and-exercise of a consuming choice).
    if (offset < found.createdOffset) continue;
    if ((u.kind === 'assign' || u.kind === 'unassign') && u.contract.contractId === contractId) moves.push(u);
    if (u.kind !== 'transaction') continue;
    const node = u.nodes.find((n): n is ExercisedNode => n.kind === 'exercised' && n.consuming && n.contractId === contractId);
    if (node) return { ...found, placement: placement(found.synchronizerId, moves), archived: { offset, node, synchronizerId: u.synchronizerId } };
  }
  return { ...found, placement: placement(found.synchronizerId, moves) };
}

/**
 * The pair with the highest counter decides (the history records one pair's assignment before its unassignment):
 * assigned, the contract lives on its target; not yet, it is in flight.
 */
function placement(createdOn: string, moves: ReassignmentUpdate[]): Placement {
  const counter = Math.max(0, ...moves.map((m) => m.reassignmentCounter));
  const last = moves.filter((m) => m.reassignmentCounter === counter);
  const assigned = last.find((m) => m.kind === 'assign');
  if (assigned) return { synchronizerId: assigned.target, reassignmentCounter: counter };
  const unassigned = last.find((m) => m.kind === 'unassign');
  return unassigned ? { synchronizerId: unassigned.source, reassignmentCounter: counter, unassigned } : { synchronizerId: createdOn, reassignmentCounter: 0 };
}

function created(world: World, contractId: string): Omit<ContractHistory, 'placement'> | undefined {
  const m = CONTRACT_ID.exec(contractId);
  if (!m) return undefined;
  const index = parseInt(m[1]!, 16);
  const nodeId = parseInt(m[2]!, 16);
  if (index < world.count) {
    const u = world.getUpdate(index);
    const node = u.kind === 'transaction' ? u.nodes[nodeId] : undefined;
    if (node?.kind === 'created' && node.contract.contractId === contractId) {
      return { contract: node.contract, createdOffset: updateOffset(index), createdNodeId: nodeId, synchronizerId: u.synchronizerId };
    }
  }
  for (const [after, u] of world.ledgerOnly) {
    const node = u.kind === 'transaction' ? u.nodes.find((n) => n.kind === 'created' && n.contract.contractId === contractId) : undefined;
    if (node?.kind === 'created')
      return { contract: node.contract, createdOffset: ledgerOnlyOffset(after), createdNodeId: node.nodeId, synchronizerId: u.synchronizerId };
  }
  for (const { offset, update: u } of submittedStream(world)) {
    if (u.kind !== 'transaction') continue;
    const node = u.nodes.find((n) => n.kind === 'created' && n.contract.contractId === contractId);
    if (node?.kind === 'created') return { contract: node.contract, createdOffset: offset, createdNodeId: node.nodeId, synchronizerId: u.synchronizerId };
  }
  // Reference contracts of the scan and wallet views (DSO state, licenses, coupons, preapprovals) exist outside
  // the history's trees.
  const extra = world.governance.referenceContracts.find((c) => c.contractId === contractId);
  if (extra) return { contract: extra, createdOffset: updateOffset(extra.createdIn), createdNodeId: nodeId, synchronizerId: world.synchronizers[0]!.id };
  return undefined;
}
