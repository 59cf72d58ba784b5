// POST /v0/wallet/transfer-offers/{tracking_id}/status: each state reports exactly its own fields, and
// tracking ids this wallet knows no offer for are 404. The fixture lists offers by the state they had
// when it was written; offers move on, so checks judge the state each answer reports, not the listed one.
import fc from 'fast-check';
import { isObject } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { failedOfferReports, statusPath } from '../../interfaces/wallet/support.ts';
import { OTHER_WALLET_TOKEN_VARIABLE } from '../../engine/fixtures.ts';

const ACTIVE_STATES: ReadonlySet<string> = new Set(['created', 'accepted', 'completed']);
const FAILURE_KINDS: ReadonlySet<string> = new Set(['expired', 'rejected', 'withdrawn']);
/** Bound on the fixture's ids looked up per state. */
export const MAX_PER_STATE = 20;

/** Tracking ids of transfer offers of another wallet user (never the configured user's). */
const otherUserOffers = (ctx: CheckContext): string[] => (ctx.fixtures.otherUserTransferOffers ?? []).slice(0, MAX_PER_STATE);

interface Reported {
  trackingId: string;
  x: Exchange;
  body: Record<string, unknown>;
}

/** The 200 answers for the fixture's offers (lookups the node answers otherwise are not judged here). */
export async function reportedOffers(ctx: CheckContext): Promise<Reported[]> {
  const ids = [...new Set(Object.values(ctx.fixtures.transferOffers ?? {}).flatMap((list) => (list ?? []).slice(0, MAX_PER_STATE)))];
  const out: Reported[] = [];
  for (const trackingId of ids) {
    const x = await ctx.wallet.post(statusPath(trackingId));
    if (x.status !== 200) continue;
    const body = ctx.expect(x).json();
    if (!isObject(body)) ctx.expect(x).fail(`the status of transfer offer ${trackingId} is not a JSON object`);
    out.push({ trackingId, x, body });
    const failed = failedOfferReports(ctx);
    if (body.status === 'failed' && !failed.has(trackingId)) failed.set(trackingId, x);
  }
  return out;
}

const has = (body: Record<string, unknown>, field: string) => Object.hasOwn(body, field);

/** Fixture offers looked up per listed state by the positive requirement. */
const KNOWN_PER_STATE = 4;
const STATES: ReadonlySet<string> = new Set([...ACTIVE_STATES, 'failed']);

export const TRANSFER_STATUS_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'wallet', operations: ['getTransferOfferStatus'] }, [
  rule({
    id: 'WALLET-TRANSFER-STATUS-KNOWN-OFFER',
    cites: ['B.transfer-status.1', 'B.transfer-status.3'],
    needs: ['transferOffers'],
    tags: ['transfer-offers'],
    confirms: 'getTransferOfferStatus',
    async check(ctx) {
      // The wallet reported each of these offers when they were listed (discovery asks this very endpoint, or
      // created the offer and waited for it): it knows them, so a 404 now is a refusal.
      for (const [listed, ids] of Object.entries(ctx.fixtures.transferOffers)) {
        for (const trackingId of (ids ?? []).slice(0, KNOWN_PER_STATE)) {
          const x = await ctx.wallet.post(statusPath(trackingId));
          const body = ctx.accepted(
            x,
            `the status of transfer offer ${trackingId}, listed ${listed} in fixtures.transferOffers (discovery: this wallet's status endpoint reported it, or this run created it and waited for the wallet to know it)`,
          );
          // The run saw it failed: failure is permanent (WALLET-TRANSFER-STATUS-FAILED-PERMANENT asks again last).
          const failed = failedOfferReports(ctx);
          if (isObject(body) && body.status === 'failed' && !failed.has(trackingId)) failed.set(trackingId, x);
          if (!isObject(body) || !STATES.has(body.status as string))
            ctx
              .expect(x)
              .fail(
                `the status of transfer offer ${trackingId} is ${JSON.stringify(isObject(body) ? body.status : body)}, none of created, accepted, completed, failed`,
                '/status',
              );
        }
      }
    },
  }),
  rule({
    id: 'WALLET-TRANSFER-STATUS-ACTIVE-SHAPE',
    cites: ['R.wallet.1', 'T.transfer-offer.1', 'T.transfer-offer.3', 'T.transfer-offer.5', 'B.transfer-status.3'],
    needs: ['transferOffers'],
    tags: ['transfer-offers'],
    async check(ctx) {
      const active = (await reportedOffers(ctx)).filter((r) => ACTIVE_STATES.has(r.body.status as string));
      if (active.length === 0) ctx.skip('none of the offers in fixtures.transferOffers is now in state created, accepted or completed');
      for (const { trackingId, x, body } of active) {
        for (const field of ['transaction_id', 'contract_id']) {
          if (typeof body[field] !== 'string') {
            ctx
              .expect(x)
              .fail(
                `transfer offer ${trackingId} in state ${body.status} ${has(body, field) ? `has a non-string ${field}` : `lacks ${field}`}; that state carries status, transaction_id and contract_id`,
                `/${field}`,
              );
          }
        }
        if (has(body, 'failure_kind'))
          ctx.expect(x).fail(`transfer offer ${trackingId} in state ${body.status} carries failure_kind, a field of the failed state only`, '/failure_kind');
      }
    },
  }),
  rule({
    id: 'WALLET-TRANSFER-STATUS-FAILED-SHAPE',
    cites: ['R.wallet.1', 'T.transfer-offer.7', 'B.transfer-status.3'],
    needs: ['transferOffers'],
    tags: ['transfer-offers'],
    async check(ctx) {
      const failed = (await reportedOffers(ctx)).filter((r) => r.body.status === 'failed');
      if (failed.length === 0) ctx.skip('none of the offers in fixtures.transferOffers is now in state failed');
      for (const { trackingId, x, body } of failed) {
        if (!FAILURE_KINDS.has(body.failure_kind as string)) {
          ctx
            .expect(x)
            .fail(
              `failed transfer offer ${trackingId} has failure_kind ${JSON.stringify(body.failure_kind)}; it is one of expired, rejected, withdrawn`,
              '/failure_kind',
            );
        }
        // Optional: absent, or text (null is left to the schema checks).
        if (body.withdrawn_reason !== undefined && body.withdrawn_reason !== null && typeof body.withdrawn_reason !== 'string') {
          ctx.expect(x).fail(`failed transfer offer ${trackingId} has a non-string withdrawn_reason`, '/withdrawn_reason');
        }
        for (const field of ['transaction_id', 'contract_id']) {
          if (has(body, field))
            ctx
              .expect(x)
              .fail(`failed transfer offer ${trackingId} carries ${field}, which the failed state does not have (nothing was transferred)`, `/${field}`);
        }
      }
    },
  }),
  {
    id: 'WALLET-TRANSFER-STATUS-UNKNOWN-404',
    cites: ['B.transfer-status.1', 'B.transfer-status.4', 'X.errors.8'],
    tags: ['transfer-offers'],
    async check(ctx) {
      // Tracking ids nobody submitted an offer with: a run-specific prefix and a varying tail.
      const tail = fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/);
      await ctx.property(tail, async (t) => {
        const trackingId = `cnc-${ctx.runId}-no-offer-${t}`;
        const x = await ctx.wallet.post(statusPath(trackingId));
        if (x.status === 200) ctx.expect(x).fail(`a status lookup of tracking id ${trackingId}, never used for an offer, was answered 200 instead of 404`);
        ctx.expect(x, `no offer with tracking id ${trackingId} is known`).status(404);
      });
    },
  },
  rule({
    id: 'WALLET-TRANSFER-STATUS-OTHER-USER-404',
    cites: ['B.transfer-status.4', 'X.auth.3'],
    needs: ['otherUserTransferOffers'],
    tags: ['transfer-offers', 'auth'],
    async check(ctx) {
      const ids = otherUserOffers(ctx);
      const owner = ctx.fixtures.otherWalletUserToken;
      for (const trackingId of ids) {
        // The offer's own user asks first (where its token is given): a node that keeps answers by tracking id
        // alone, whoever asked, then holds this one; what the owner is answered is not judged here.
        if (owner) await ctx.wallet.post(statusPath(trackingId), undefined, { auth: { bearer: owner, variable: OTHER_WALLET_TOKEN_VARIABLE } });
        const x = await ctx.wallet.post(statusPath(trackingId));
        if (x.status >= 200 && x.status < 300)
          ctx
            .expect(x)
            .fail(
              `the status of transfer offer ${trackingId}, sent by another wallet user, was reported to this user (${x.status}); this wallet knows no such offer (404)`,
            );
        ctx.expect(x, `transfer offer ${trackingId} belongs to another wallet user`).status(404);
      }
    },
  }),
]);
