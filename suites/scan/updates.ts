// Update history by id: GET /v0/updates/{id} (UpdateHistoryTransaction) and the `update` of GET /v0/events/{id}
// (UpdateHistoryTransactionV2): event trees, record times, the external hash, offsets and the lossless
// encoding. Fixture transaction ids are looked up; ids the scan does not know are left out. (The rules only
// GET /v0/events has, its key order and its value encodings, are in events.ts.)
import { isObject, pointer, type Json } from '../../common/json.ts';
import type { CheckContext, Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';
import { SECTION, timeNanos } from './common.ts';
import { BASE, encodingCheck, OP, transactions } from './history.ts';

const events = (tx: Record<string, Json>): Record<string, Json> => tx.events_by_id as Record<string, Json>;
const childIds = (e: Json): string[] =>
  isObject(e) && Array.isArray(e.child_event_ids) ? e.child_event_ids.filter((c: unknown) => typeof c === 'string') : [];

/** A check of every fixture transaction tree, as both endpoints render it: `problem` names the first problem of one. */
function treeCheck(problem: (tx: Record<string, Json>) => { message: string; pointer: string } | undefined): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    for (const t of await transactions(ctx)) {
      const p = problem(t.tx);
      if (p) ctx.fail(`${t.where === 'v0' ? '/v0/updates' : '/v0/events'} ${t.id}: ${p.message}`, { exchange: t.exchange, pointer: BASE[t.where] + p.pointer });
    }
  };
}

// ISO 8601 with at most microsecond digits. A node may trim trailing zeros (".5" for ".500000"), so six
// digits are not required; a finer or a non-ISO rendering breaks the rule.
const MICROS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/i;

export const UPDATE_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'SCAN-UPDATES-TREE-ROOTS-KNOWN',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence: '`root_event_ids` string[] (each guaranteed to be a key of `events_by_id`)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    check: treeCheck((tx) => {
      const roots: unknown[] = Array.isArray(tx.root_event_ids) ? tx.root_event_ids : [];
      const k = roots.findIndex((r) => typeof r !== 'string' || !(r in events(tx)));
      return k < 0 ? undefined : { message: `root_event_ids[${k}] ${JSON.stringify(roots[k])} is not a key of events_by_id`, pointer: `/root_event_ids/${k}` };
    }),
  },
  {
    id: 'SCAN-UPDATES-TREE-CHILDREN-KNOWN',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence: '`events_by_id` object (tree nodes keyed by event id; ids referenced from `root_event_ids` or `child_event_ids` of exercised events)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    check: treeCheck((tx) => {
      for (const [key, e] of Object.entries(events(tx))) {
        const k = childIds(e).findIndex((c) => !(c in events(tx)));
        if (k >= 0)
          return {
            message: `event ${key} lists child ${childIds(e)[k]} that is not a key of events_by_id`,
            pointer: `${pointer('events_by_id', key, 'child_event_ids')}/${k}`,
          };
      }
      return undefined;
    }),
  },
  {
    id: 'SCAN-UPDATES-TREE-ALL-REACHABLE',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence: '`events_by_id` object (tree nodes keyed by event id; ids referenced from `root_event_ids` or `child_event_ids` of exercised events)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    check: treeCheck((tx) => {
      const seen = new Set<string>();
      const todo: string[] = (Array.isArray(tx.root_event_ids) ? tx.root_event_ids : []).filter((r: unknown) => typeof r === 'string');
      while (todo.length > 0) {
        const id = todo.pop()!;
        if (seen.has(id) || !(id in events(tx))) continue;
        seen.add(id);
        todo.push(...childIds(events(tx)[id]));
      }
      const orphan = Object.keys(events(tx)).find((k) => !seen.has(k));
      return orphan === undefined
        ? undefined
        : {
            message: `event ${orphan} is a key of events_by_id but no root_event_ids or child_event_ids path leads to it`,
            pointer: pointer('events_by_id', orphan),
          };
    }),
  },
  {
    id: 'SCAN-UPDATES-CREATED-EVENT-ID',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence: 'CreatedEvent: `event_id` string (equal to the key in the enclosing `events_by_id` when part of a tree)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    check: treeCheck((tx) => {
      for (const [key, e] of Object.entries(events(tx))) {
        // A created event is recognised by its create_arguments (event_type values are not enumerated).
        if (isObject(e) && 'create_arguments' in e && e.event_id !== key)
          return { message: `created event under key ${key} has event_id ${JSON.stringify(e.event_id)}`, pointer: pointer('events_by_id', key, 'event_id') };
      }
      return undefined;
    }),
  },
  {
    id: 'SCAN-UPDATES-RECORD-TIME-MICROS',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence: '`record_time` string (sequencing time, microsecond resolution, ISO 8601)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'time'],
    async check(ctx) {
      for (const t of await transactions(ctx)) {
        const rt = t.tx.record_time;
        if (typeof rt !== 'string' || !MICROS_ISO.test(rt) || timeNanos(rt) === undefined) {
          ctx.fail(`${t.id}: record_time ${JSON.stringify(rt)} is not an ISO 8601 timestamp of at most microsecond resolution`, {
            exchange: t.exchange,
            pointer: `${BASE[t.where]}/record_time`,
          });
        }
      }
    },
  },
  {
    id: 'SCAN-UPDATES-EXTERNAL-HASH-OMITTED',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence: '`external_transaction_hash` string (optional; ... omitted from JSON when null)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'records'],
    async check(ctx) {
      for (const t of await transactions(ctx)) {
        if ('external_transaction_hash' in t.tx && typeof t.tx.external_transaction_hash !== 'string') {
          ctx.fail(
            `${t.id}: external_transaction_hash is present as ${JSON.stringify(t.tx.external_transaction_hash)}; without a hash the field must be omitted`,
            { exchange: t.exchange, pointer: `${BASE[t.where]}/external_transaction_hash` },
          );
        }
      }
    },
  },
  {
    id: 'SCAN-UPDATES-OFFSETS-INCREASING',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0],
    section: SECTION.updateTx,
    sentence: '`offset` string (absolute offset; ... within one node monotonically, lexicographically increasing)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'offsets'],
    async check(ctx) {
      // Order of the history on one synchronizer within one migration is the order of record times; offsets of
      // different synchronizers or migrations are not compared.
      const txs = (await transactions(ctx, ['v0']))
        .map((t) => ({ ...t, at: timeNanos(t.tx.record_time), group: `${t.tx.migration_id}|${t.tx.synchronizer_id}` }))
        .filter((t) => t.at !== undefined && typeof t.tx.offset === 'string')
        .sort((a, b) => (a.at! < b.at! ? -1 : a.at! > b.at! ? 1 : 0));
      for (const [k, later] of txs.entries()) {
        for (const earlier of txs.slice(0, k)) {
          if (earlier.group !== later.group || earlier.at === later.at) continue;
          if (!(later.tx.offset > earlier.tx.offset)) {
            ctx.fail(
              `update ${later.id} (record_time ${later.tx.record_time}) has offset ${later.tx.offset}, not lexicographically greater than offset ${earlier.tx.offset} of the earlier update ${earlier.id} (record_time ${earlier.tx.record_time})`,
              { exchange: later.exchange, pointer: '/offset' },
            );
          }
        }
      }
    },
  },
  {
    id: 'SCAN-UPDATES-LOSSLESS-VARIANTS',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.v0],
    section: SECTION.updatesV0,
    sentence: 'Query `lossless` boolean optional, default false: lossless but hard-to-process payload encoding',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'encodings'],
    check: encodingCheck('v0', 'lossless', ['false', 'true']),
  },
]);
