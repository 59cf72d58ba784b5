// The wallet interface of the validator node (registered under /api/validator): buy-traffic requests (and their status), transfer
// offers (created, listed, accepted, rejected or withdrawn, their status) and the scan proxy's DSO party id, amulet rules and
// mining rounds. All state lives in this plugin instance.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearer } from '../auth.ts';
import type { NodeContext } from '../context.ts';
import { contractWithState } from '../scan/contracts.ts';
import { rulesAndRounds } from '../scan/mining-rounds.ts';
import type { Contract } from '../world/model.ts';
import { BuyTrafficRequests } from './buy-traffic.ts';
import { readBuyTrafficBody } from './buy-traffic-body.ts';
import { walletCaller, type WalletCaller } from './caller.ts';
import { InvalidInputError, sendError, WalletError } from './errors.ts';
import { WALLET_REQUEST_STEP_MICROS } from './ledger-timing.ts';
import { PurchasedTraffic } from './member-traffic.ts';
import { readTransferOfferBody } from './transfer-offer-body.ts';
import { TransferOffers } from './transfer-offers.ts';

export async function walletRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const requests = new BuyTrafficRequests(ctx, new PurchasedTraffic(ctx));
  const offers = new TransferOffers(ctx);
  const callers = new WeakMap<FastifyRequest, WalletCaller>();

  // Runs before the body is read, so credentials are judged first; each accepted wallet call lets ledger time pass.
  const authenticate = async (request: FastifyRequest) => {
    callers.set(request, await walletCaller(ctx, request));
    ctx.clock.advance(WALLET_REQUEST_STEP_MICROS);
  };
  const callerOf = (request: FastifyRequest) => callers.get(request)!;

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    // Bodies that do not parse (BadJsonError) or that fastify refuses are invalid input like failed validation.
    const invalidInput =
      error instanceof InvalidInputError ||
      (!(error instanceof WalletError) && typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500);
    if (invalidInput) {
      if (ctx.faults.has('wallet-bad-input-500')) return sendError(reply, ctx, 500, 'Internal error, please contact the node operator');
      return sendError(reply, ctx, 400, error.message);
    }
    if (error instanceof WalletError) {
      if (error.status === 401) reply.header('www-authenticate', 'Bearer');
      return sendError(reply, ctx, error.status, error.message);
    }
    return sendError(reply, ctx, 500, 'Internal error, please contact the node operator');
  });

  app.post('/v0/wallet/buy-traffic-requests', { onRequest: authenticate }, async (request, reply) => {
    const body = readBuyTrafficBody(ctx, request.body);
    const outcome = await requests.submit(callerOf(request).user, body);
    if (outcome.status !== 200) return sendError(reply, ctx, outcome.status, outcome.message);
    if (ctx.faults.has('wallet-buy-traffic-created-answered-500')) return sendError(reply, ctx, 500, 'Internal error, please contact the node operator');
    if (ctx.faults.has('wallet-buy-traffic-contract-id-camel-case')) return reply.code(200).send({ requestContractId: outcome.contract.contractId });
    return reply.code(200).send({ request_contract_id: outcome.contract.contractId });
  });

  app.post('/v0/wallet/transfer-offers', { onRequest: authenticate }, async (request, reply) => {
    const body = readTransferOfferBody(ctx, request.body);
    return reply.code(200).send({ offer_contract_id: offers.create(callerOf(request), body) });
  });

  // These take no body: whatever is sent is read and dropped, never a parse error.
  await app.register(async (noBody) => {
    noBody.removeAllContentTypeParsers();
    noBody.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));

    noBody.post<{ Params: { tracking_id: string } }>('/v0/wallet/transfer-offers/:tracking_id/status', { onRequest: authenticate }, async (request, reply) => {
      const status = offers.status(callerOf(request), request.params.tracking_id);
      // wallet-transfer-status-as-text: the status serialized by hand goes out labelled as text.
      if (ctx.faults.has('wallet-transfer-status-as-text')) return reply.code(200).type('text/plain; charset=utf-8').send(JSON.stringify(status));
      return reply.code(200).send(status);
    });

    // Not in the description ("not shown"), but served by real nodes (the official document's getBuyTrafficRequestStatus).
    noBody.post<{ Params: { tracking_id: string } }>(
      '/v0/wallet/buy-traffic-requests/:tracking_id/status',
      { onRequest: authenticate },
      async (request, reply) => {
        const status = requests.status(callerOf(request).user, request.params.tracking_id);
        if (!status) return sendError(reply, ctx, 404, `No buy traffic request with tracking id ${request.params.tracking_id} was found`);
        return reply.code(200).send(status);
      },
    );

    noBody.get('/v0/wallet/transfer-offers', { onRequest: authenticate }, async (request, reply) =>
      reply.code(200).send({ offers: offers.open(callerOf(request)) }),
    );

    // The wallet's own interface (not in the description; shapes of the official internal wallet document):
    // the receiver accepts or rejects an open offer, its sender withdraws it. Rejecting and withdrawing answer no body.
    type ByContract = { Params: { contract_id: string } };
    noBody.post<ByContract>('/v0/wallet/transfer-offers/:contract_id/accept', { onRequest: authenticate }, async (request, reply) =>
      reply.code(200).send({ accepted_offer_contract_id: offers.accept(callerOf(request), request.params.contract_id) }),
    );
    noBody.post<ByContract>('/v0/wallet/transfer-offers/:contract_id/reject', { onRequest: authenticate }, async (request, reply) => {
      offers.reject(callerOf(request), request.params.contract_id);
      return reply.code(200).send();
    });
    noBody.post<ByContract>('/v0/wallet/transfer-offers/:contract_id/withdraw', { onRequest: authenticate }, async (request, reply) => {
      offers.withdraw(callerOf(request), request.params.contract_id);
      return reply.code(200).send();
    });

    noBody.get('/v0/scan-proxy/dso-party-id', async (request: FastifyRequest, reply: FastifyReply) => {
      if (ctx.faults.has('wallet-dso-requires-auth') && bearer(request.headers.authorization) === undefined) {
        throw new WalletError(401, 'Unauthorized: missing credentials');
      }
      // wallet-dso-party-id-as-text: a JSON string serialized by hand goes out labelled as text.
      if (ctx.faults.has('wallet-dso-party-id-as-text'))
        return reply
          .code(200)
          .type('text/plain; charset=utf-8')
          .send(JSON.stringify({ dso_party_id: ctx.world.dso.id }));
      // wallet-dso-party-id-other: the proxy names the first SV's party instead of the network's DSO party.
      const dso = ctx.faults.has('wallet-dso-party-id-other') ? ctx.world.svParties[0]!.id : ctx.world.dso.id;
      return reply.code(200).send({ dso_party_id: dso });
    });

    // The proxy forwards the scan's answers whole (the official scan-proxy document): no client cache to spare.
    noBody.get('/v0/scan-proxy/amulet-rules', async (_request, reply) => {
      const { domainId, amuletRules } = rulesAndRounds(ctx.world);
      return reply.code(200).send({ amulet_rules: contractWithState(amuletRules, domainId) });
    });
    noBody.get('/v0/scan-proxy/open-and-issuing-mining-rounds', async (_request, reply) => {
      const { domainId, openRounds, issuingRounds } = rulesAndRounds(ctx.world);
      const withState = (c: Contract) => contractWithState(c, domainId);
      return reply.code(200).send({ open_mining_rounds: openRounds.map(withState), issuing_mining_rounds: issuingRounds.map(withState) });
    });
  });
}
