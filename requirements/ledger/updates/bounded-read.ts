// The positive requirement of the update stream: a bounded read a conformant node must answer, of the parties
// the token may read as, from the participant's pruning offset to its ledger end with a limit below any list
// limit, is answered 200 with a body the document allows. Many rules read the stream; this one fails, never
// skips, when such a read is refused.
import { isInt, parseJson } from '../../../common/json.ts';
import { describeAnswer } from '../../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { body, OPERATION, postUpdates, readParties, updateFormat } from '../../../interfaces/ledger/updates.ts';

/** Elements a read asks for at most: below any list limit a node is likely to set, so no 413 is due. */
const LIMIT = 20;

/** A non-negative offset GET `path` states under `field` (endpoints real nodes serve; no operation of the description). */
async function stateOffset(ctx: CheckContext, path: string, field: string): Promise<number | undefined> {
  const x = await ctx.ledger.get(path);
  const v: unknown = x.status === 200 ? parseJson(x.text)?.[field] : undefined;
  return isInt(v) && v >= 0 ? v : undefined;
}

export const BOUNDED_READ_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'ledger',
    operations: [OPERATION],
    cites: ['S.service.1', 'A.updates.6'],
    // The positive requirement: one read a conformant node must answer. Each variant of the read is answered
    // in the rules that run over the variants (interfaces/ledger/stream-variants.ts), which fail on a refusal.
    variants: {
      'transaction-shape': 'the one read a node must answer (its positive requirement); the ledger-effects reads are the stream rules run over each variant',
      parties: 'the one read a node must answer (its positive requirement); reads as one party or any party are the stream rules run over each variant',
      cumulative: 'the one read a node must answer (its positive requirement); reads with several entries are the stream rules run over each variant',
    },
  },
  [
    rule({
      id: 'LEDGER-UPDATES-BOUNDED-READ',
      confirms: OPERATION,
      needs: ['ledgerParties'],
      tags: ['window'],
      async check(ctx) {
        const end = await stateOffset(ctx, '/v2/state/ledger-end', 'offset');
        if (end === undefined) return ctx.skip('GET /v2/state/ledger-end states no ledger end, so no window up to it could be chosen');
        // A pruned participant refuses reads that begin below its pruning offset; nothing pruned reads as 0.
        const pruned = (await stateOffset(ctx, '/v2/state/latest-pruned-offsets', 'participantPrunedUpToInclusive')) ?? 0;
        const begin = Math.min(pruned, end);
        const parties = readParties(ctx);
        const x = await postUpdates(ctx, body({ beginExclusive: begin, endInclusive: end }, updateFormat(parties)), { limit: LIMIT });
        const els = ctx.accepted(x, `a read of (${begin}, ${end}] as ${parties.join(', ')}, at most ${LIMIT} elements`);
        if (!Array.isArray(els)) ctx.expect(x).fail(`the 200 answer of the update stream is not a JSON array (${describeAnswer(x)})`);
      },
    }),
  ],
);
