// Contracts in the scan's record shapes: ActiveContract (v1/v2 holdings), CreatedEvent (v0 holdings, the ACS,
// trees, assignments) and Contract / ContractWithState (preapprovals, coupons, DSO state, validator licenses).
import type { JsonObject } from '../../common/json.ts';
import type { World } from '../world/world.ts';
import type { Contract } from '../world/model.ts';
import { isoMicros } from '../world/time.ts';
import { packageId, templateType } from '../world/daml-types.ts';
import { encodeValue, type ValueEncoding } from './daml-values.ts';

/** Event ids of the scan history: the update id and the node id within its transaction. */
export function eventId(updateId: string, nodeId: number): string {
  return `${updateId}:${nodeId}`;
}

/** A contract's create arguments in the asked encoding, typed by its template. */
export function createArguments(world: World, c: Contract, encoding: ValueEncoding): JsonObject {
  return encodeValue(templateType(c.templateId), c.createArguments, encoding, (name) => packageId(world, name)) as JsonObject;
}

/** The fields ActiveContract and CreatedEvent share. */
function contractFields(world: World, c: Contract, encoding: ValueEncoding) {
  return {
    contract_id: c.contractId,
    template_id: c.templateId,
    package_name: c.packageName,
    create_arguments: createArguments(world, c, encoding),
    created_at: isoMicros(c.createdAtMicros),
    signatories: c.signatories,
    observers: c.observers,
  };
}

export function createdEvent(world: World, c: Contract, id: string, encoding: ValueEncoding = 'compact'): JsonObject {
  return { event_type: 'created_event', event_id: id, ...contractFields(world, c, encoding) };
}

/** created_in_update_id is left out for contracts created in an earlier migration than the one asked about. */
export function activeContract(world: World, c: Contract, migrationId: number): JsonObject {
  const fromThisMigration = world.migrationOf(c.createdIn) >= migrationId;
  return { ...(fromThisMigration ? { created_in_update_id: world.updateId(c.createdIn) } : {}), ...contractFields(world, c, 'compact') };
}

/** Node id of the created event of a contract within its creating transaction (reference contracts, which no
 *  transaction holds, keep the node id their contract id names, so their event ids are distinct too). */
export function creatingNodeId(world: World, c: Contract): number {
  const u = world.getUpdate(c.createdIn);
  if (u.kind === 'transaction') {
    const node = u.nodes.find((n) => n.kind === 'created' && n.contract.contractId === c.contractId);
    if (node) return node.nodeId;
  }
  // A contract id names its node after the creating update's index (world.contractId).
  return parseInt(c.contractId.slice(10, 14), 16);
}

/** A contract of an ACS snapshot, as the created event that made it. */
export function snapshotEvent(world: World, c: Contract): JsonObject {
  return createdEvent(world, c, eventId(world.updateId(c.createdIn), creatingNodeId(world, c)));
}

export function contractRecord(c: Contract): JsonObject {
  return {
    template_id: c.templateId,
    contract_id: c.contractId,
    created_event_blob: c.createdEventBlob,
    created_at: isoMicros(c.createdAtMicros),
    payload: c.createArguments,
  };
}

export function contractWithState(c: Contract, domainId: string | undefined): JsonObject {
  return { contract: contractRecord(c), ...(domainId !== undefined ? { domain_id: domainId } : {}) };
}
