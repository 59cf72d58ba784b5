// UpdateHistoryTransactionV2: `child_event_ids` are in the order the events occurred (unlike `events_by_id`,
// sorted by id). Where the order of occurrence shows: event ids of the form `<update id>:<n>` (as real nodes
// write them) carry the event's node position, numbered in the order the transaction's events occurred, so
// the children of an event must come in increasing n. Ids of another form leave the order unjudged (skip).
// One requirement per rendering: updates-child-order.ts and events-child-order.ts.
import { isObject, pointer, type Json } from '../../common/json.ts';
import { rule } from '../../engine/requirement.ts';
import { BASE, LABEL, named, OP, transactions, V2_RECORD_ONLY, type Where } from './history.ts';
import { NO_TREE, RENDERED_BY } from './tree-rules.ts';

/** The node position of every event of a transaction, or undefined when its ids do not carry one. */
function positions(tx: Record<string, Json>): Map<string, number> | undefined {
  const out = new Map<string, number>();
  for (const key of Object.keys(tx.events_by_id as Record<string, Json>)) {
    const m = /^(.*):(\d{1,9})$/.exec(key);
    if (!m || m[1] !== tx.update_id) return undefined;
    out.set(key, Number(m[2]));
  }
  return out;
}

/** The rule on one V2 rendering, all but its id (written out where it is defined). */
export function childOrderRequirement(where: Exclude<Where, 'v0'>) {
  return rule({
    operations: [OP[where]],
    cites: ['R.scan.19', ...RENDERED_BY[where]],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'trees'],
    variants: where === 'v2' ? { ...NO_TREE, ...V2_RECORD_ONLY } : NO_TREE,
    async check(ctx) {
      let judged = 0;
      // The order is the tree's, not the payload's: the event items are judged in both value encodings (transactions reads both).
      for (const t of await transactions(ctx, where)) {
        const at = positions(t.tx);
        if (!at) continue;
        for (const [key, e] of Object.entries(t.tx.events_by_id as Record<string, Json>)) {
          // Children that are no event of the tree are another rule's (SCAN-...-TREE-CHILDREN-KNOWN).
          const listed: unknown[] = isObject(e) && Array.isArray(e.child_event_ids) ? e.child_event_ids : [];
          const known = listed.flatMap((c, k) => (at.has(c as string) ? [{ id: c as string, k, n: at.get(c as string)! }] : []));
          if (known.length < 2) continue;
          judged++;
          const j = known.findIndex((c, i) => i > 0 && c.n <= known[i - 1]!.n);
          if (j > 0)
            ctx
              .expect(t.exchange)
              .fail(
                `${named(t, where)}: event ${key} lists child ${known[j]!.id} after ${known[j - 1]!.id}, though it occurred earlier (node positions ${known[j]!.n} and ${known[j - 1]!.n})`,
                `${BASE[where]}${pointer('events_by_id', key, 'child_event_ids')}/${known[j]!.k}`,
              );
        }
      }
      if (judged === 0) ctx.skip(`no fixture transaction on ${LABEL[where]} has an event with two or more children and event ids of the form <update id>:<n>`);
    },
  });
}
