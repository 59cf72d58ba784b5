// The fixture transactions looked up by id on both history endpoints, GET /v0/updates/{id} (`v0`) and
// GET /v0/events/{id} (`events`), for the rules of updates.ts and events.ts.
import type { Json } from '../../common/json.ts';
import type { CheckContext } from '../model.ts';
import { enc, fetchUpdates, historyGet, okObject, transactionOf, type FetchedUpdate } from './common.ts';

export const WHERE = ['v0', 'events'] as const;
export type Where = (typeof WHERE)[number];
export const OP: Record<Where, string> = { v0: 'getUpdateByIdV0', events: 'getEventById' };
/** Path of the transaction record inside each answer, as a JSON pointer prefix. */
export const BASE: Record<Where, string> = { v0: '', events: '/update' };

export interface FetchedTx extends FetchedUpdate {
  where: Where;
  tx: Record<string, Json>;
}

/** The fixture transactions as both endpoints render them. */
export async function transactions(ctx: CheckContext, where: readonly Where[] = WHERE): Promise<FetchedTx[]> {
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

/** The parts of a transaction that do not depend on the payload encoding. */
function treeOutline(tx: Record<string, Json> | undefined): string {
  if (!tx) return 'no transaction';
  return JSON.stringify({ update_id: tx.update_id, roots: tx.root_event_ids, keys: Object.keys(tx.events_by_id ?? {}).sort() });
}

/**
 * A check that the two values of an encoding parameter describe the same trees for the fixture transactions
 * (only the payload encoding may differ).
 */
export function encodingCheck(where: Where, param: string, values: [string, string]): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
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
        if (tx.update_id !== updateId)
          ctx.fail(`${param}=${value}: update_id ${JSON.stringify(tx.update_id)} is not the requested ${updateId}`, {
            exchange: x,
            pointer: `${BASE[where]}/update_id`,
          });
        answers.push({ x, outline: treeOutline(tx) });
      }
      if (answers.length < 2) continue;
      checked++;
      if (answers[0]!.outline !== answers[1]!.outline) {
        ctx.fail(
          `${param}=${values[0]} and ${param}=${values[1]} describe different trees for ${updateId} (update id, roots or event ids differ); only the payload encoding may differ`,
          { exchange: answers[1]!.x },
        );
      }
    }
    if (checked === 0) ctx.skip('none of the fixture transaction ids is known to the scan (404)');
  };
}
