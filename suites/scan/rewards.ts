// Rewards: the reward-accounting root hash of a round (one of three result shapes, the round echoed) and the
// previous SV reward weight (a string or absent).
import type { CheckContext, Requirement } from '../model.ts';
import type { Exchange } from '../http.ts';
import { isInt, okObject, scanRequirement, SECTION, type Json } from './common.ts';

const ROOT_OP = 'getRewardAccountingRootHash';
const WEIGHT_OP = 'getPreviousSvRewardWeight';

/** Root-hash answers of the fixture rounds; rounds the node has no process for (404) are left out. */
async function rootHashes(ctx: CheckContext): Promise<Array<{ round: number; x: Exchange; body: Record<string, Json> }>> {
  const out = [];
  for (const round of ctx.fixtures.rounds!) {
    const x = await ctx.scan.get(`/v0/internal/reward-accounting-process/rounds/${round}/root-hash`);
    if (x.status === 404) continue;
    out.push({ round, x, body: okObject(ctx, x, `root hash of fixture round ${round}`) });
  }
  if (out.length === 0) ctx.skip('no fixture round has a reward-accounting process (all answered 404)');
  return out;
}

const rootHashShape = scanRequirement({
  id: 'SCAN-ROOT-HASH-RESULT-SHAPE',
  level: 'MUST',
  operations: [ROOT_OP],
  section: SECTION.rootHash,
  sentence: '200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}`, `{status}` (undetermined), `{status}` (cannot provide)',
  needs: ['rounds'],
  tags: ['rewards'],
  async check(ctx) {
    for (const { round, x, body } of await rootHashes(ctx)) {
      if (typeof body.status !== 'string') ctx.fail(`round ${round}: status is not a string`, { exchange: x, pointer: '/status' });
      const ok = 'round_number' in body || 'root_hash' in body;
      if (!ok) continue; // {status}: undetermined or cannot provide
      if (!isInt(body.round_number)) ctx.fail(`round ${round}: a result with a root hash needs an integer round_number`, { exchange: x, pointer: '/round_number' });
      if (typeof body.root_hash !== 'string' || !/^[0-9a-fA-F]+$/.test(body.root_hash)) ctx.fail(`round ${round}: root_hash ${JSON.stringify(body.root_hash)} is not hex-encoded`, { exchange: x, pointer: '/root_hash' });
    }
  },
});

const rootHashRound = scanRequirement({
  id: 'SCAN-ROOT-HASH-ROUND-ECHOED',
  level: 'MUST',
  operations: [ROOT_OP],
  section: SECTION.rootHash,
  sentence: 'Path `round_number` int64. 200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}` ... (the result of the requested round)',
  needs: ['rounds'],
  tags: ['rewards'],
  async check(ctx) {
    let named = 0;
    for (const { round, x, body } of await rootHashes(ctx)) {
      if (!isInt(body.round_number)) continue; // {status}: no round to compare (SCAN-ROOT-HASH-RESULT-SHAPE judges the shape)
      named++;
      if (body.round_number !== round) ctx.fail(`asked for round ${round}, the result names round ${body.round_number}`, { exchange: x, pointer: '/round_number' });
    }
    if (named === 0) ctx.skip('no root-hash result of the fixture rounds names a round_number');
  },
});

async function weight(ctx: CheckContext, body: Record<string, string>): Promise<{ x: Exchange; body: Record<string, Json> }> {
  const x = await ctx.scan.post('/v0/admin/sv/previous-sv-reward-weight', body);
  return { x, body: okObject(ctx, x, `previous reward weight of ${body.svParty}`) };
}

const weightShape = scanRequirement({
  id: 'SCAN-REWARD-WEIGHT-STRING-OR-ABSENT',
  level: 'MUST',
  operations: [WEIGHT_OP],
  section: SECTION.rewardWeight,
  sentence: '200 `{rewardWeight?: string}`: the weight from the latest accepted reward-weight update proposal before `effectiveBefore`; absent when there is none',
  needs: ['svParties'],
  tags: ['rewards'],
  async check(ctx) {
    for (const sv of ctx.fixtures.svParties!) {
      const { x, body } = await weight(ctx, { svParty: sv });
      if (body.rewardWeight !== undefined && typeof body.rewardWeight !== 'string') ctx.fail(`${sv}: rewardWeight is ${JSON.stringify(body.rewardWeight)}, neither a string nor absent`, { exchange: x, pointer: '/rewardWeight' });
    }
  },
});

const weightBefore = scanRequirement({
  id: 'SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE',
  level: 'MUST',
  operations: [WEIGHT_OP],
  section: SECTION.rewardWeight,
  sentence: '`effectiveBefore` string optional (only weight changes effective strictly before it are considered); absent when there is none',
  needs: ['svParties'],
  tags: ['rewards'],
  async check(ctx) {
    // No weight change of a running network took effect before 1970: the weight must be absent.
    const before = '1970-01-01T00:00:00Z';
    for (const sv of ctx.fixtures.svParties!) {
      const x = await ctx.scan.post('/v0/admin/sv/previous-sv-reward-weight', { svParty: sv, effectiveBefore: before });
      if (x.status === 400) ctx.skip(`the target does not accept effectiveBefore as an ISO 8601 timestamp (${before}: 400)`);
      const body = okObject(ctx, x, `previous reward weight of ${sv} before ${before}`);
      if (body.rewardWeight !== undefined) ctx.fail(`${sv}: a rewardWeight (${JSON.stringify(body.rewardWeight)}) is reported for effectiveBefore ${before}, before any weight change can have taken effect`, { exchange: x, pointer: '/rewardWeight' });
    }
  },
});

export const REWARD_REQUIREMENTS: Requirement[] = [rootHashShape, rootHashRound, weightShape, weightBefore];
