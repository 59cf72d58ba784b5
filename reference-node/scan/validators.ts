// The onboarded validators. GET /v0/validators/validator-faucets: their liveness statistics; unknown ids are
// ignored and the answer is sorted by validator id, so it does not depend on the order of the arguments.
// GET /v0/admin/validator/licenses: their licenses, newest first, paged by offset.
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Validator } from '../world/model.ts';
import { contractRecord } from './contracts.ts';
import { badRequest } from './errors.ts';
import { int32Text, int64Text, singleQuery } from './params.ts';

/** Largest (and default) licenses page. */
const MAX_LICENSES_PAGE = 1000;

function requestedIds(ctx: NodeContext, query: unknown): string[] {
  const raw = (query as JsonObject | undefined)?.validator_ids;
  // scan-faucets-missing-ids-empty: no ids, no records.
  if (raw === undefined && ctx.faults.has('scan-faucets-missing-ids-empty')) return [];
  if (raw === undefined) throw badRequest('Missing query parameter validator_ids');
  return [...new Set((Array.isArray(raw) ? raw : [raw]).map(String))];
}

function faucetRecord(ctx: NodeContext, v: Validator, label: string): JsonObject {
  const f = v.faucets;
  const record = {
    validator: label,
    numRoundsCollected: f.numRoundsCollected,
    // scan-faucet-arithmetic: one missed round too many, so collected + missed exceeds the span of rounds.
    numRoundsMissed: f.numRoundsMissed + (ctx.faults.has('scan-faucet-arithmetic') ? 1 : 0),
    firstCollectedInRound: f.firstCollectedInRound,
    lastCollectedInRound: f.lastCollectedInRound,
  };
  // scan-faucet-single-round-spread: one round collected, yet spread over two rounds (one of them missed).
  if (f.numRoundsCollected === 1 && ctx.faults.has('scan-faucet-single-round-spread'))
    return { ...record, numRoundsMissed: f.numRoundsMissed + 1, lastCollectedInRound: f.firstCollectedInRound + 1 };
  return record;
}

export async function validatorRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.get('/v0/validators/validator-faucets', async (req) => {
    const ids = requestedIds(ctx, req.query);
    // scan-faucets-none-found: no validator is found, onboarded or not.
    if (ctx.faults.has('scan-faucets-none-found')) return { validatorsReceivedFaucets: [] };
    // scan-faucets-every-validator: every onboarded validator is answered, whichever were asked for.
    const every = ctx.faults.has('scan-faucets-every-validator') && ids.some((id) => ctx.world.validators.some((v) => v.party === id));
    const known = ctx.world.validators.filter((v) => every || ids.includes(v.party)).sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0));
    // scan-faucet-order-dependent: the sorted statistics are labelled with the matching ids in argument order.
    const labels = ctx.faults.has('scan-faucet-order-dependent') ? ids.filter((id) => known.some((v) => v.party === id)) : known.map((v) => v.party);
    const records = known.map((v, i) => faucetRecord(ctx, v, labels[i]!));
    // scan-validator-never-collected (a deviation): the last onboarded validator has never collected.
    if (ctx.faults.has('scan-validator-never-collected')) {
      const never = ctx.world.validators.at(-1)?.party;
      known.forEach((v, i) => {
        if (v.party === never) Object.assign(records[i]!, { numRoundsCollected: 0, numRoundsMissed: 0, firstCollectedInRound: 0, lastCollectedInRound: 0 });
      });
    }
    // scan-faucet-unknown-listed: ids of no onboarded validator get an empty record.
    if (ctx.faults.has('scan-faucet-unknown-listed')) {
      for (const id of ids.filter((i) => !known.some((v) => v.party === i)))
        records.push({ validator: id, numRoundsCollected: 0, numRoundsMissed: 0, firstCollectedInRound: 0, lastCollectedInRound: 0 });
    }
    return { validatorsReceivedFaucets: records };
  });

  app.get('/v0/admin/validator/licenses', async (req) => {
    const afterText = singleQuery(req.query, 'after');
    const limitText = singleQuery(req.query, 'limit');
    const after = afterText === undefined ? 0n : int64Text(afterText, 'after');
    if (after < 0n) throw badRequest(`Invalid after: ${afterText} (a next_page_token of an earlier page)`);
    const limit = limitText === undefined ? MAX_LICENSES_PAGE : int32Text(limitText, 'limit');
    if (limit < 1 || limit > MAX_LICENSES_PAGE) throw badRequest(`Invalid limit: ${limitText} (between 1 and ${MAX_LICENSES_PAGE})`);
    const newestFirst = [...ctx.world.governance.validatorLicenses].reverse();
    const start = after > BigInt(newestFirst.length) ? newestFirst.length : Number(after);
    const end = start + limit;
    return {
      validator_licenses: newestFirst.slice(start, end).map(contractRecord),
      ...(end < newestFirst.length ? { next_page_token: end } : {}),
    };
  });
}
