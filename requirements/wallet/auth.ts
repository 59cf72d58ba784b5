// Wallet endpoints need the wallet user's bearer token. The description names no status for a refusal,
// so any 4xx passes (401 and 403 are the usual ones); serving the request (2xx) is the violation.
import type { Exchange, RequestOptions } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { buy, buyBody, statusPath, trackingIds } from '../../interfaces/wallet/support.ts';

/** The credentials a wallet endpoint must refuse: none, a non-JWT string, and the configured token with a forged signature. */
function badCredentials(ctx: CheckContext): Array<{ label: string; auth: RequestOptions['auth'] }> {
  const out: Array<{ label: string; auth: RequestOptions['auth'] }> = [
    { label: 'no Authorization header', auth: 'none' },
    { label: 'a bearer value that is not a JWT', auth: { bearer: 'not-a-jwt' } },
  ];
  const parts = ctx.wallet.config.credentials.bearer?.split('.');
  if (parts?.length === 3 && parts[2]) {
    const forged = parts[2].replace(/./g, 'A') === parts[2] ? parts[2].replace(/./g, 'B') : parts[2].replace(/./g, 'A');
    out.push({ label: 'the configured token with a forged signature', auth: { bearer: [parts[0], parts[1], forged].join('.') } });
  }
  return out;
}

function expectRefused(ctx: CheckContext, x: Exchange, label: string): void {
  if (x.status === 0) ctx.expect(x).fail(`no answer to a request with ${label}: ${x.error}`);
  if (x.status >= 200 && x.status < 300) ctx.expect(x).fail(`a request with ${label} was served (${x.status}); wallet endpoints require a valid bearer token`);
  if (x.status < 400 || x.status >= 500) ctx.expect(x).fail(`a request with ${label} got ${x.status}; expected a 4xx refusal (such as 401 or 403)`);
}

/** A tracking id of one of the wallet user's offers: a node ignoring credentials would answer it with 200. */
function someOffer(ctx: CheckContext): string {
  const id = Object.values(ctx.fixtures.transferOffers ?? {})
    .flat()
    .find((x) => typeof x === 'string');
  return id ?? ctx.skip('fixtures.transferOffers lists no tracking id');
}

export const AUTH_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'wallet' }, [
  rule({
    id: 'WALLET-AUTH-STATUS-REQUIRES-TOKEN',
    operations: ['getTransferOfferStatus'],
    cites: ['S.service.7', 'B.transfer-status.2', 'X.auth.1', 'X.auth.2'],
    needs: ['transferOffers'],
    tags: ['auth'],
    async check(ctx) {
      const trackingId = someOffer(ctx);
      for (const { label, auth } of badCredentials(ctx)) expectRefused(ctx, await ctx.wallet.post(statusPath(trackingId), undefined, { auth }), label);
    },
  }),
  rule({
    id: 'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN',
    operations: ['createBuyTrafficRequest'],
    cites: ['S.service.7', 'B.buy-traffic.3', 'X.auth.1', 'X.auth.2'],
    // A correct node creates nothing, but one that ignores credentials would create a request.
    mutates: true,
    needs: ['trafficReceiverParty', 'domainId'],
    tags: ['auth'],
    async check(ctx) {
      const fresh = trackingIds(ctx, 'auth');
      for (const { label, auth } of badCredentials(ctx)) expectRefused(ctx, await buy(ctx, buyBody(ctx, fresh()), { auth }), label);
    },
  }),
]);
