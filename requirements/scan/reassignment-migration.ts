// The migration id a reassignment carries: the target synchronizer's for an assignment, the source's for an
// unassignment. A synchronizer's migrations follow each other in time, so a reassignment recorded between two
// fixture transactions of that synchronizer that share a migration id belongs to that migration. Reassignments
// without such a bracket among the fixtures are not judged.
import { isObject, type Json } from '../../common/json.ts';
import { isInt64 } from '../../engine/int64.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { timeNanos } from '../../interfaces/scan/common.ts';
import { BASE, fetchServedUpdates, LABEL, OP, reassignmentOf, transactionOf, WHERE } from './history.ts';

interface Stamp {
  id: string;
  at: bigint;
  migration: Json;
}

/** The closest transaction before and after `at` on the synchronizer. */
function bracket(txs: Stamp[], at: bigint): [Stamp, Stamp] | undefined {
  const earlier = txs.filter((t) => t.at < at).sort((a, b) => (a.at < b.at ? 1 : -1))[0];
  const later = txs.filter((t) => t.at > at).sort((a, b) => (a.at < b.at ? -1 : 1))[0];
  return earlier && later ? [earlier, later] : undefined;
}

export const REASSIGNMENT_MIGRATION_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: WHERE.map((w) => OP[w]),
    cites: ['R.scan.23'],
  },
  [
    rule({
      id: 'SCAN-REASSIGNMENT-MIGRATION-OF-SYNCHRONIZER',
      needs: ['transactionUpdateIds', 'reassignmentUpdateIds'],
      tags: ['history', 'reassignments'],
      async check(ctx) {
        const txServed = await fetchServedUpdates(ctx, ctx.fixtures.transactionUpdateIds);
        let judged = 0;
        for (const { where, updates } of await fetchServedUpdates(ctx, ctx.fixtures.reassignmentUpdateIds)) {
          const bySync = new Map<string, Stamp[]>();
          for (const u of txServed.find((s) => s.where === where)?.updates ?? []) {
            const tx = transactionOf(u.body, where);
            const at = timeNanos(tx?.record_time);
            if (!tx || at === undefined || typeof tx.synchronizer_id !== 'string' || !isInt64(tx.migration_id)) continue;
            bySync.set(tx.synchronizer_id, [...(bySync.get(tx.synchronizer_id) ?? []), { id: u.id, at, migration: tx.migration_id }]);
          }
          for (const u of updates) {
            const r = reassignmentOf(u.body, where);
            const ev = r?.event;
            const at = timeNanos(r?.record_time);
            if (!isObject(ev) || at === undefined || !isInt64(ev.migration_id)) continue;
            const assign = isObject(ev.created_event);
            const sync = assign ? ev.target_synchronizer : ev.source_synchronizer;
            const around = typeof sync === 'string' ? bracket(bySync.get(sync) ?? [], at) : undefined;
            if (!around || around[0].migration !== around[1].migration) continue;
            judged++;
            if (ev.migration_id !== around[0].migration)
              ctx
                .expect(u.exchange)
                .fail(
                  `${LABEL[where]} ${u.id}: the ${assign ? 'assignment' : 'unassignment'} (record_time ${r!.record_time}) has migration_id ${ev.migration_id}, but its ${assign ? 'target' : 'source'} synchronizer ${sync} was in migration ${around[0].migration} then: transactions ${around[0].id} before and ${around[1].id} after it on that synchronizer carry migration_id ${around[0].migration}`,
                  `${BASE[where]}/event/migration_id`,
                );
          }
        }
        if (judged === 0)
          ctx.skip(
            'no fixture reassignment lies between two fixture transactions of the same migration on its target (assignment) or source (unassignment) synchronizer',
          );
      },
    }),
  ],
);
