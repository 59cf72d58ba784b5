// POST /v0/admin/sv/previous-sv-reward-weight,
// GET /v0/internal/reward-accounting-process/rounds/{round_number}/root-hash (before 0.6.5 without /internal) and
// GET /v0/internal/reward-accounting-process/rounds/earliest-available (the first round whose root hash is
// not `CannotProvide`).
//
// An unknown SV party has no accepted reward-weight proposal, so it gets 200 {} (weight absent), the same
// answer as a known SV without a change before `effectiveBefore`.
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { isObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { EARLIEST_REWARD_ACCOUNTING_ROUND } from '../world/model.ts';
import { notFound } from './errors.ts';
import { bodyObject, int64Text, stringField, timestamp } from './params.ts';
import { datedRoutes, OLD_ROOT_HASH_PATH, ROOT_HASH_PATH } from './releases.ts';

export async function rewardRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const dated = datedRoutes(app, ctx);
  dated.post('/v0/admin/sv/previous-sv-reward-weight', async (req) => {
    // scan-reward-weight-party-unchecked: an unusable body or svParty reads as an SV without weights.
    if (ctx.faults.has('scan-reward-weight-party-unchecked') && !hasStringSvParty(req.body)) return {};
    const body = bodyObject(req.body);
    const sv = stringField(body, 'svParty', true);
    const beforeText = stringField(body, 'effectiveBefore', false);
    // scan-reward-weight-before-ignored: every weight change up to now counts.
    const before = beforeText === undefined || ctx.faults.has('scan-reward-weight-before-ignored') ? ctx.clock.now() : timestamp(beforeText, 'effectiveBefore');
    // scan-reward-weight-at-or-before: a change effective exactly at effectiveBefore counts too.
    const atOrBefore = ctx.faults.has('scan-reward-weight-at-or-before');
    const earlier = (ctx.world.svRewardWeights.get(sv) ?? []).filter((c) => c.effectiveAtMicros < before || (atOrBefore && c.effectiveAtMicros === before));
    // scan-reward-weight-earliest: the first change before effectiveBefore wins instead of the last.
    const sign = ctx.faults.has('scan-reward-weight-earliest') ? -1 : 1;
    const latest = earlier.reduce<(typeof earlier)[number] | undefined>(
      (best, c) => (!best || sign * (c.effectiveAtMicros - best.effectiveAtMicros) > 0 ? c : best),
      undefined,
    );
    if (latest && ctx.faults.has('scan-reward-weight-number')) return { rewardWeight: Number(latest.weight) };
    return latest ? { rewardWeight: latest.weight } : {};
  });

  app.get('/v0/internal/reward-accounting-process/rounds/earliest-available', async () => ({ earliest_round: EARLIEST_REWARD_ACCOUNTING_ROUND }));

  // One handler, at the path of the release played (it moved in 0.6.5).
  const rootHash: RouteHandlerMethod = async (req) => {
    const { round_number } = req.params as { round_number: string };
    const round = int64Text(round_number, 'round number');
    const result = round <= BigInt(Number.MAX_SAFE_INTEGER) && round >= 0n ? ctx.world.rootHash(Number(round)) : undefined;
    if (!result) throw notFound(`No reward accounting process for round ${round_number}`);
    if (result.round_number !== undefined && ctx.faults.has('scan-root-hash-round-mismatch')) return { ...result, round_number: result.round_number + 1 };
    if (result.root_hash !== undefined && ctx.faults.has('scan-root-hash-not-hex')) return { ...result, root_hash: `0x${result.root_hash}` };
    return result;
  };
  for (const path of [ROOT_HASH_PATH, OLD_ROOT_HASH_PATH]) dated.get(path, rootHash);
}

const hasStringSvParty = (body: unknown) => isObject(body) && typeof body.svParty === 'string';
