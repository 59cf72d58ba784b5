// The shape of the stream's elements: one update kind per element, only the kinds the update format asks
// for, and the record fields release-3.5 nodes always send (offsets of events equal to their update's).
import { UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import fc from 'fast-check';
import { isObject, type Json } from '../../../common/json.ts';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  ACS_DELTA,
  KIND_OF_PART,
  LEDGER_EFFECTS,
  OPERATION,
  PARTS,
  type Part,
  UPDATE_KINDS,
  eventsOf,
  kindOf,
  readWindow,
  recordOf,
  sampleStream,
  sampleWindow,
} from '../../../interfaces/ledger/updates.ts';
import { eachVariant, propertyOverVariants, readVariant, sampleReads, streamVariants, type StreamVariant } from '../../../interfaces/ledger/stream-variants.ts';

/** Fields every record of a kind carries (release line 3.5 facts: the `!` fields). */
const REQUIRED_FIELDS: Record<string, string[]> = {
  OffsetCheckpoint: ['offset'],
  Transaction: ['updateId', 'effectiveAt', 'events', 'offset', 'synchronizerId', 'recordTime'],
  Reassignment: ['updateId', 'offset', 'events', 'recordTime', 'synchronizerId'],
  TopologyTransaction: ['updateId', 'offset', 'synchronizerId', 'recordTime', 'events'],
};

export const SHAPE_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], webSocketTwins: UPDATES_CHANNEL },
  [
    rule({
      id: 'LEDGER-UPDATES-ONE-KIND',
      cites: ['S.service.3', 'R.ledger.39', 'A.updates.6', 'X.events.1'],
      needs: ['ledgerParties'],
      tags: ['shape'],
      async check(ctx) {
        const s = await sampleStream(ctx, 1);
        for (const { v, x, els } of await sampleReads(ctx, s)) {
          els.forEach((e, i) => {
            const u: Json = isObject(e) ? e.update : undefined;
            if (!isObject(u)) ctx.expect(x).fail(`${v.prefix}element ${i} has no update object`, `/${i}`);
            const keys = Object.keys(u);
            if (keys.length !== 1 || !(UPDATE_KINDS as readonly string[]).includes(keys[0]!)) {
              ctx
                .expect(x)
                .fail(
                  `${v.prefix}element ${i}: update has key(s) ${keys.join(', ') || 'none'}; exactly one of ${UPDATE_KINDS.join(', ')} is allowed`,
                  `/${i}/update`,
                );
            }
          });
        }
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-REQUESTED-KINDS',
      cites: ['R.ledger.30', 'R.ledger.31', 'R.ledger.32', 'X.events.2'],
      needs: ['ledgerParties'],
      tags: ['shape', 'update-format'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        const w = sampleWindow(s);
        const judge = async (v: StreamVariant, parts: readonly Part[]) => {
          // Offset checkpoints are not one of the three requested kinds: they may always appear.
          const allowed = new Set<string>(['OffsetCheckpoint', ...parts.map((p) => KIND_OF_PART[p])]);
          const { x, els } = await readVariant(ctx, v, w, parts);
          els.forEach((e, i) => {
            const k = kindOf(e);
            if (k !== undefined && !allowed.has(k))
              ctx.expect(x).fail(`${v.prefix}asked for ${parts.join(' + ')} only, but element ${i} is a ${k}`, `/${i}/update/${k}`);
          });
        };
        const variants = streamVariants(s);
        await propertyOverVariants(ctx, variants, fc.subarray([...PARTS], { minLength: 1 }), judge);
        // Transactions alone in each variant: the drawn subsets need not ask for them, and only they show the shape and entries.
        await eachVariant(variants, (v) => judge(v, ['transactions']));
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-RECORD-FIELDS',
      cites: ['R.ledger.38', 'R.ledger.40', 'A.updates.6'],
      needs: ['ledgerParties'],
      tags: ['shape', 'facts'],
      async check(ctx) {
        const s = await sampleStream(ctx, 1);
        for (const { v, x, els } of await sampleReads(ctx, s)) {
          els.forEach((e, i) => {
            const u: Json = isObject(e) ? e.update : undefined;
            if (!isObject(u)) return; // LEDGER-UPDATES-ONE-KIND judges the wrapping
            for (const kind of Object.keys(u).filter((k) => REQUIRED_FIELDS[k])) {
              const record: Json = isObject(u[kind]) ? u[kind].value : undefined;
              if (!isObject(record)) ctx.expect(x).fail(`${v.prefix}element ${i}: ${kind} has no record under value`, `/${i}/update/${kind}`);
              const missing = REQUIRED_FIELDS[kind]!.filter((f) => record[f] === undefined || record[f] === null);
              if (missing.length) ctx.expect(x).fail(`${v.prefix}element ${i}: the ${kind} record lacks ${missing.join(', ')}`, `/${i}/update/${kind}/value`);
            }
          });
        }
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-EVENT-OFFSET',
      cites: ['R.ledger.40'],
      needs: ['ledgerParties'],
      tags: ['shape', 'facts'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        let compared = 0;
        for (const { x, els } of await sampleReads(ctx, s)) {
          for (const { ev, record, pointer: at, index } of eventsOf(els)) {
            if (typeof ev.offset !== 'number' || typeof record.offset !== 'number') continue;
            compared++;
            if (ev.offset !== record.offset)
              ctx.expect(x).fail(`an event of the update at offset ${record.offset} (element ${index}) has offset ${ev.offset}`, `${at}/offset`);
          }
        }
        // An answer without events shows nothing about their offsets.
        if (compared === 0) ctx.skip('the sampled stream of the ledger parties carries no event with an offset to compare');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-SHAPES-SAME-TRANSACTION',
      cites: ['S.service.5', 'S.service.6'],
      needs: ['ledgerParties'],
      tags: ['shape', 'update-format'],
      async check(ctx) {
        // A shape selects the events of a transaction, nothing else: one transaction read in both shapes is
        // the same transaction, with the same fields outside its events.
        const s = await sampleStream(ctx);
        let compared = 0;
        // The same parties and entries in both shapes, for each way of naming the parties and entries.
        for (const v of streamVariants(s)) {
          const read = (shape: typeof ACS_DELTA | typeof LEDGER_EFFECTS) => readWindow(ctx, sampleWindow(s), v.format(['transactions'], { shape }));
          const twins = transactionsById((await read(ACS_DELTA)).els);
          const effects = await read(LEDGER_EFFECTS);
          for (const [i, e] of effects.els.entries()) {
            const r = recordOf(e);
            const twin = kindOf(e) === 'Transaction' && isObject(r) ? twins.get(r.updateId) : undefined;
            if (!twin || !isObject(r)) continue;
            compared++;
            const f = Object.keys(r).find((k) => k !== 'events' && twin[k] !== undefined && JSON.stringify(r[k]) !== JSON.stringify(twin[k]));
            if (f)
              ctx
                .expect(effects.x)
                .fail(
                  `${v.prefix}transaction ${String(r.updateId)} has ${f} ${JSON.stringify(r[f])} in the ledger-effects shape but ${JSON.stringify(twin[f])} in the ACS-delta shape: a shape selects events, the transaction is the same`,
                  `/${i}/update/Transaction/value/${f}`,
                );
          }
        }
        if (compared === 0) ctx.skip('no transaction of the sampled window is in both shapes for the ledger parties');
      },
    }),
  ],
);

/** The transactions of a read by update id. */
function transactionsById(els: Json[]): Map<unknown, Record<string, Json>> {
  const out = new Map<unknown, Record<string, Json>>();
  for (const e of els) {
    const r = recordOf(e);
    if (kindOf(e) === 'Transaction' && isObject(r)) out.set(r.updateId, r);
  }
  return out;
}
