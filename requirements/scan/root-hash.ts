// GET /v0/internal/reward-accounting-process/rounds/{round_number}/root-hash: the reward-accounting root hash
// of a round (one of three result shapes, the round echoed).
import type { Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { isInt64 } from '../../engine/int64.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedLookups } from '../../interfaces/scan/common.ts';

const ROOT_OP = 'getRewardAccountingRootHash';

const rootHashPath = (round: number) => `/v0/internal/reward-accounting-process/rounds/${round}/root-hash`;

/**
 * Root-hash answers of the fixture rounds; a round the node has no process for (404) is left out. For the
 * positive requirement (`positive`), not all of them may be: the rounds come from the node itself (its earliest
 * available round, its latest, its activity records), and its answers are judged as a positive request's.
 */
async function rootHashes(ctx: CheckContext<'rounds'>, positive = false): Promise<Array<{ round: number; x: Exchange; body: Record<string, Json> }>> {
  if (positive) {
    const found = await acceptedLookups(
      ctx,
      ctx.fixtures.rounds,
      (round) => ctx.scan.get(rootHashPath(round)),
      (round) =>
        `the root hash of round ${round} (fixtures.rounds; discovery: the earliest round available to the reward accounting, the latest round, the rounds of activity records)`,
    );
    return found.map(({ key: round, x, body }) => ({ round, x, body }));
  }
  const out = [];
  for (const round of ctx.fixtures.rounds) {
    const x = await ctx.scan.get(rootHashPath(round));
    if (x.status === 404) continue;
    out.push({ round, x, body: ctx.expect(x, `root hash of fixture round ${round}`).status(200).object() });
  }
  if (out.length === 0) ctx.skip('no fixture round has a reward-accounting process (all answered 404)');
  return out;
}

export const ROOT_HASH_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: [ROOT_OP] }, [
  rule({
    id: 'SCAN-ROOT-HASH-RESULT-SHAPE',
    cites: ['T.root-hash.1', 'C.root-hash.2'],
    needs: ['rounds'],
    tags: ['rewards'],
    confirms: ROOT_OP,
    async check(ctx) {
      for (const { round, x, body } of await rootHashes(ctx, true)) {
        if (typeof body.status !== 'string') ctx.expect(x).fail(`round ${round}: status is not a string`, '/status');
        const ok = 'round_number' in body || 'root_hash' in body;
        if (!ok) continue; // {status}: undetermined or cannot provide
        if (!isInt64(body.round_number)) ctx.expect(x).fail(`round ${round}: a result with a root hash needs an integer round_number`, '/round_number');
        if (typeof body.root_hash !== 'string' || !/^[0-9a-fA-F]+$/.test(body.root_hash))
          ctx.expect(x).fail(`round ${round}: root_hash ${JSON.stringify(body.root_hash)} is not hex-encoded`, '/root_hash');
      }
    },
  }),
  rule({
    id: 'SCAN-ROOT-HASH-ROUND-ECHOED',
    cites: ['C.root-hash.1', 'C.root-hash.2'],
    needs: ['rounds'],
    tags: ['rewards'],
    async check(ctx) {
      let named = 0;
      for (const { round, x, body } of await rootHashes(ctx)) {
        if (!isInt64(body.round_number)) continue; // {status}: no round to compare (SCAN-ROOT-HASH-RESULT-SHAPE judges the shape)
        named++;
        if (body.round_number !== round) ctx.expect(x).fail(`asked for round ${round}, the result names round ${body.round_number}`, '/round_number');
      }
      if (named === 0) ctx.skip('no root-hash result of the fixture rounds names a round_number');
    },
  }),
]);
