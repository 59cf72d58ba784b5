// Where reads start and how open-ended ones end: beginExclusive 0 is the start of the ledger (a read from 0
// holds whatever a read from a later begin holds up to the same end), and an open-ended read is completed
// once idle for stream_idle_timeout_ms, not held open. A pruned participant's reads begin at its pruning offset.
import { parseJson } from '../../../common/json.ts';
import { describeAnswer } from '../../../engine/transport/http.ts';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  IDLE_MS,
  OPERATION,
  body,
  elementsOf,
  offsetOf,
  postUpdates,
  readParties,
  recordPointer,
  sampleStream,
  updateFormat,
  updateKeys,
} from '../../../interfaces/ledger/updates.ts';
import { eachVariant, readVariant, streamVariants } from '../../../interfaces/ledger/stream-variants.ts';

/** Sampled offsets a read from 0 spans here: enough to cover the first updates, few to keep it small. */
const SPAN = 20;

export const OPEN_READ_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [OPERATION] }, [
  rule({
    id: 'LEDGER-UPDATES-BEGIN-ZERO-START',
    cites: ['R.ledger.4'],
    needs: ['ledgerParties'],
    tags: ['window'],
    async check(ctx) {
      const s = await sampleStream(ctx, 2);
      const end = s.offsets[Math.min(SPAN, s.offsets.length) - 1]!;
      // In each variant of the read: where the ledger starts does not depend on what a format selects.
      await eachVariant(streamVariants(s), async (v) => {
        const zero = await readVariant(ctx, v, { beginExclusive: 0, endInclusive: end });
        zero.els.forEach((e, i) => {
          const o = offsetOf(e);
          if (o !== undefined && o <= 0)
            ctx
              .expect(zero.x)
              .fail(
                `${v.prefix}a read from the start of the ledger (beginExclusive 0) returned offset ${o}, which no update after the start can have`,
                recordPointer(i, e, 'offset'),
              );
        });
        const held = new Set(updateKeys(zero.els));
        // The smallest begins after 0: 1, and the one just below the first offset the read from 0 shows.
        const first = s.offsets[0]!;
        const begins = [...new Set([1, first - 1])].filter((b) => b >= 1 && b < end);
        for (const b of begins) {
          const later = await readVariant(ctx, v, { beginExclusive: b, endInclusive: end });
          const missing = updateKeys(later.els).filter((k) => !held.has(k));
          if (missing.length)
            ctx
              .expect(zero.x)
              .fail(
                `${v.prefix}the read of (0, ${end}] lacks ${missing.length} update(s) the read of (${b}, ${end}] returns (${missing.slice(0, 3).join(', ')}), so it did not start at the start of the ledger`,
              );
        }
      });
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-PRUNED-BEGIN',
    cites: ['R.ledger.5'],
    needs: ['ledgerParties'],
    tags: ['window'],
    // A begin below the pruning offset is refused for the offset, and the read at it asks for one element.
    variants: {
      'transaction-shape': 'a begin below the pruning offset is refused for its offset (R.ledger.5), before the shape selects any event',
      parties: 'a begin below the pruning offset is refused for its offset (R.ledger.5), whoever the read is for: pruning is of the participant',
      cumulative: 'a begin below the pruning offset is refused for its offset (R.ledger.5), before the filter entries select any event',
    },
    async check(ctx) {
      // The pruning offset as the participant states it (GET /v2/state/latest-pruned-offsets, which real nodes
      // serve; no operation of the description): 0 when nothing is pruned.
      const state = await ctx.ledger.get('/v2/state/latest-pruned-offsets');
      const pruned: unknown = state.status === 200 ? parseJson(state.text)?.participantPrunedUpToInclusive : undefined;
      if (!Number.isSafeInteger(pruned) || (pruned as number) < 0)
        return ctx.skip(`GET /v2/state/latest-pruned-offsets answered ${describeAnswer(state)} without a non-negative participantPrunedUpToInclusive`, {
          exchange: state,
        });
      const p = pruned as number;
      const read = (begin: number) =>
        postUpdates(ctx, body({ beginExclusive: begin }, updateFormat(readParties(ctx))), { limit: 1, stream_idle_timeout_ms: IDLE_MS });
      // At the bound: allowed (nothing at or below it is asked for).
      const at = await read(p);
      ctx.expect(at, `beginExclusive ${p} is the participant's pruning offset itself`).status([200, 413]);
      // Just above it: allowed as well.
      const above = await read(p + 1);
      ctx.expect(above, `beginExclusive ${p + 1} is above the participant's pruning offset ${p}`).status([200, 413]);
      // Just below it (where there is a below): refused, since the update at the pruning offset is gone.
      if (p > 0) {
        const below = await read(p - 1);
        if (below.status < 400 || below.status >= 500)
          ctx
            .expect(below)
            .fail(
              `the participant says it is pruned up to offset ${p}, yet a read with beginExclusive ${p - 1} was answered ${describeAnswer(below)}, not refused`,
            );
      }
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-IDLE-TIMEOUT-COMPLETES',
    cites: ['A.updates.4', 'X.limits.3'],
    needs: ['ledgerParties'],
    tags: ['limits'],
    // Its open-ended read asks for topology events only (small on any ledger): no transactions, so no shape
    // and no event filters; an open-ended read completes by its idle time, not by what it selects.
    variants: {
      'transaction-shape': 'the read asks for topology events only (no transactions, no shape): completion is by idle time (A.updates.4)',
      parties: 'the read asks for topology events only, chosen by party list (no event filters): completion is by idle time (A.updates.4)',
      cumulative: 'the read asks for topology events only, which have no filter entries: completion is by idle time (A.updates.4)',
    },
    async check(ctx) {
      // Judged generously: the read, without endInclusive and without limit, must be answered within the
      // request timeout; how soon after the idle time is not judged (timing over a network is no proof).
      const x = await postUpdates(ctx, body({ beginExclusive: 0 }, updateFormat(readParties(ctx), ['topology'])), { stream_idle_timeout_ms: IDLE_MS });
      if (x.errorCode === 'TIMEOUT' || x.errorCode === 'BODY_TIMEOUT')
        ctx.expect(x).fail(`an open-ended read with stream_idle_timeout_ms=${IDLE_MS} was not completed: ${x.error}`);
      ctx.expect(x).skipUnless([200, 413], 'a read from offset 0');
      if (x.status === 413) ctx.skip("the open-ended read of the ledger parties' topology events exceeds the node's list limit (413)");
      // Completed means a whole answer: the stream's elements as a JSON array.
      elementsOf(ctx, x);
    },
  }),
]);
