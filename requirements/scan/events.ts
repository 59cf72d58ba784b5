// GET /v0/events/{update_id}: the event history item (its verdict, the verdict's transaction views, the
// traffic summary and the app activity records) and the transaction it carries (UpdateHistoryTransactionV2:
// the tree, time and hash rules of tree-rules.ts, judged here on their own; key order; the value encodings).
// Item parts are optional ("some combination"); each rule looks at the parts present in the answers for the
// fixture transactions. A part sent as null is absent: real nodes send `"verdict": null` on items of early
// migrations and `"update": null` on verdict-only items.
import { isObject, isStringArray, type Json } from '../../common/json.ts';
import { isInt64, isInt64Array } from '../../engine/int64.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { encodingCheck, fetchRenderings, lookupCheck, named, OP, transactions, type FetchedUpdate } from './history.ts';
import { keysSortedRequirement, TREE_RULES, treeRequirement } from './tree-rules.ts';
import { sameContentVerbose } from './value-encodings.ts';

/**
 * The event items of the fixture updates, transactions and reassignments (the item carries "a transaction or
 * reassignment"), in both value encodings (fetchRenderings): the parts of the item are the same whatever its update.
 */
async function eventItems(ctx: CheckContext<'transactionUpdateIds'>): Promise<FetchedUpdate[]> {
  return fetchRenderings(ctx, [...ctx.fixtures.transactionUpdateIds, ...(ctx.fixtures.reassignmentUpdateIds ?? [])], 'events');
}

type Check = (item: FetchedUpdate) => { message: string; pointer: string } | undefined;

/** A check of the answers for the fixture transactions that carry `part` (skipped when none does). */
function itemCheck(part: string, check: Check): (ctx: CheckContext<'transactionUpdateIds'>) => Promise<void> {
  return async (ctx) => {
    let seen = 0;
    for (const item of await eventItems(ctx)) {
      if (item.body[part] === undefined || item.body[part] === null) continue;
      seen++;
      const p = check(item);
      if (p) ctx.expect(item.exchange).fail(`${named(item, 'events')}: ${p.message}`, p.pointer);
    }
    if (seen === 0) ctx.skip(`no answer for the fixture transaction ids carries ${part}`);
  };
}

function viewIds(verdict: Json): Set<number> | undefined {
  const views = isObject(verdict) && isObject(verdict.transaction_views) ? verdict.transaction_views.views : undefined;
  return Array.isArray(views)
    ? new Set(
        views
          .filter(isObject)
          .map((v) => v.view_id)
          .filter(isInt64),
      )
    : undefined;
}

export const EVENT_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  rule({
    id: 'SCAN-EVENTS-BY-ID',
    operations: [OP.events],
    cites: ['R.scan.28', 'C.events.4'],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'events'],
    confirms: OP.events,
    check: lookupCheck('events'),
  }),
  rule({
    id: 'SCAN-EVENTS-VERDICT-FIELDS',
    operations: ['getEventById'],
    cites: ['R.scan.28', 'C.events.4'],
    needs: ['transactionUpdateIds'],
    tags: ['events'],
    check: itemCheck('verdict', ({ id, body }) => {
      const v = body.verdict;
      if (!isObject(v)) return { message: 'verdict is not an object', pointer: '/verdict' };
      const strings = ['update_id', 'domain_id', 'record_time', 'finalization_time', 'submitting_participant_uid', 'verdict_result'];
      const bad = [
        ...strings.filter((f) => typeof v[f] !== 'string'),
        ...['migration_id', 'mediator_group'].filter((f) => !isInt64(v[f])),
        ...(isStringArray(v.submitting_parties) ? [] : ['submitting_parties']),
        ...(isObject(v.transaction_views) ? [] : ['transaction_views']),
      ];
      if (bad.length > 0) return { message: `verdict fields of the wrong type or missing: ${bad.join(', ')}`, pointer: `/verdict/${bad[0]}` };
      // The event was looked up by the id of a transaction: its verdict is about that transaction.
      if (v.update_id !== id)
        return { message: `verdict.update_id ${v.update_id} is not the transaction ${id} the event was looked up by`, pointer: '/verdict/update_id' };
      return undefined;
    }),
  }),
  rule({
    id: 'SCAN-EVENTS-VERDICT-VIEWS',
    operations: ['getEventById'],
    cites: ['R.scan.29', 'R.scan.30', 'C.events.4'],
    needs: ['transactionUpdateIds'],
    tags: ['events'],
    check: itemCheck('verdict', ({ body }) => {
      const tv = isObject(body.verdict) ? body.verdict.transaction_views : undefined;
      if (!isObject(tv) || !Array.isArray(tv.views) || !isInt64Array(tv.root_views))
        return { message: 'transaction_views needs a views array and a root_views integer array', pointer: '/verdict/transaction_views' };
      for (const [k, view] of (tv.views as Json[]).entries()) {
        const ok =
          isObject(view) &&
          isInt64(view.view_id) &&
          isStringArray(view.informees) &&
          isInt64Array(view.sub_views) &&
          typeof view.view_hash === 'string' &&
          Array.isArray(view.confirming_parties) &&
          view.confirming_parties.every((c: Json) => isObject(c) && isStringArray(c.parties) && isInt64(c.threshold));
        if (!ok)
          return { message: `views[${k}] lacks a field of the view record or has one of the wrong type`, pointer: `/verdict/transaction_views/views/${k}` };
      }
      const ids = viewIds(body.verdict)!;
      const r = tv.root_views.findIndex((v: number) => !ids.has(v));
      if (r >= 0) return { message: `root_views[${r}] = ${tv.root_views[r]} names no view`, pointer: `/verdict/transaction_views/root_views/${r}` };
      for (const [k, view] of (tv.views as Json[]).entries()) {
        const s = view.sub_views.findIndex((v: number) => !ids.has(v));
        if (s >= 0)
          return {
            message: `view ${view.view_id} lists sub view ${view.sub_views[s]} that names no view`,
            pointer: `/verdict/transaction_views/views/${k}/sub_views/${s}`,
          };
      }
      return undefined;
    }),
  }),
  rule({
    id: 'SCAN-EVENTS-TRAFFIC-SUMMARY',
    operations: ['getEventById'],
    cites: ['R.scan.31', 'C.events.4'],
    needs: ['transactionUpdateIds'],
    tags: ['events'],
    check: itemCheck('traffic_summary', ({ body }) => {
      const t = body.traffic_summary;
      if (!isObject(t) || !isInt64(t.total_traffic_cost) || !Array.isArray(t.envelope_traffic_summaries))
        return { message: 'traffic_summary needs an integer total_traffic_cost and an envelope_traffic_summaries array', pointer: '/traffic_summary' };
      const ids = viewIds(body.verdict);
      for (const [k, e] of (t.envelope_traffic_summaries as Json[]).entries()) {
        if (!isObject(e) || !isInt64(e.traffic_cost) || !isInt64Array(e.view_ids))
          return {
            message: `envelope_traffic_summaries[${k}] needs an integer traffic_cost and integer view_ids`,
            pointer: `/traffic_summary/envelope_traffic_summaries/${k}`,
          };
        // The envelopes carry the views of the verdict's transaction (checked when the verdict is there).
        const missing = ids ? e.view_ids.find((v: number) => !ids.has(v)) : undefined;
        if (missing !== undefined)
          return {
            message: `envelope ${k} names view ${missing}, which is not among the verdict's views`,
            pointer: `/traffic_summary/envelope_traffic_summaries/${k}/view_ids`,
          };
      }
      return undefined;
    }),
  }),
  rule({
    id: 'SCAN-EVENTS-APP-ACTIVITY',
    operations: ['getEventById'],
    cites: ['R.scan.32', 'C.events.4'],
    needs: ['transactionUpdateIds'],
    tags: ['events'],
    check: itemCheck('app_activity_records', ({ body }) => {
      const a = body.app_activity_records;
      if (!isObject(a) || !isInt64(a.round_number) || !Array.isArray(a.records))
        return { message: 'app_activity_records needs an integer round_number and a records array', pointer: '/app_activity_records' };
      const k = (a.records as Json[]).findIndex((r) => !isObject(r) || typeof r.party !== 'string' || !isInt64(r.weight));
      return k < 0 ? undefined : { message: `records[${k}] needs a party string and an integer weight`, pointer: `/app_activity_records/records/${k}` };
    }),
  }),
  { id: 'SCAN-EVENTS-V2-KEYS-SORTED', ...keysSortedRequirement('events') },
  rule({
    id: 'SCAN-EVENTS-ENCODING-VARIANTS',
    operations: [OP.events],
    cites: ['C.events.1', 'C.events.3'],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'encodings'],
    check: encodingCheck('events', 'daml_value_encoding', ['compact_json', 'protobuf_json'], sameContentVerbose),
  }),
  rule({
    id: 'SCAN-EVENTS-UPDATE-NO-OFFSET',
    operations: [OP.events],
    cites: ['R.scan.17'],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'events', 'offsets'],
    variants: {
      'record-type': {
        reassignment:
          'R.scan.17 says UpdateHistoryTransactionV2 is "the same as above without offset"; of a reassignment in the event item the description says no such thing (open)',
      },
    },
    async check(ctx) {
      // A null offset is as absent as a null part of the item.
      for (const t of await transactions(ctx, 'events'))
        if (t.tx.offset !== undefined && t.tx.offset !== null)
          ctx
            .expect(t.exchange)
            .fail(
              `${named(t, 'events')}: the transaction update carries offset ${JSON.stringify(t.tx.offset)}; UpdateHistoryTransactionV2 is without offset`,
              '/update/offset',
            );
    },
  }),
  { id: 'SCAN-EVENTS-UPDATE-TREE-ROOTS-KNOWN', ...treeRequirement(TREE_RULES.rootsKnown, 'events') },
  { id: 'SCAN-EVENTS-UPDATE-TREE-CHILDREN-KNOWN', ...treeRequirement(TREE_RULES.childrenKnown, 'events') },
  { id: 'SCAN-EVENTS-UPDATE-TREE-ALL-REACHABLE', ...treeRequirement(TREE_RULES.allReachable, 'events') },
  { id: 'SCAN-EVENTS-UPDATE-CREATED-EVENT-ID', ...treeRequirement(TREE_RULES.createdEventId, 'events') },
  { id: 'SCAN-EVENTS-UPDATE-RECORD-TIME-MICROS', ...treeRequirement(TREE_RULES.recordTimeMicros, 'events') },
  { id: 'SCAN-EVENTS-UPDATE-EXTERNAL-HASH-OMITTED', ...treeRequirement(TREE_RULES.externalHashOmitted, 'events') },
]);
