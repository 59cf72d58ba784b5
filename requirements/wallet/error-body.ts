// Wallet error bodies are `{error: string}` on every documented error status. The checks provoke errors
// and judge the body of whichever documented error status comes back; which status it is belongs to the
// requirements of each rule.
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { buy, buyBody, ERROR_STATUSES, ERROR_SHAPE, statusPath, trackingIds } from '../../interfaces/wallet/support.ts';

/** An HTTP layer's 404 before the API's handler: a SHOULD finding (WALLET-ANSWERS-PLAIN-TEXT-404), not a break here. */
function plainText404(x: Exchange): boolean {
  if (x.status !== 404 || x.truncated) return false;
  try {
    JSON.parse(x.text);
    return false;
  } catch {
    return true;
  }
}

function judgeAll(ctx: CheckContext, answers: Exchange[]): void {
  const errors = answers.filter((x) => ERROR_STATUSES.includes(x.status));
  if (errors.length === 0) ctx.skip(`no documented error status came back (got ${answers.map((x) => x.status).join(', ')}), so no error body to judge`);
  const judged = errors.filter((x) => !plainText404(x));
  if (judged.length === 0) ctx.skip('every error answer was a plain-text 404, which WALLET-ANSWERS-PLAIN-TEXT-404 reports');
  for (const x of judged) ctx.expect(x).errorBody('error', ERROR_SHAPE);
}

export const ERROR_BODY_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'wallet' }, [
  {
    id: 'WALLET-ERROR-BODY-STATUS-LOOKUP',
    operations: ['getTransferOfferStatus'],
    cites: ['B.transfer-status.4', 'X.errors.13'],
    tags: ['errors'],
    async check(ctx) {
      judgeAll(ctx, [await ctx.wallet.post(statusPath(trackingIds(ctx, 'no-offer-error')()))]);
    },
  },
  rule({
    id: 'WALLET-ERROR-BODY-BUY-TRAFFIC',
    operations: ['createBuyTrafficRequest'],
    cites: ['B.buy-traffic.25', 'X.errors.13'],
    mutates: true,
    needs: ['trafficReceiverParty', 'domainId'],
    tags: ['errors', 'buy-traffic'],
    async check(ctx) {
      const fresh = trackingIds(ctx, 'error-body');
      // Invalid requests (a required field missing, a body that is not JSON, a party hosted on several
      // participants) are independent of one another and of the duplicate: sent together, judged in order.
      const missing = buyBody(ctx, fresh());
      delete missing.traffic_amount;
      const invalid: Array<Promise<Exchange>> = [
        buy(ctx, missing),
        buy(ctx, undefined, { rawBody: '{"tracking_id": ', contentType: 'application/json' }),
        ...(ctx.fixtures.multiHostedParty ? [buy(ctx, buyBody(ctx, fresh(), { receiving_validator_party_id: ctx.fixtures.multiHostedParty }))] : []),
      ];
      // A duplicate: created first, then the same tracking id again.
      const body = buyBody(ctx, fresh());
      const duplicate = buy(ctx, body).then(async (first) => [first, await buy(ctx, body)]);
      const [answers, pair] = await Promise.all([Promise.all(invalid), duplicate]);
      judgeAll(ctx, [...answers, ...pair]);
    },
  }),
]);
