// The rules of the transaction record that every history endpoint renders (UpdateHistoryTransaction on
// /v0/updates, UpdateHistoryTransactionV2 on /v2/updates and in the `update` of /v0/events): event trees,
// record time and the external hash. Each rule is stated once here and becomes one requirement per endpoint
// (updates.ts, events.ts), so that an endpoint the scan does not serve leaves the others judged.
import { isObject, pointer, type Json } from '../../common/json.ts';
import type { CheckContext } from '../../engine/model.ts';
import { rule } from '../../engine/requirement.ts';
import { timeNanos } from '../../interfaces/scan/common.ts';
import { BASE, LABEL, OP, transactions, type Where } from './history.ts';
import { keysInTextOrder } from './json-order.ts';

type Problem = { message: string; pointer: string } | undefined;

export interface TreeRule {
  /** The sentences it enforces, by number: the record's, which RENDERED_BY ties to each endpoint. */
  cites: readonly string[];
  tags: string[];
  /** The first problem of one transaction record; the pointer is relative to the record. */
  problem(tx: Record<string, Json>): Problem;
}

/** Why a rule of the event tree does not apply to a reassignment (Requirement.variants). */
const NO_TREE = { 'record-type': { reassignment: 'a rule of the event tree (events_by_id) of a transaction: a reassignment carries one event and no tree' } };

const events = (tx: Record<string, Json>): Record<string, Json> => tx.events_by_id as Record<string, Json>;
const childIds = (e: Json): string[] =>
  isObject(e) && Array.isArray(e.child_event_ids) ? e.child_event_ids.filter((c: unknown) => typeof c === 'string') : [];

// ISO 8601 with at most microsecond digits. A node may trim trailing zeros (".5" for ".500000"), so six
// digits are not required; a finer or a non-ISO rendering breaks the rule.
const MICROS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/i;

export const TREE_RULES = {
  rootsKnown: {
    cites: ['R.scan.13', 'X.events.5'],
    tags: ['history', 'trees'],
    problem(tx) {
      const roots: unknown[] = Array.isArray(tx.root_event_ids) ? tx.root_event_ids : [];
      const k = roots.findIndex((r) => typeof r !== 'string' || !(r in events(tx)));
      return k < 0 ? undefined : { message: `root_event_ids[${k}] ${JSON.stringify(roots[k])} is not a key of events_by_id`, pointer: `/root_event_ids/${k}` };
    },
  },
  childrenKnown: {
    cites: ['R.scan.14', 'X.events.5'],
    tags: ['history', 'trees'],
    problem(tx) {
      for (const [key, e] of Object.entries(events(tx))) {
        const k = childIds(e).findIndex((c) => !(c in events(tx)));
        if (k >= 0)
          return {
            message: `event ${key} lists child ${childIds(e)[k]} that is not a key of events_by_id`,
            pointer: `${pointer('events_by_id', key, 'child_event_ids')}/${k}`,
          };
      }
      return undefined;
    },
  },
  allReachable: {
    cites: ['R.scan.14', 'X.events.5'],
    tags: ['history', 'trees'],
    problem(tx) {
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
    },
  },
  createdEventId: {
    cites: ['R.scan.7'],
    tags: ['history', 'trees'],
    problem(tx) {
      for (const [key, e] of Object.entries(events(tx))) {
        // A created event is recognised by its create_arguments (event_type values are not enumerated).
        if (isObject(e) && 'create_arguments' in e && e.event_id !== key)
          return { message: `created event under key ${key} has event_id ${JSON.stringify(e.event_id)}`, pointer: pointer('events_by_id', key, 'event_id') };
      }
      return undefined;
    },
  },
  recordTimeMicros: {
    cites: ['R.scan.9'],
    tags: ['history', 'time'],
    problem(tx) {
      const rt = tx.record_time;
      return typeof rt === 'string' && MICROS_ISO.test(rt) && timeNanos(rt) !== undefined
        ? undefined
        : { message: `record_time ${JSON.stringify(rt)} is not an ISO 8601 timestamp of at most microsecond resolution`, pointer: '/record_time' };
    },
  },
  effectiveAtIso: {
    cites: ['R.scan.10'],
    tags: ['history', 'time'],
    problem(tx) {
      // No resolution is named for it: any ISO 8601 precision passes.
      return timeNanos(tx.effective_at) !== undefined
        ? undefined
        : { message: `effective_at ${JSON.stringify(tx.effective_at)} is not an ISO 8601 timestamp`, pointer: '/effective_at' };
    },
  },
  eventTypes: {
    cites: ['X.events.6'],
    tags: ['history', 'trees'],
    problem(tx) {
      const key = Object.keys(events(tx)).find((k) => {
        const e = events(tx)[k];
        return isObject(e) && typeof e.event_type !== 'string';
      });
      return key === undefined ? undefined : { message: `event ${key} carries no event_type string`, pointer: pointer('events_by_id', key, 'event_type') };
    },
  },
  externalHashOmitted: {
    cites: ['R.scan.16'],
    tags: ['history', 'records'],
    problem(tx) {
      return 'external_transaction_hash' in tx && typeof tx.external_transaction_hash !== 'string'
        ? {
            message: `external_transaction_hash is present as ${JSON.stringify(tx.external_transaction_hash)}; without a hash the field must be omitted`,
            pointer: '/external_transaction_hash',
          }
        : undefined;
    },
  },
} satisfies Record<string, TreeRule>;

/** A check of every fixture transaction as one endpoint renders it. */
function treeCheck(where: Where, problem: TreeRule['problem']): (ctx: CheckContext<'transactionUpdateIds'>) => Promise<void> {
  return async (ctx) => {
    for (const t of await transactions(ctx, where)) {
      const p = problem(t.tx);
      if (p) ctx.expect(t.exchange).fail(`${LABEL[where]} ${t.id}: ${p.message}`, BASE[where] + p.pointer);
    }
  };
}

/**
 * What ties a rule of the transaction record to each endpoint that renders it: /v0/updates answers an
 * UpdateHistoryTransaction; /v2/updates is its successor (Versioning); the `update` of /v0/events is the
 * V2 record, "the same as above without offset".
 */
export const RENDERED_BY: Record<Where, readonly string[]> = {
  v0: ['C.updates-v0.4'],
  v2: ['X.versioning.6'],
  events: ['R.scan.17', 'C.events.4'],
};

/** The requirement record of a rule on one endpoint, all but its id (written out where it is defined). */
export function treeRequirement(tree: TreeRule, where: Where) {
  return rule({
    operations: [OP[where]],
    cites: [...tree.cites, ...RENDERED_BY[where]],
    needs: ['transactionUpdateIds'],
    tags: tree.tags,
    variants: NO_TREE,
    check: treeCheck(where, tree.problem),
  });
}

/** UpdateHistoryTransactionV2's key order, on the wire, for the V2 renderings (/v2/updates, /v0/events). */
export function keysSortedRequirement(where: Exclude<Where, 'v0'>) {
  return rule({
    operations: [OP[where]],
    cites: ['R.scan.18', ...RENDERED_BY[where]],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    variants: NO_TREE,
    async check(ctx) {
      for (const t of await transactions(ctx, where)) {
        // The order on the wire, read from the raw text (JSON.parse may reorder integer-like keys).
        const path = where === 'events' ? ['update', 'events_by_id'] : ['events_by_id'];
        const keys = keysInTextOrder(t.exchange.text, path);
        if (!keys) continue;
        for (let k = 1; k < keys.length; k++) {
          if (keys[k - 1]! > keys[k]!)
            ctx
              .expect(t.exchange)
              .fail(
                `${LABEL[where]} ${t.id}: events_by_id key ${keys[k]} is written after ${keys[k - 1]}: not in lexicographic order`,
                pointer(...path, keys[k]!),
              );
        }
      }
    },
  });
}
