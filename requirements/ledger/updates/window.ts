// Offset windows and order of the update stream: (beginExclusive, endInclusive], ascending unless
// descendingOrder, and descendingOrder only with an end. Windows are chosen among offsets the stream really
// has (sampled first), so every request stays bounded and within the ledger end.
import { UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import type { Json } from '../../../common/json.ts';
import { exactIntegers } from '../../../engine/int64.ts';
import type { CheckContext, Citable, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  IDLE_MS,
  OPERATION,
  body,
  isCheckpoint,
  offsetOf,
  postUpdates,
  recordPointer,
  readParties,
  sampleStream,
  sampleWindow,
  splitArb,
  updateFormat,
  updateKeys,
  windowArb,
  type Window,
} from '../../../interfaces/ledger/updates.ts';
import { propertyOverVariants, readVariant, streamVariants } from '../../../interfaces/ledger/stream-variants.ts';

const show = (w: Window) => `(${w.beginExclusive}, ${w.endInclusive}]`;

/** Fails on the first pair of neighbours out of order; updates (not checkpoints) must differ strictly. */
function expectOrdered(ctx: CheckContext, x: Citable, els: Json[], direction: 'ascending' | 'descending', w: Window, prefix: string): void {
  let prev: { i: number; offset: number; checkpoint: boolean } | undefined;
  els.forEach((e, i) => {
    const offset = offsetOf(e);
    if (offset === undefined) return;
    const checkpoint = isCheckpoint(e);
    if (prev) {
      const step = direction === 'ascending' ? offset - prev.offset : prev.offset - offset;
      // Two updates never share an offset; a checkpoint may repeat its neighbour's offset.
      const strict = !checkpoint && !prev.checkpoint;
      // Offsets beyond 2^53 may round to one value: equal is then no proof of a repeat (engine/int64.ts).
      if (step < 0 || (strict && step === 0 && exactIntegers(offset))) {
        ctx
          .expect(x)
          .fail(
            `${prefix}${direction} read of ${show(w)}: element ${i} has offset ${offset} after offset ${prev.offset} (element ${prev.i})`,
            recordPointer(i, e, 'offset'),
          );
      }
    }
    prev = { i, offset, checkpoint };
  });
}

export const WINDOW_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], webSocketTwins: UPDATES_CHANNEL },
  [
    rule({
      id: 'LEDGER-UPDATES-BEGIN-EXCLUSIVE',
      cites: ['R.ledger.3'],
      needs: ['ledgerParties'],
      tags: ['window'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        // The begin is always an offset the stream has, so an inclusive begin would show that element.
        await propertyOverVariants(ctx, streamVariants(s), windowArb(s, { beginAtOffset: true }), async (v, w) => {
          const { x, els } = await readVariant(ctx, v, w);
          els.forEach((e, i) => {
            const o = offsetOf(e);
            if (o !== undefined && o <= w.beginExclusive)
              ctx
                .expect(x)
                .fail(
                  `${v.prefix}read of ${show(w)} returned offset ${o}, not strictly greater than beginExclusive ${w.beginExclusive}`,
                  recordPointer(i, e, 'offset'),
                );
          });
        });
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-END-INCLUSIVE',
      cites: ['R.ledger.7'],
      needs: ['ledgerParties'],
      tags: ['window'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        // Elements exist after every chosen end, so an ignored end would show them.
        await propertyOverVariants(ctx, streamVariants(s), windowArb(s, { leaveTail: true }), async (v, w) => {
          const { x, els } = await readVariant(ctx, v, w);
          els.forEach((e, i) => {
            const o = offsetOf(e);
            if (o !== undefined && o > w.endInclusive!)
              ctx.expect(x).fail(`${v.prefix}read of ${show(w)} returned offset ${o}, beyond endInclusive ${w.endInclusive}`, recordPointer(i, e, 'offset'));
          });
        });
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-PAGING-COMPLETE',
      cites: ['R.ledger.3', 'R.ledger.7'],
      needs: ['ledgerParties'],
      tags: ['window', 'paging'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        await propertyOverVariants(ctx, streamVariants(s), splitArb(s), async (v, [a, b, c]) => {
          const left = await readVariant(ctx, v, { beginExclusive: a, endInclusive: b });
          const right = await readVariant(ctx, v, { beginExclusive: b, endInclusive: c });
          const whole = await readVariant(ctx, v, { beginExclusive: a, endInclusive: c });
          // Completeness only: each answer is cut to its own window (the bounds are other requirements'),
          // order is ignored, and checkpoints are left out (a node places them as it likes).
          const joined = [
            ...updateKeys(left.els, { beginExclusive: a, endInclusive: b }),
            ...updateKeys(right.els, { beginExclusive: b, endInclusive: c }),
          ].sort();
          const all = updateKeys(whole.els, { beginExclusive: a, endInclusive: c });
          const missing = all.filter((k) => !joined.includes(k));
          const extra = joined.filter((k) => !all.includes(k));
          if (missing.length || extra.length || joined.length !== all.length) {
            ctx
              .expect(whole.x)
              .fail(
                `${v.prefix}(${a}, ${b}] and (${b}, ${c}] together differ from (${a}, ${c}]: ${missing.length} update(s) only in the whole window (${missing.slice(0, 3).join(', ')}), ${extra.length} only in the parts (${extra.slice(0, 3).join(', ')})`,
              );
          }
        });
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-ASCENDING',
      cites: ['R.ledger.19'],
      needs: ['ledgerParties'],
      tags: ['order'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        // The whole sampled window is tried first: it holds every kind of element the sample showed (checkpoints too).
        await propertyOverVariants(
          ctx,
          streamVariants(s),
          windowArb(s),
          async (v, w) => {
            const { x, els } = await readVariant(ctx, v, w);
            expectOrdered(ctx, x, els, 'ascending', w, v.prefix);
          },
          ctx.runs,
          [sampleWindow(s)],
        );
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-DESCENDING',
      cites: ['R.ledger.19'],
      needs: ['ledgerParties'],
      tags: ['order'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        // The whole sampled window is tried first: it holds every kind of element the sample showed (checkpoints too).
        await propertyOverVariants(
          ctx,
          streamVariants(s),
          windowArb(s),
          async (v, w) => {
            const down = await readVariant(ctx, v, w, undefined, undefined, { descendingOrder: true });
            expectOrdered(ctx, down.x, down.els, 'descending', w, v.prefix);
            // The same updates as the ascending read of the window, only in the other order.
            const up = await readVariant(ctx, v, w);
            const a = updateKeys(up.els);
            const d = updateKeys(down.els);
            if (a.join() !== d.join()) {
              const diff = [...a.filter((k) => !d.includes(k)), ...d.filter((k) => !a.includes(k))];
              ctx
                .expect(down.x)
                .fail(`${v.prefix}descending read of ${show(w)} does not hold the updates of the ascending read (differing: ${diff.slice(0, 3).join(', ')})`);
            }
          },
          ctx.runs,
          [sampleWindow(s)],
        );
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-DESCENDING-NEEDS-END',
      cites: ['R.ledger.8'],
      // Over the channel the same refusal is LEDGER-WEBSOCKET-BAD-REQUEST's (an error message, not a status).
      webSocketTwin: false,
      needs: ['ledgerParties'],
      tags: ['order', 'validation'],
      variants: {
        'transaction-shape': 'descendingOrder without endInclusive is refused for its window (R.ledger.8), before the shape selects any event',
        parties: 'descendingOrder without endInclusive is refused for its window (R.ledger.8), before the parties select any event',
        cumulative: 'descendingOrder without endInclusive is refused for its window (R.ledger.8), before the filter entries select any event',
      },
      async check(ctx) {
        const parties = readParties(ctx);
        // Bounded even if accepted: a limit of 3 and a short idle timeout.
        const x = await postUpdates(ctx, body({ beginExclusive: 0 }, updateFormat(parties), { descendingOrder: true }), {
          limit: 3,
          stream_idle_timeout_ms: IDLE_MS,
        });
        ctx.expect(x, 'descendingOrder without endInclusive is an invalid request').status(400);
      },
    }),
  ],
);
