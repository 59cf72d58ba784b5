// The scan interface (prefix /api/scan): read-only views of the world's history and state. Every answer
// is JSON except bulk downloads; every error is `{error}` with 400, 404 or 500 (unknown routes: see server.ts).
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import { acsRoutes } from './acs.ts';
import { amuletRulesRoutes } from './amulet-rules.ts';
import { ansRoutes } from './ans.ts';
import { bulkRoutes } from './bulk.ts';
import { dsoRoutes } from './dso.ts';
import { renderError } from './errors.ts';
import { historyRoutes } from './history.ts';
import { historyListRoutes } from './history-lists.ts';
import { holdingsRoutes } from './holdings.ts';
import { networkInfoRoutes } from './network-info.ts';
import { partyRoutes } from './parties.ts';
import { rewardRoutes } from './rewards.ts';
import { trafficRoutes } from './traffic.ts';
import { validatorRoutes } from './validators.ts';
import { voteResultRoutes } from './vote-results.ts';

// scan-preserialized-json-as-text: routes that would send a JSON string they serialized themselves, which the
// framework labels text/plain.
const PRESERIALIZED: ReadonlySet<string> = new Set(
  ['/v0/validators/validator-faucets', '/v0/unclaimed-development-fund-coupons', '/v0/state/acs/force'].map((p) => `/api/scan${p}`),
);

export async function scanRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.setErrorHandler((error, _req, reply) => renderError(error, reply, ctx));
  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.routeOptions.url ?? '';
    // scan-ans-entries-as-text: the name service's listing only.
    const asText =
      (PRESERIALIZED.has(url) && ctx.faults.has('scan-preserialized-json-as-text')) ||
      (url === '/api/scan/v0/ans-entries' && ctx.faults.has('scan-ans-entries-as-text'));
    if (reply.statusCode === 200 && asText) reply.type('text/plain; charset=utf-8');
    return payload;
  });
  for (const routes of [
    holdingsRoutes,
    acsRoutes,
    historyRoutes,
    bulkRoutes,
    partyRoutes,
    trafficRoutes,
    validatorRoutes,
    ansRoutes,
    rewardRoutes,
    voteResultRoutes,
    networkInfoRoutes,
    dsoRoutes,
    amuletRulesRoutes,
  ]) {
    await routes(app, ctx);
  }
  await historyListRoutes(app, ctx);
}
