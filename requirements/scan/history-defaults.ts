// The default of an encoding parameter of the history lookups: an update looked up without the parameter is
// rendered as with its default value. History looked up by id never changes, so the two answers of one update
// must carry the same record.
import { firstDifference, isObject } from '../../common/json.ts';
import type { CheckContext } from '../../engine/model.ts';
import { enc } from '../../interfaces/scan/common.ts';
import { BASE, fetchUpdates, historyGet, LABEL, PATH, updateOf, type Where } from './history.ts';

/** Fixture updates compared per default: enough to see another encoding, few enough to stay fast. */
const SAMPLE = 4;

/** A check that `where` without `param` answers the fixture updates as with `param`=`value`. */
export function defaultCheck(where: Where, param: string, value: string): (ctx: CheckContext<'transactionUpdateIds'>) => Promise<void> {
  return async (ctx) => {
    // Transactions and reassignments (the lookups answer either): the default is the same for both record types.
    const ids = [...ctx.fixtures.transactionUpdateIds.slice(0, 2 * SAMPLE), ...(ctx.fixtures.reassignmentUpdateIds ?? []).slice(0, SAMPLE)];
    const plain = await fetchUpdates(ctx, ids, where);
    let compared = 0;
    const perType = new Map<string, number>();
    for (const u of plain) {
      const record = updateOf(u.body, where);
      // Only a record of the update asked for is compared: two answers that show no update agree on nothing.
      if (!isObject(record) || record.update_id !== u.id) continue;
      const type = isObject(record.event) ? 'reassignment' : 'transaction';
      if ((perType.get(type) ?? 0) >= SAMPLE) continue;
      perType.set(type, (perType.get(type) ?? 0) + 1);
      compared++;
      const x = await historyGet(ctx, PATH[where] + enc(u.id), { [param]: value });
      const explicit = updateOf(ctx.expect(x, `${param}=${value} is an allowed value`).status(200).object(), where);
      const d = firstDifference(record, explicit ?? null);
      if (d !== undefined)
        ctx
          .expect(u.exchange)
          .fail(
            `${LABEL[where]} ${u.id} without ${param} differs from the answer to ${param}=${value} at ${d || 'the update'} (attached: the answer without ${param}): ${param} defaults to ${value}, so the update must be rendered alike`,
            BASE[where] + d,
          );
    }
    if (compared === 0) ctx.skip(`none of the fixture update ids is answered by ${LABEL[where]} with an update`);
  };
}
