// POST /v0/amulet-rules and POST /v0/open-and-issuing-mining-rounds (official scan document, not the
// description): what a client keeps cached to build its commands. A client names the contract ids it holds; an
// id that is still current keeps its key (and the synchronizer) but loses the contract, which the client has.
import type { FastifyInstance } from 'fastify';
import { isStringArray, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { Contract } from '../world/model.ts';
import { ROUND_MICROS } from '../world/dso-governance.ts';
import { contractWithState } from './contracts.ts';
import { badRequest } from './errors.ts';
import { rulesAndRounds } from './mining-rounds.ts';
import { bodyObject, requiredField, stringField } from './params.ts';

function contractIds(body: JsonObject, name: string): Set<string> {
  const v = requiredField(body, name);
  if (!isStringArray(v)) throw badRequest(`Invalid request: ${name} must be an array of contract ids`);
  return new Set(v);
}

/** A contract the client may have cached: only its synchronizer when the client named its id. */
const maybeCached = (c: Contract, domainId: string, cached: ReadonlySet<string>): JsonObject =>
  cached.has(c.contractId) ? { domain_id: domainId } : contractWithState(c, domainId);

const byContractId = (contracts: Contract[], domainId: string, cached: ReadonlySet<string>): JsonObject =>
  Object.fromEntries(contracts.map((c) => [c.contractId, maybeCached(c, domainId, cached)]));

export async function amuletRulesRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.post('/v0/amulet-rules', async (req) => {
    const body = bodyObject(req.body);
    const cachedId = stringField(body, 'cached_amulet_rules_contract_id', false);
    // Checked only: the answer names the rules' synchronizer either way.
    stringField(body, 'cached_amulet_rules_domain_id', false);
    const { domainId, amuletRules } = rulesAndRounds(ctx.world);
    return { amulet_rules_update: maybeCached(amuletRules, domainId, new Set(cachedId === undefined ? [] : [cachedId])) };
  });

  app.post('/v0/open-and-issuing-mining-rounds', async (req) => {
    const body = bodyObject(req.body);
    const cachedOpen = contractIds(body, 'cached_open_mining_round_contract_ids');
    const cachedIssuing = contractIds(body, 'cached_issuing_round_contract_ids');
    const { domainId, openRounds, issuingRounds } = rulesAndRounds(ctx.world);
    return {
      open_mining_rounds: byContractId(openRounds, domainId, cachedOpen),
      issuing_mining_rounds: byContractId(issuingRounds, domainId, cachedIssuing),
      // A round's tick: the next round opens at most this long after the answer, so a longer cache would miss it.
      time_to_live_in_microseconds: ROUND_MICROS,
    };
  });
}
