// The world's updates in the scan history shapes: UpdateHistoryTransaction (v0, with offset),
// UpdateHistoryTransactionV2 (v2 and event items: no offset, events_by_id keys in lexicographic order),
// UpdateHistoryReassignment, and the verdict / traffic / app-activity parts of event items.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { ReassignmentUpdate, TransactionUpdate, TxNode, Verdict } from '../world/model.ts';
import { isoMicros } from '../world/time.ts';
import { choiceTypes, packageId } from '../world/daml-types.ts';
import { createArguments, createdEvent, eventId } from './contracts.ts';
import { encodeValue, type ValueEncoding } from './daml-values.ts';

export interface HistoryShape {
  encoding: ValueEncoding;
  /** v2 / event items: events_by_id keys sorted, no transaction offset. */
  v2: boolean;
}

/** Record times of the history: ISO 8601 with microseconds. */
export function historyTime(ctx: NodeContext, micros: number): string {
  // scan-record-time-format: a common non-ISO rendering (space separator, no zone).
  if (ctx.faults.has('scan-record-time-format')) return isoMicros(micros).replace('T', ' ').replace('Z', '');
  // scan-record-time-zeros-trimmed: microsecond digits without their trailing zeros (no fraction when all are 0).
  if (ctx.faults.has('scan-record-time-zeros-trimmed')) return isoMicros(micros).replace(/\.?0+Z$/, 'Z');
  return isoMicros(micros);
}

/** The node's offset of an update: increases with the update's position, and so with its record time; --offset-shift moves them all. */
export function historyOffset(ctx: NodeContext, index: number): string {
  const offset = (i: number) => ctx.world.scanOffset(i + ctx.settings.offsetShift);
  // scan-offsets-not-increasing: every fifth update reuses the offset of an update three places earlier.
  if (ctx.faults.has('scan-offsets-not-increasing') && index % 5 === 4) return offset(index - 3);
  // scan-offsets-unpadded: the number without its leading zeros.
  if (ctx.faults.has('scan-offsets-unpadded')) return BigInt(offset(index)).toString();
  return offset(index);
}

function treeEvent(ctx: NodeContext, tx: TransactionUpdate, node: TxNode, encoding: ValueEncoding): JsonObject {
  const id = eventId(tx.updateId, node.nodeId);
  if (node.kind === 'created') {
    // scan-tree-event-id-mismatch: the created event names a node id that is not its own.
    const own = ctx.faults.has('scan-tree-event-id-mismatch') ? eventId(tx.updateId, node.nodeId + 1000) : id;
    return createdEvent(ctx.world, node.contract, own, encoding);
  }
  const types = choiceTypes(node.templateId, node.choice);
  const packageIds = (name: string) => packageId(ctx.world, name);
  return {
    // scan-exercised-event-type-missing: exercised nodes without their event_type.
    ...(ctx.faults.has('scan-exercised-event-type-missing') ? {} : { event_type: 'exercised_event' }),
    event_id: id,
    contract_id: node.contractId,
    template_id: node.templateId,
    package_name: node.packageName,
    ...(node.interfaceId !== undefined ? { interface_id: node.interfaceId } : {}),
    choice: node.choice,
    choice_argument: encodeValue(types?.argument, node.choiceArgument, encoding, packageIds),
    child_event_ids: node.children.map((c) => eventId(tx.updateId, c)),
    exercise_result: encodeValue(types?.result, node.exerciseResult, encoding, packageIds),
    consuming: node.consuming,
    acting_parties: node.actingParties,
    signatories: node.signatories,
    observers: node.observers,
  };
}

/** A copy of a compact value with its first text changed (the last character), for a fault's other content. */
function withOtherText(value: unknown): { value: unknown; changed: boolean } {
  if (typeof value === 'string') return { value: otherId(value), changed: true };
  if (value === null || typeof value !== 'object') return { value, changed: false };
  const out: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  let changed = false;
  for (const [k, v] of Object.entries(value)) {
    const r: { value: unknown; changed: boolean } = changed ? { value: v, changed } : withOtherText(v);
    changed = r.changed;
    (out as Record<string, unknown>)[k] = r.value;
  }
  return { value: out, changed };
}

/** Faults of the V2 renderings (/v2/updates, event items) that change the events already made. */
function v2Faults(ctx: NodeContext, tx: TransactionUpdate, shape: HistoryShape, entries: Array<readonly [string, JsonObject]>): void {
  // scan-v2-children-reversed: child_event_ids in the reverse of the order the events occurred.
  // scan-protobuf-children-reversed: the same, in the protobuf_json encoding only.
  if (ctx.faults.has('scan-v2-children-reversed') || (shape.encoding === 'verbose' && ctx.faults.has('scan-protobuf-children-reversed')))
    for (const [, e] of entries) if (Array.isArray(e.child_event_ids)) e.child_event_ids = [...e.child_event_ids].reverse();
  // scan-v2-created-at-record-time: the created events of the tree carry the transaction's record time as created_at.
  if (ctx.faults.has('scan-v2-created-at-record-time'))
    for (const [, e] of entries) if (e.event_type === 'created_event') e.created_at = isoMicros(tx.recordTimeMicros);
  // scan-protobuf-value-differs: with protobuf_json, the first created event's arguments hold another text.
  if (shape.encoding === 'verbose' && ctx.faults.has('scan-protobuf-value-differs')) {
    const node = tx.nodes.find((n) => n.kind === 'created');
    const event = node && entries.find(([k]) => k === eventId(tx.updateId, node.nodeId))?.[1];
    if (node?.kind === 'created' && event) {
      const other = withOtherText(node.contract.createArguments).value as Record<string, unknown>;
      event.create_arguments = createArguments(ctx.world, { ...node.contract, createArguments: other }, 'verbose');
    }
  }
}

export function renderTransaction(ctx: NodeContext, tx: TransactionUpdate, shape: HistoryShape): JsonObject {
  const entries = tx.nodes.map((n) => [eventId(tx.updateId, n.nodeId), treeEvent(ctx, tx, n, shape.encoding)] as const);
  // scan-tree-orphan-event (and, in the verbose encodings only, scan-lossless-tree-differs /
  // scan-protobuf-tree-differs): a copy of the first event under a key that no root or child id names.
  const verboseDiffers = shape.encoding === 'verbose' && ctx.faults.has(shape.v2 ? 'scan-protobuf-tree-differs' : 'scan-lossless-tree-differs');
  if ((ctx.faults.has('scan-tree-orphan-event') || verboseDiffers) && tx.nodes.length > 0) {
    const key = eventId(tx.updateId, tx.nodes.length + 200);
    entries.push([key, { ...treeEvent(ctx, tx, tx.nodes[0]!, shape.encoding), event_id: key }]);
  }
  if (shape.v2) {
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (ctx.faults.has('scan-v2-unsorted')) entries.reverse();
    v2Faults(ctx, tx, shape, entries);
  }
  const events_by_id: Record<string, JsonObject> = {};
  for (const [k, v] of entries) events_by_id[k] = v;

  const root_event_ids = tx.rootNodeIds.map((r) => eventId(tx.updateId, r));
  const missing = eventId(tx.updateId, tx.nodes.length + 100);
  if (ctx.faults.has('scan-tree-dangling-root')) root_event_ids.push(missing);
  if (ctx.faults.has('scan-tree-dangling-child')) {
    const parent = Object.values(events_by_id).find((e) => e.event_type === 'exercised_event');
    if (parent) parent.child_event_ids = [...(parent.child_event_ids as string[]), missing];
  }

  const out: JsonObject = {
    update_id: tx.updateId,
    migration_id: tx.migrationId,
    // scan-lossless-workflow-dropped: the lossless rendering of /v0/updates loses the workflow id.
    workflow_id: !shape.v2 && shape.encoding === 'verbose' && ctx.faults.has('scan-lossless-workflow-dropped') ? '' : tx.workflowId,
    // scan-v0-update-record-time-shifted: the deprecated rendering shows a record time one millisecond late.
    record_time: historyTime(ctx, tx.recordTimeMicros + (!shape.v2 && ctx.faults.has('scan-v0-update-record-time-shifted') ? 1000 : 0)),
    synchronizer_id: tx.synchronizerId,
    // scan-effective-at-format: the effective time in a common non-ISO rendering (space separator, no zone).
    effective_at: ctx.faults.has('scan-effective-at-format')
      ? isoMicros(tx.effectiveAtMicros).replace('T', ' ').replace('Z', '')
      : isoMicros(tx.effectiveAtMicros),
  };
  if (!shape.v2) out.offset = historyOffset(ctx, tx.index);
  out.root_event_ids = root_event_ids;
  out.events_by_id = events_by_id;
  // Omitted when there is none; scan-external-hash-null sends an explicit null instead.
  if (tx.externalTransactionHash !== undefined) out.external_transaction_hash = tx.externalTransactionHash;
  else if (ctx.faults.has('scan-external-hash-null')) out.external_transaction_hash = null;
  return out;
}

export function renderReassignment(ctx: NodeContext, u: ReassignmentUpdate, shape: HistoryShape): JsonObject {
  let counter = u.reassignmentCounter;
  // scan-reassignment-counter-not-increasing: every reassignment of a contract reports counter 1.
  if (ctx.faults.has('scan-reassignment-counter-not-increasing')) counter = 1;
  const common = {
    submitter: u.submitter,
    source_synchronizer: u.source,
    target_synchronizer: u.target,
    // scan-reassignment-migration-shifted: the migration after the synchronizer's own.
    migration_id: u.migrationId + (ctx.faults.has('scan-reassignment-migration-shifted') ? 1 : 0),
    unassign_id: u.unassignId,
  };
  // scan-reassignment-unassign-id-mismatch: the assignment names another unassign event than its own.
  const assignUnassignId = ctx.faults.has('scan-reassignment-unassign-id-mismatch') ? otherId(u.unassignId) : u.unassignId;
  const event =
    u.kind === 'assign'
      ? {
          ...common,
          unassign_id: assignUnassignId,
          // scan-assignment-values-compact: an assignment's created event is written compact whatever encoding was asked.
          created_event: createdEvent(
            ctx.world,
            u.contract,
            eventId(u.updateId, 0),
            ctx.faults.has('scan-assignment-values-compact') ? 'compact' : shape.encoding,
          ),
          // scan-reassignment-counter-mismatch: the assignment is one ahead of its unassignment.
          reassignment_counter: counter + (ctx.faults.has('scan-reassignment-counter-mismatch') ? 1 : 0),
        }
      : { ...common, reassignment_counter: counter, contract_id: u.contract.contractId };
  // scan-reassignment-update-id-mismatch: the id with its last character changed.
  const updateId = ctx.faults.has('scan-reassignment-update-id-mismatch') ? otherId(u.updateId) : u.updateId;
  return { update_id: updateId, offset: historyOffset(ctx, u.index), record_time: historyTime(ctx, u.recordTimeMicros), event };
}

/** A well-formed id other than `id`: its last character changed. */
export function otherId(id: string): string {
  return id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');
}

export function renderVerdict(v: Verdict): JsonObject {
  return {
    update_id: v.updateId,
    migration_id: v.migrationId,
    domain_id: v.domainId,
    record_time: isoMicros(v.recordTimeMicros),
    finalization_time: isoMicros(v.finalizationTimeMicros),
    submitting_parties: v.submittingParties,
    submitting_participant_uid: v.submittingParticipantUid,
    verdict_result: v.result,
    mediator_group: v.mediatorGroup,
    transaction_views: {
      views: v.views.map((view) => ({
        view_id: view.viewId,
        informees: view.informees,
        confirming_parties: view.confirmingParties.map((c) => ({ parties: c.parties, threshold: c.threshold })),
        sub_views: view.subViews,
        view_hash: view.viewHash,
      })),
      root_views: v.rootViews,
    },
  };
}

export function renderTrafficSummary(v: Verdict): JsonObject {
  return {
    total_traffic_cost: v.trafficSummary.totalTrafficCost,
    envelope_traffic_summaries: v.trafficSummary.envelopes.map((e) => ({ traffic_cost: e.trafficCost, view_ids: e.viewIds })),
  };
}

export function renderAppActivity(v: Verdict): JsonObject | undefined {
  if (!v.appActivity) return undefined;
  return { round_number: v.appActivity.roundNumber, records: v.appActivity.records.map((r) => ({ party: r.party, weight: r.weight })) };
}
