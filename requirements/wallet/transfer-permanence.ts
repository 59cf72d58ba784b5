// A failed transfer offer stays failed: once the run saw an offer reported failed, looking it up again after
// every other check of the run reports it failed again, never in another state.
import { isObject } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { failedOfferReports, statusPath } from '../../interfaces/wallet/support.ts';
import { MAX_PER_STATE, reportedOffers } from './transfer-status.ts';

export const TRANSFER_PERMANENCE_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'wallet',
    operations: ['getTransferOfferStatus'],
    cites: ['T.transfer-offer.8'],
  },
  [
    rule({
      id: 'WALLET-TRANSFER-STATUS-FAILED-PERMANENT',
      needs: ['transferOffers'],
      tags: ['transfer-offers'],
      // Last, so that the first report and the second lie as far apart as the run allows.
      phase: 'review',
      async check(ctx) {
        const failed = failedOfferReports(ctx);
        // Run alone (no earlier check read the fixture's offers): this check's own reading is the first.
        if (failed.size === 0) await reportedOffers(ctx);
        if (failed.size === 0) ctx.skip('none of the offers in fixtures.transferOffers was reported failed in this run');
        for (const [trackingId, first] of [...failed].slice(0, MAX_PER_STATE)) {
          const x = await ctx.wallet.post(statusPath(trackingId));
          if (x.status !== 200) continue; // a lookup the node answers otherwise reports no state
          const body = ctx.expect(x).json();
          if (isObject(body) && body.status !== 'failed')
            ctx
              .expect(x)
              .fail(
                `transfer offer ${trackingId} was reported failed earlier in the run (${first.method} ${first.url} said so) and is now reported ${JSON.stringify(body.status)}; failure is permanent`,
                '/status',
              );
        }
      },
    }),
  ],
);
