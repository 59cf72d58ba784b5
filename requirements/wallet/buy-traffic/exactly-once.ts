// Tracking ids make buy-traffic submission exactly-once: once a request was created, the same tracking id
// is refused with 409 (already created) or 429 (being processed), never turned into a second request;
// after a command that failed without buying traffic, the tracking id may be used again.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../../../engine/transport/http.ts';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { buy, buyBody, collision, isDuplicateAnswer, TRAFFIC_AMOUNT, trackingIds } from '../../../interfaces/wallet/support.ts';

/**
 * A duplicate answered 409 ("already created") while the first submission is still unanswered is only
 * judged wrong when the first answer came much later: at least this long after the 409, and at least
 * half of the first submission's own duration. A real node answers its creator within moments of the
 * creation, so a 409 that early cannot be the legitimate race between creation and the creator's answer.
 */
const MIN_GAP_MS = 20;

interface Timed {
  x: Exchange;
  endedAt: number;
}

export const EXACTLY_ONCE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'wallet', operations: ['createBuyTrafficRequest'] }, [
  rule({
    id: 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE',
    cites: ['T.tracking-id.1', 'B.buy-traffic.13', 'B.buy-traffic.21', 'B.buy-traffic.22', 'X.errors.5'],
    mutates: true,
    needs: ['trafficReceiverParty', 'domainId'],
    tags: ['buy-traffic', 'exactly-once'],
    async check(ctx) {
      const trackingId = trackingIds(ctx, 'once')();
      const body = buyBody(ctx, trackingId);
      const first = await buy(ctx, body);
      if (isDuplicateAnswer(first)) collision(ctx, first, trackingId);
      if (first.status !== 200)
        ctx.skip(`the first submission was answered ${first.status}, not 200 (see WALLET-BUY-TRAFFIC-CREATE); nothing to repeat`, { exchange: first });
      // The same body again, then a different body under the same tracking id: both are duplicates.
      for (const [label, again] of [
        ['the same body', body],
        ['a different traffic_amount', { ...body, traffic_amount: TRAFFIC_AMOUNT + 1 }],
      ] as const) {
        const x = await buy(ctx, again);
        if (x.status >= 200 && x.status < 300)
          ctx.expect(x).fail(`resubmitting tracking id ${trackingId} with ${label} was accepted (${x.status}): a second request for one tracking id`);
        ctx.expect(x, `resubmitting tracking id ${trackingId} with ${label} after it was created`).status([409, 429]);
      }
    },
  }),
  rule({
    id: 'WALLET-BUY-TRAFFIC-IN-FLIGHT-429',
    cites: ['T.tracking-id.1', 'B.buy-traffic.21', 'B.buy-traffic.22', 'X.errors.6'],
    mutates: true,
    needs: ['trafficReceiverParty', 'domainId'],
    tags: ['buy-traffic', 'exactly-once', 'timing'],
    async check(ctx) {
      const trackingId = trackingIds(ctx, 'in-flight')();
      const body = buyBody(ctx, trackingId);
      const send = async (delayMs: number): Promise<Timed> => {
        if (delayMs > 0) await sleep(delayMs);
        const x = await buy(ctx, body);
        return { x, endedAt: performance.now() };
      };
      // The duplicate follows a few milliseconds later, so that it normally meets the first in processing.
      const pair = await Promise.all([send(0), send(5)]);
      if (pair.every((p) => isDuplicateAnswer(p.x))) collision(ctx, pair[0].x, trackingId);
      const winners = pair.filter((p) => p.x.status === 200);
      if (winners.length !== 1)
        ctx.skip(
          `two concurrent submissions were answered ${pair.map((p) => p.x.status).join(' and ')}: no single created request to compare the duplicate with`,
        );
      const created = winners[0]!;
      const duplicate = pair.find((p) => p !== created)!;
      const gap = created.endedAt - duplicate.endedAt;
      if (duplicate.x.status === 409 && gap >= Math.max(MIN_GAP_MS, created.x.durationMs / 2)) {
        ctx
          .expect(duplicate.x)
          .fail(
            `a duplicate of tracking id ${trackingId} was answered 409 (already created) ${Math.round(gap)} ms before the first submission (${created.x.durationMs} ms in all) ` +
              'was answered: while a request is being processed the answer is 429',
          );
      }
    },
  }),
  rule({
    id: 'WALLET-BUY-TRAFFIC-CREATED-409',
    cites: ['B.buy-traffic.21', 'X.errors.5'],
    mutates: true,
    needs: ['trafficReceiverParty', 'domainId'],
    tags: ['buy-traffic', 'exactly-once'],
    async check(ctx) {
      // A 200 names the created request's contract, so the request exists from then on: a duplicate sent after
      // that answer meets a created request (409), not one still being processed (429, "resubmit if the status
      // lookup gives 404", which describes a request that may not exist yet).
      const trackingId = trackingIds(ctx, 'created')();
      const body = buyBody(ctx, trackingId);
      const first = await buy(ctx, body);
      if (isDuplicateAnswer(first)) collision(ctx, first, trackingId);
      if (first.status !== 200)
        ctx.skip(`the first submission was answered ${first.status}, not 200 (see WALLET-BUY-TRAFFIC-CREATE); nothing was created`, { exchange: first });
      const again = await buy(ctx, body);
      ctx.expect(again, `resubmitting tracking id ${trackingId} after its request was created (answered 200)`).status(409);
    },
  }),
  rule({
    id: 'WALLET-BUY-TRAFFIC-RETRY-AFTER-FAILED-COMMAND',
    cites: ['T.tracking-id.2', 'B.buy-traffic.15'],
    mutates: true,
    needs: ['trafficReceiverParty', 'domainId'],
    tags: ['buy-traffic', 'exactly-once'],
    async check(ctx) {
      const trackingId = trackingIds(ctx, 'retry')();
      // Expired long before it was sent: a correct node can only refuse it, so nothing is bought.
      const failed = await buy(ctx, buyBody(ctx, trackingId, { expires_at: 1 }));
      if (isDuplicateAnswer(failed)) collision(ctx, failed, trackingId);
      if (failed.status !== 400)
        ctx.skip(`a request that expired in 1970 was answered ${failed.status}, not refused with 400: no failed submission to retry after`);
      const retry = await buy(ctx, buyBody(ctx, trackingId));
      if (isDuplicateAnswer(retry)) {
        ctx
          .expect(retry)
          .fail(
            `the only earlier submission of tracking id ${trackingId} was refused with 400 (nothing created, no traffic bought), yet the valid resubmission was refused as a duplicate (${retry.status})`,
          );
      }
      if (retry.status !== 200) ctx.skip(`the valid resubmission was answered ${retry.status}, not 200 (see WALLET-BUY-TRAFFIC-CREATE)`, { exchange: retry });
    },
  }),
]);
