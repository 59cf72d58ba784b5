// Shared pieces of the wallet requirements: paths, the valid buy-traffic body, fresh tracking ids and the
// few judgements several checks make the same way.
import type { Exchange, RequestOptions } from '../../engine/transport/http.ts';
import type { CheckContext } from '../../engine/model.ts';

export const BUY_TRAFFIC = '/v0/wallet/buy-traffic-requests';
export const DSO_PARTY_ID = '/v0/scan-proxy/dso-party-id';
export const statusPath = (trackingId: string) => `/v0/wallet/transfer-offers/${encodeURIComponent(trackingId)}/status`;
/** The buy-traffic request's status lookup: not shown by the description; real nodes serve it (the official getBuyTrafficRequestStatus). */
export const buyStatusPath = (trackingId: string) => `/v0/wallet/buy-traffic-requests/${encodeURIComponent(trackingId)}/status`;

/**
 * Transfer offers reported `failed` so far in the run, by tracking id, with the first answer that said so:
 * failure is permanent, so a later answer must say it again (WALLET-TRANSFER-STATUS-FAILED-PERMANENT).
 */
export const failedOfferReports = (ctx: CheckContext): Map<string, Exchange> => ctx.shared('wallet-failed-offer-reports', () => new Map<string, Exchange>());

/** The statuses whose bodies the description gives as `{error: string}` for the wallet. */
export const ERROR_STATUSES = [400, 404, 409, 429, 500];

/** Bytes per purchase: small, but a plausible top-up for a real validator. */
export const TRAFFIC_AMOUNT = 2_000_000;
const DAY_MICROS = 24 * 3600 * 1_000_000;

/**
 * Fresh tracking ids for one check, named after the run: `cnc-<run id>-<label>-<n>`. The command line's run
 * id holds the seed and the start time, so runs against a long-lived node never share ids; two runs with
 * one run id (library callers' default is the seed's) see their first submission refused as a duplicate
 * and skip (see `collision`) rather than fail.
 */
export function trackingIds(ctx: CheckContext, label: string): () => string {
  let n = 0;
  return () => `cnc-${ctx.runId}-${label}-${++n}`;
}

/**
 * A valid buy-traffic body. `expires_at` is a day after the caller's wall clock: the description warns
 * that ledger time may differ from it, and a day is far more than any such difference.
 */
export function buyBody(ctx: CheckContext, trackingId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    receiving_validator_party_id: ctx.fixtures.trafficReceiverParty,
    domain_id: ctx.fixtures.domainId,
    traffic_amount: TRAFFIC_AMOUNT,
    tracking_id: trackingId,
    expires_at: Date.now() * 1000 + DAY_MICROS,
    ...overrides,
  };
}

export const buy = (ctx: CheckContext, body: unknown, options: RequestOptions = {}) => ctx.wallet.post(BUY_TRAFFIC, body, options);

/** 409 / 429: the node says the tracking id was already used. */
export const isDuplicateAnswer = (x: Exchange) => x.status === 409 || x.status === 429;

/**
 * The first submission of a tracking id this run made up was refused as a duplicate: the id was used
 * before (an earlier run with the same seed against this node), so the rule cannot be judged here.
 */
export function collision(ctx: CheckContext, x: Exchange, trackingId: string): never {
  return ctx.skip(
    `tracking id ${trackingId} was already used on this node (first submission answered ${x.status}); a run with another run id (another --seed, or a later start) uses fresh ones`,
  );
}

/** The wallet's error body, as failures name it (`ctx.expect(x).errorBody('error', ERROR_SHAPE)`). */
export const ERROR_SHAPE = "the wallet's error body is {error: string}";
