// Update history by id: GET /v0/updates/{id} (UpdateHistoryTransaction) and the `update` of GET /v0/events/{id}
// (UpdateHistoryTransactionV2): event trees, record times, the external hash, key order, offsets and the
// payload encodings. Fixture transaction ids are looked up; ids the scan does not know are left out.
import type { CheckContext, Requirement } from '../model.ts';
import { fetchUpdates, historyGet, isObject, okObject, pointer, scanRequirement, SECTION, timeNanos, transactionOf, enc, type FetchedUpdate, type Json } from './common.ts';
import { keysInTextOrder } from './json-order.ts';

const WHERE = ['v0', 'events'] as const;
type Where = (typeof WHERE)[number];
const OP: Record<Where, string> = { v0: 'getUpdateByIdV0', events: 'getEventById' };
/** Path of the transaction record inside each answer, as a JSON pointer prefix. */
const BASE: Record<Where, string> = { v0: '', events: '/update' };

interface FetchedTx extends FetchedUpdate {
  where: Where;
  tx: Record<string, Json>;
}

/** The fixture transactions as both endpoints render them. */
async function transactions(ctx: CheckContext, where: readonly Where[] = WHERE): Promise<FetchedTx[]> {
  const out: FetchedTx[] = [];
  for (const w of where) {
    for (const u of await fetchUpdates(ctx, ctx.fixtures.transactionUpdateIds!, w)) {
      const tx = transactionOf(u.body, w);
      if (tx) out.push({ ...u, where: w, tx });
    }
  }
  if (out.length === 0) ctx.skip('none of the fixture transaction ids is answered with a transaction tree');
  return out;
}

const events = (tx: Record<string, Json>): Record<string, Json> => tx.events_by_id as Record<string, Json>;
const childIds = (e: Json): string[] => (isObject(e) && Array.isArray(e.child_event_ids) ? e.child_event_ids.filter((c: unknown) => typeof c === 'string') : []);

const treeRequirement = (id: string, sentence: string, problem: (tx: Record<string, Json>) => { message: string; pointer: string } | undefined): Requirement =>
  scanRequirement({
    id,
    level: 'MUST',
    operations: [OP.v0, OP.events],
    section: SECTION.updateTx,
    sentence,
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    async check(ctx) {
      for (const t of await transactions(ctx)) {
        const p = problem(t.tx);
        if (p) ctx.fail(`${t.where === 'v0' ? '/v0/updates' : '/v0/events'} ${t.id}: ${p.message}`, { exchange: t.exchange, pointer: BASE[t.where] + p.pointer });
      }
    },
  });

const rootsKnown = treeRequirement('SCAN-UPDATES-TREE-ROOTS-KNOWN', '`root_event_ids` string[] (each guaranteed to be a key of `events_by_id`)', (tx) => {
  const roots: unknown[] = Array.isArray(tx.root_event_ids) ? tx.root_event_ids : [];
  const k = roots.findIndex((r) => typeof r !== 'string' || !(r in events(tx)));
  return k < 0 ? undefined : { message: `root_event_ids[${k}] ${JSON.stringify(roots[k])} is not a key of events_by_id`, pointer: `/root_event_ids/${k}` };
});

const childrenKnown = treeRequirement('SCAN-UPDATES-TREE-CHILDREN-KNOWN', '`events_by_id` object (tree nodes keyed by event id; ids referenced from `root_event_ids` or `child_event_ids` of exercised events)', (tx) => {
  for (const [key, e] of Object.entries(events(tx))) {
    const k = childIds(e).findIndex((c) => !(c in events(tx)));
    if (k >= 0) return { message: `event ${key} lists child ${childIds(e)[k]} that is not a key of events_by_id`, pointer: `${pointer('events_by_id', key, 'child_event_ids')}/${k}` };
  }
  return undefined;
});

const allReachable = treeRequirement('SCAN-UPDATES-TREE-ALL-REACHABLE', '`events_by_id` object (tree nodes keyed by event id; ids referenced from `root_event_ids` or `child_event_ids` of exercised events)', (tx) => {
  const seen = new Set<string>();
  const todo: string[] = (Array.isArray(tx.root_event_ids) ? tx.root_event_ids : []).filter((r: unknown) => typeof r === 'string');
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (seen.has(id) || !(id in events(tx))) continue;
    seen.add(id);
    todo.push(...childIds(events(tx)[id]));
  }
  const orphan = Object.keys(events(tx)).find((k) => !seen.has(k));
  return orphan === undefined ? undefined : { message: `event ${orphan} is a key of events_by_id but no root_event_ids or child_event_ids path leads to it`, pointer: pointer('events_by_id', orphan) };
});

const createdEventId = treeRequirement('SCAN-UPDATES-CREATED-EVENT-ID', 'CreatedEvent: `event_id` string (equal to the key in the enclosing `events_by_id` when part of a tree)', (tx) => {
  for (const [key, e] of Object.entries(events(tx))) {
    // A created event is recognised by its create_arguments (event_type values are not enumerated).
    if (isObject(e) && 'create_arguments' in e && e.event_id !== key) return { message: `created event under key ${key} has event_id ${JSON.stringify(e.event_id)}`, pointer: pointer('events_by_id', key, 'event_id') };
  }
  return undefined;
});

const v2Sorted = scanRequirement({
  id: 'SCAN-EVENTS-V2-KEYS-SORTED',
  level: 'MUST',
  operations: [OP.events],
  section: SECTION.updateTxV2,
  sentence: 'UpdateHistoryTransactionV2: `events_by_id` is sorted lexicographically by id',
  needs: ['transactionUpdateIds'],
  tags: ['history', 'trees'],
  async check(ctx) {
    for (const t of await transactions(ctx, ['events'])) {
      // The order on the wire, read from the raw text (JSON.parse may reorder integer-like keys).
      const keys = keysInTextOrder(t.exchange.text, ['update', 'events_by_id']);
      if (!keys) continue;
      for (let k = 1; k < keys.length; k++) {
        if (keys[k - 1]! > keys[k]!) ctx.fail(`/v0/events ${t.id}: events_by_id key ${keys[k]} is written after ${keys[k - 1]}: not in lexicographic order`, { exchange: t.exchange, pointer: pointer('update', 'events_by_id', keys[k]!) });
      }
    }
  },
});

// ISO 8601 with at most microsecond digits. A node may trim trailing zeros (".5" for ".500000"), so six
// digits are not required; a finer or a non-ISO rendering breaks the rule.
const MICROS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/i;

const recordTimeMicros = scanRequirement({
  id: 'SCAN-UPDATES-RECORD-TIME-MICROS',
  level: 'MUST',
  operations: [OP.v0, OP.events],
  section: SECTION.updateTx,
  sentence: '`record_time` string (sequencing time, microsecond resolution, ISO 8601)',
  needs: ['transactionUpdateIds'],
  tags: ['history', 'time'],
  async check(ctx) {
    for (const t of await transactions(ctx)) {
      const rt = t.tx.record_time;
      if (typeof rt !== 'string' || !MICROS_ISO.test(rt) || timeNanos(rt) === undefined) {
        ctx.fail(`${t.id}: record_time ${JSON.stringify(rt)} is not an ISO 8601 timestamp of at most microsecond resolution`, { exchange: t.exchange, pointer: `${BASE[t.where]}/record_time` });
      }
    }
  },
});

const externalHashOmitted = scanRequirement({
  id: 'SCAN-UPDATES-EXTERNAL-HASH-OMITTED',
  level: 'MUST',
  operations: [OP.v0, OP.events],
  section: SECTION.updateTx,
  sentence: '`external_transaction_hash` string (optional; ... omitted from JSON when null)',
  needs: ['transactionUpdateIds'],
  tags: ['history', 'records'],
  async check(ctx) {
    for (const t of await transactions(ctx)) {
      if ('external_transaction_hash' in t.tx && typeof t.tx.external_transaction_hash !== 'string') {
        ctx.fail(`${t.id}: external_transaction_hash is present as ${JSON.stringify(t.tx.external_transaction_hash)}; without a hash the field must be omitted`, { exchange: t.exchange, pointer: `${BASE[t.where]}/external_transaction_hash` });
      }
    }
  },
});

const offsetsIncreasing = scanRequirement({
  id: 'SCAN-UPDATES-OFFSETS-INCREASING',
  level: 'MUST',
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
          ctx.fail(`update ${later.id} (record_time ${later.tx.record_time}) has offset ${later.tx.offset}, not lexicographically greater than offset ${earlier.tx.offset} of the earlier update ${earlier.id} (record_time ${earlier.tx.record_time})`, { exchange: later.exchange, pointer: '/offset' });
        }
      }
    }
  },
});

/** The parts of a transaction that do not depend on the payload encoding. */
function treeOutline(tx: Record<string, Json> | undefined): string {
  if (!tx) return 'no transaction';
  return JSON.stringify({ update_id: tx.update_id, roots: tx.root_event_ids, keys: Object.keys(tx.events_by_id ?? {}).sort() });
}

function encodingRequirement(id: string, where: Where, param: string, values: [string, string], sentence: string, section: string): Requirement {
  return scanRequirement({
    id,
    level: 'MUST',
    operations: [OP[where]],
    section,
    sentence,
    needs: ['transactionUpdateIds'],
    tags: ['history', 'encodings'],
    async check(ctx) {
      const path = where === 'v0' ? '/v0/updates/' : '/v0/events/';
      let checked = 0;
      for (const updateId of ctx.fixtures.transactionUpdateIds!.slice(0, 4)) {
        const answers = [];
        for (const value of values) {
          const x = await historyGet(ctx, path + enc(updateId), { [param]: value });
          if (x.status === 404) break;
          const body = okObject(ctx, x, `${param}=${value} is an allowed value`);
          const tx = transactionOf(body, where);
          if (!tx) return ctx.fail(`${param}=${value}: the answer for transaction ${updateId} carries no transaction tree`, { exchange: x });
          if (tx.update_id !== updateId) ctx.fail(`${param}=${value}: update_id ${JSON.stringify(tx.update_id)} is not the requested ${updateId}`, { exchange: x, pointer: `${BASE[where]}/update_id` });
          answers.push({ x, outline: treeOutline(tx) });
        }
        if (answers.length < 2) continue;
        checked++;
        if (answers[0]!.outline !== answers[1]!.outline) {
          ctx.fail(`${param}=${values[0]} and ${param}=${values[1]} describe different trees for ${updateId} (update id, roots or event ids differ); only the payload encoding may differ`, { exchange: answers[1]!.x });
        }
      }
      if (checked === 0) ctx.skip('none of the fixture transaction ids is known to the scan (404)');
    },
  });
}

const losslessVariants = encodingRequirement('SCAN-UPDATES-LOSSLESS-VARIANTS', 'v0', 'lossless', ['false', 'true'],
  'Query `lossless` boolean optional, default false: lossless but hard-to-process payload encoding', SECTION.updatesV0);
const encodingVariants = encodingRequirement('SCAN-EVENTS-ENCODING-VARIANTS', 'events', 'daml_value_encoding', ['compact_json', 'protobuf_json'],
  'Query `daml_value_encoding` optional, allowed `compact_json` (default ...) and `protobuf_json` (verbose, ... losslessly parsable)', SECTION.events);

export const UPDATE_HISTORY_REQUIREMENTS: Requirement[] = [
  rootsKnown, childrenKnown, allReachable, createdEventId, v2Sorted, recordTimeMicros, externalHashOmitted, offsetsIncreasing, losslessVariants, encodingVariants,
];
