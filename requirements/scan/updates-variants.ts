// One update on the deprecated and the current renderings: UpdateHistoryTransactionV2 (/v2/updates and the
// `update` of /v0/events) is "the same as above without offset", so for a fixture transaction it carries what
// /v0/updates carries. What V2 names as different is left out: the offset, the order of `events_by_id` keys
// and of `child_event_ids` (compared as sets). Daml values are not compared (each path has its own encoding
// parameters); times are compared as instants, not as text.
import { isDeepStrictEqual } from 'node:util';
import { isObject, pointer, type Json } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { timeNanos } from '../../interfaces/scan/common.ts';
import { BASE, fetchServedUpdates, fetchUpdates, LABEL, OP, transactionOf, type FetchedUpdate } from './history.ts';
import { PLAIN_FIELDS } from './value-encodings.ts';

type Problem = { message: string; pointer: string } | undefined;

const SAME_FIELDS = ['update_id', 'migration_id', 'workflow_id', 'synchronizer_id'];
const TIMES = ['record_time', 'effective_at'];

const asSet = (v: Json): string => JSON.stringify(Array.isArray(v) ? v.map((x) => JSON.stringify(x)).sort() : v);
const absentIfNull = (v: Json): Json => (v === null ? undefined : v);

/** The first difference of a V2 rendering from the V0 rendering of the same transaction. */
function difference(v0: Record<string, Json>, v2: Record<string, Json>): Problem {
  for (const f of SAME_FIELDS)
    if (!isDeepStrictEqual(v0[f], v2[f])) return { message: `${f} is ${JSON.stringify(v2[f])}, on /v0/updates ${JSON.stringify(v0[f])}`, pointer: `/${f}` };
  for (const f of TIMES) {
    const [a, b] = [timeNanos(v0[f]), timeNanos(v2[f])];
    if (a !== undefined && b !== undefined && a !== b) return { message: `${f} is ${v2[f]}, on /v0/updates ${v0[f]}: another instant`, pointer: `/${f}` };
  }
  if (!isDeepStrictEqual(absentIfNull(v0.external_transaction_hash), absentIfNull(v2.external_transaction_hash)))
    return { message: `external_transaction_hash differs from /v0/updates`, pointer: '/external_transaction_hash' };
  if (asSet(v0.root_event_ids) !== asSet(v2.root_event_ids))
    return { message: `root_event_ids ${JSON.stringify(v2.root_event_ids)}, on /v0/updates ${JSON.stringify(v0.root_event_ids)}`, pointer: '/root_event_ids' };
  const [e0, e2] = [v0.events_by_id as Record<string, Json>, v2.events_by_id as Record<string, Json>];
  const missing = Object.keys(e0).find((k) => !(k in e2)) ?? Object.keys(e2).find((k) => !(k in e0));
  if (missing !== undefined)
    return {
      message: `event ${missing} is in the events_by_id of only one of the two (${missing in e0 ? 'only on /v0/updates' : 'not on /v0/updates'})`,
      pointer: '/events_by_id',
    };
  for (const [key, a] of Object.entries(e0)) {
    const b = e2[key];
    if (!isObject(a) || !isObject(b)) continue;
    // A field one rendering lacks is the record shape's business, not this rule's.
    const f = PLAIN_FIELDS.find((p) => a[p] != null && b[p] != null && !isDeepStrictEqual(a[p], b[p]));
    if (f)
      return { message: `event ${key} has ${f} ${JSON.stringify(b[f])}, on /v0/updates ${JSON.stringify(a[f])}`, pointer: pointer('events_by_id', key, f) };
    if (asSet(a.child_event_ids ?? []) !== asSet(b.child_event_ids ?? []))
      return { message: `event ${key} has other children than on /v0/updates`, pointer: pointer('events_by_id', key, 'child_event_ids') };
  }
  return undefined;
}

const byId = (updates: FetchedUpdate[]) => new Map(updates.map((u) => [u.id, u]));

export const UPDATE_VARIANT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: [OP.v0, OP.v2, OP.events],
    cites: ['R.scan.17', 'X.versioning.6'],
    variants: {
      'record-type': {
        reassignment:
          'R.scan.17 names UpdateHistoryTransactionV2 "the same as above without offset": the rule compares the transaction record across paths; reassignments are judged on each path by the reassignment rules',
      },
    },
  },
  [
    rule({
      id: 'SCAN-UPDATES-VARIANTS-SAME-UPDATE',
      needs: ['transactionUpdateIds'],
      tags: ['history', 'versions'],
      async check(ctx) {
        const ids = ctx.fixtures.transactionUpdateIds;
        const served = await fetchServedUpdates(ctx, ids);
        // Without the deprecated path: unsupported (or skipped when it knows none of the ids).
        const old = served.find((s) => s.where === 'v0')?.updates ?? (await fetchUpdates(ctx, ids, 'v0'));
        const current = served.filter((s) => s.where !== 'v0');
        if (current.length === 0) ctx.skip('neither /v2/updates nor /v0/events answers a fixture update id');
        let compared = 0;
        for (const { where, updates } of current) {
          const others = byId(updates);
          for (const u of old) {
            const [a, other] = [transactionOf(u.body, 'v0'), others.get(u.id)];
            const b = other && transactionOf(other.body, where);
            if (!a || !b) continue;
            compared++;
            const p = difference(a, b);
            if (p)
              ctx
                .expect(other.exchange)
                .fail(
                  `${LABEL[where]} ${u.id} is not the transaction /v0/updates shows (attached: the ${LABEL[where]} answer): ${p.message}`,
                  BASE[where] + p.pointer,
                );
          }
        }
        if (compared === 0) ctx.skip('no fixture transaction is answered with a tree on /v0/updates and on a V2 path');
      },
    }),
  ],
);
