// The rules of the transaction record that every history endpoint renders (UpdateHistoryTransaction on
// /v0/updates, UpdateHistoryTransactionV2 on /v2/updates and in the `update` of /v0/events): event trees,
// record time and the external hash. Each rule is stated once here and becomes one requirement per endpoint
// (updates.ts, events.ts), so that an endpoint the scan does not serve leaves the others judged.
import { pointer, type Json } from '../../common/json.ts';
import type { CheckContext } from '../../engine/model.ts';
import { rule } from '../../engine/requirement.ts';
import { RECORD_FACTS, type RecordFactName } from '../../generators/record-facts.ts';
import { BASE, named, OP, otherVersionApart, V2_RECORD_ONLY, transactions, type Where } from './history.ts';
import { keysInTextOrder } from './json-order.ts';

type Problem = { message: string; pointer: string } | undefined;

export interface TreeRule {
  /** The sentences it enforces, by number: the record's, which RENDERED_BY ties to each endpoint. */
  cites: readonly string[];
  tags: string[];
  /** The first problem of one transaction record; the pointer is relative to the record. */
  problem(tx: Record<string, Json>): Problem;
}

// Each rule's logic is the record fact of the same name (generators/record-facts.ts), which the scan document
// also puts on the record's schemas: the generic answer review judges it on every answer that carries the
// record, these requirements on each history endpoint by name.
/** Why a rule of the event tree does not apply to a reassignment (Requirement.variants). */
export const NO_TREE = {
  'record-type': { reassignment: 'a rule of the event tree (events_by_id) of a transaction: a reassignment carries one event and no tree' },
};

const fact = (name: RecordFactName, tags: string[]): TreeRule => ({ cites: RECORD_FACTS[name].cites, tags, problem: RECORD_FACTS[name].problem });

export const TREE_RULES = {
  rootsKnown: fact('tree-roots-known', ['history', 'trees']),
  childrenKnown: fact('tree-children-known', ['history', 'trees']),
  allReachable: fact('tree-all-reachable', ['history', 'trees']),
  createdEventId: fact('tree-created-event-id', ['history', 'trees']),
  recordTimeMicros: fact('record-time-micros', ['history', 'time']),
  effectiveAtIso: fact('effective-at-iso', ['history', 'time']),
  eventTypes: fact('tree-event-types', ['history', 'trees']),
  externalHashOmitted: fact('external-hash-omitted', ['history', 'records']),
} satisfies Record<string, TreeRule>;

/** A check of every fixture transaction as one endpoint renders it. */
function treeCheck(where: Where, problem: TreeRule['problem']): (ctx: CheckContext<'transactionUpdateIds'>) => Promise<void> {
  return async (ctx) => {
    for (const t of await transactions(ctx, where)) {
      const p = problem(t.tx);
      if (p) ctx.expect(t.exchange).fail(`${named(t, where)}: ${p.message}`, BASE[where] + p.pointer);
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
    variants: { ...NO_TREE, ...otherVersionApart(where) },
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
    variants: where === 'v2' ? { ...NO_TREE, ...V2_RECORD_ONLY } : NO_TREE,
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
              .fail(`${named(t, where)}: events_by_id key ${keys[k]} is written after ${keys[k - 1]}: not in lexicographic order`, pointer(...path, keys[k]!));
        }
      }
    },
  });
}
