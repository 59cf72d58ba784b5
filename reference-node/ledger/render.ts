// Wire records of the ledger update stream (release line 3.5 field names). Pure functions of world records
// plus what the projection decided (offset, witness parties, optional fields); no filtering happens here.
import type { JsonObject } from '../../common/json.ts';
import type { Contract, ExercisedNode, ReassignmentUpdate, TopologyUpdate, TransactionUpdate } from '../world/model.ts';
import { isoMicros } from '../world/time.ts';

/** Package id part of a `packageId:Module:Entity` template id. */
export function packageIdOf(templateId: string): string {
  return templateId.slice(0, templateId.indexOf(':'));
}

export function createdEvent(c: Contract, o: { offset: number; nodeId: number; witnessParties: string[]; blob: boolean; acsDelta: boolean }): JsonObject {
  const ev: JsonObject = {
    offset: o.offset,
    nodeId: o.nodeId,
    contractId: c.contractId,
    templateId: c.templateId,
    createArgument: c.createArguments,
    witnessParties: o.witnessParties,
    signatories: c.signatories,
    observers: c.observers,
    createdAt: isoMicros(c.createdAtMicros),
    packageName: c.packageName,
    representativePackageId: packageIdOf(c.templateId),
    acsDelta: o.acsDelta,
  };
  if (o.blob) ev.createdEventBlob = c.createdEventBlob;
  return ev;
}

export function archivedEvent(n: ExercisedNode, o: { offset: number; witnessParties: string[] }): JsonObject {
  const ev: JsonObject = {
    offset: o.offset,
    nodeId: n.nodeId,
    contractId: n.contractId,
    templateId: n.templateId,
    witnessParties: o.witnessParties,
    packageName: n.packageName,
  };
  if (n.interfaceId) ev.implementedInterfaces = [n.interfaceId];
  return ev;
}

export function exercisedEvent(n: ExercisedNode, o: { offset: number; witnessParties: string[]; lastDescendantNodeId: number; acsDelta: boolean }): JsonObject {
  const ev: JsonObject = {
    offset: o.offset,
    nodeId: n.nodeId,
    contractId: n.contractId,
    templateId: n.templateId,
    choice: n.choice,
    choiceArgument: n.choiceArgument,
    actingParties: n.actingParties,
    consuming: n.consuming,
    witnessParties: o.witnessParties,
    lastDescendantNodeId: o.lastDescendantNodeId,
    exerciseResult: n.exerciseResult,
    packageName: n.packageName,
    acsDelta: o.acsDelta,
  };
  if (n.interfaceId) ev.interfaceId = n.interfaceId;
  return ev;
}

export function transactionRecord(tx: TransactionUpdate, o: { offset: number; events: JsonObject[]; commandId: boolean; dropRecordTime: boolean }): JsonObject {
  const rec: JsonObject = {
    updateId: tx.updateId,
    workflowId: tx.workflowId,
    effectiveAt: isoMicros(tx.effectiveAtMicros),
    events: o.events,
    offset: o.offset,
    synchronizerId: tx.synchronizerId,
    recordTime: isoMicros(tx.recordTimeMicros),
    paidTrafficCost: tx.paidTrafficCost,
  };
  if (o.commandId) rec.commandId = tx.commandId;
  if (tx.externalTransactionHash) rec.externalTransactionHash = tx.externalTransactionHash;
  if (o.dropRecordTime) delete rec.recordTime;
  return rec;
}

/** How long an unassigned contract stays reserved for its assignment (simulated). */
const ASSIGNMENT_EXCLUSIVITY_MICROS = 60_000_000;

export function reassignmentRecord(
  u: ReassignmentUpdate,
  o: { offset: number; eventOffset: number; witnessParties: string[]; blob: boolean; commandId: boolean },
): JsonObject {
  const event =
    u.kind === 'assign'
      ? {
          JsAssignmentEvent: {
            source: u.source,
            target: u.target,
            reassignmentId: u.unassignId,
            submitter: u.submitter,
            reassignmentCounter: u.reassignmentCounter,
            createdEvent: createdEvent(u.contract, { offset: o.eventOffset, nodeId: 0, witnessParties: o.witnessParties, blob: o.blob, acsDelta: true }),
          },
        }
      : {
          JsUnassignedEvent: {
            value: {
              reassignmentId: u.unassignId,
              contractId: u.contract.contractId,
              templateId: u.contract.templateId,
              source: u.source,
              target: u.target,
              submitter: u.submitter,
              reassignmentCounter: u.reassignmentCounter,
              assignmentExclusivity: isoMicros(u.recordTimeMicros + ASSIGNMENT_EXCLUSIVITY_MICROS),
              witnessParties: o.witnessParties,
              packageName: u.contract.packageName,
              offset: o.eventOffset,
              nodeId: 0,
            },
          },
        };
  const rec: JsonObject = {
    updateId: u.updateId,
    workflowId: u.workflowId ?? '',
    offset: o.offset,
    events: [event],
    recordTime: isoMicros(u.recordTimeMicros),
    synchronizerId: u.synchronizerId,
  };
  if (o.commandId) rec.commandId = u.commandId ?? `cmd-${u.kind}-${u.unassignId.slice(0, 12)}`;
  return rec;
}

export function topologyRecord(u: TopologyUpdate, offset: number, events: TopologyUpdate['events']): JsonObject {
  return {
    updateId: u.updateId,
    offset,
    synchronizerId: u.synchronizerId,
    recordTime: isoMicros(u.recordTimeMicros),
    events: events.map((e) => {
      const value: JsonObject = { partyId: e.partyId, participantId: e.participantId };
      if (e.type !== 'Revoked') value.participantPermission = e.permission ?? 'PARTICIPANT_PERMISSION_UNSPECIFIED';
      return { event: { [`ParticipantAuthorization${e.type}`]: { value } } };
    }),
  };
}

export function checkpointRecord(offset: number, synchronizerTimes: Array<{ synchronizerId: string; recordTimeMicros: number }>): JsonObject {
  return { offset, synchronizerTimes: synchronizerTimes.map((s) => ({ synchronizerId: s.synchronizerId, recordTime: isoMicros(s.recordTimeMicros) })) };
}

/** `{update: {<Kind>: {value: record}}}`: the element wrapping of the stream's answer. */
export function element(kind: 'OffsetCheckpoint' | 'Transaction' | 'Reassignment' | 'TopologyTransaction', record: JsonObject): JsonObject {
  return { update: { [kind]: { value: record } } };
}

/** A ledger-effects transaction as the deprecated tree endpoints shape it: its events keyed by node id. */
export function transactionTree(transaction: JsonObject): JsonObject {
  const { events, ...tx } = transaction;
  const eventsById: JsonObject = {};
  for (const ev of events as JsonObject[]) {
    const [kind, value] = Object.entries(ev)[0]! as [string, JsonObject];
    eventsById[String(value.nodeId)] = { [kind === 'CreatedEvent' ? 'CreatedTreeEvent' : 'ExercisedTreeEvent']: { value } };
  }
  return { ...tx, eventsById };
}
