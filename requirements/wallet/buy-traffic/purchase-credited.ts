// What a completed buy-traffic request buys: traffic_amount bytes for the participant hosting the receiving
// party, on domain_id, which scan's traffic status of that member then shows in target.total_purchased.
// The purchase happens later, in the wallet automation: the check waits for it through the request's status
// lookup (POST /v0/wallet/buy-traffic-requests/{tracking_id}/status: not shown by the description, served by
// real nodes as the official document's getBuyTrafficRequestStatus), and skips when it cannot tell.
// Other purchases may land meanwhile on a live network, so the total must grow by at least the amount.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseJson, type Json } from '../../../common/json.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import { isInt64 } from '../../../engine/int64.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { participantIdPath, trafficStatusPath } from '../../../interfaces/scan/common.ts';
import { buy, buyBody, buyStatusPath, collision, isDuplicateAnswer, TRAFFIC_AMOUNT, trackingIds } from '../../../interfaces/wallet/support.ts';

/** Status lookups before giving up on the wallet automation. */
const STATUS_POLLS = 12;
/** Scan reads after completion: about 16 s in all, since a real scan ingests the purchasing transaction with a lag. */
const SCAN_READS = 9;
/** The first pause between two tries, doubling up to the cap. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 5_000;

/** Calls `attempt` until it returns a value, pausing longer each time; undefined after `tries`. */
async function poll<T>(tries: number, attempt: () => Promise<T | undefined>): Promise<T | undefined> {
  let pause = FIRST_PAUSE_MS;
  for (let n = 1; n <= tries; n++) {
    const got = await attempt();
    if (got !== undefined || n === tries) return got;
    await sleep(pause);
    pause = Math.min(2 * pause, MAX_PAUSE_MS);
  }
  return undefined;
}

/** The one participant hosting the party on the domain, as scan's party-to-participant lookup names it. */
async function hostingMember(ctx: CheckContext, domain: string, party: string): Promise<string> {
  const x = await ctx.scan.get(participantIdPath(domain, party));
  const ids: unknown = x.status === 200 ? parseJson(x.text)?.participant_ids : undefined;
  if (!Array.isArray(ids) || ids.length !== 1 || typeof ids[0] !== 'string')
    // A list of other than one participant, or a 404, is the network's data; any other answer is the cause.
    ctx.skip(
      `scan names no single participant hosting ${party} on ${domain} (answered ${x.status}), so the member whose traffic is bought is unknown`,
      Array.isArray(ids) || x.status === 404 ? {} : { exchange: x },
    );
  return ids[0];
}

/** target.total_purchased of the member, 0 while scan has no traffic state for it (404); undefined on another answer. */
function purchased(x: Exchange): number | undefined {
  if (x.status === 404) return 0;
  const value: unknown = x.status === 200 ? parseJson(x.text)?.traffic_status?.target?.total_purchased : undefined;
  return isInt64(value) ? value : undefined;
}

export const PURCHASE_CREDITED_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'wallet',
    operations: ['createBuyTrafficRequest'],
    cites: ['R.scan.35', 'B.buy-traffic.6', 'B.buy-traffic.9', 'B.buy-traffic.11', 'C.traffic.3', 'X.limits.6'],
  },
  [
    rule({
      id: 'WALLET-BUY-TRAFFIC-PURCHASE-CREDITED',
      // The check reads scan's getMemberTrafficStatus and getPartyToParticipantV1 too (another interface's document).
      mutates: true,
      needs: ['trafficReceiverParty', 'domainId'],
      tags: ['buy-traffic', 'traffic', 'timing'],
      async check(ctx) {
        const domain = ctx.fixtures.domainId;
        const member = await hostingMember(ctx, domain, ctx.fixtures.trafficReceiverParty);
        const readScan = () => ctx.scan.get(trafficStatusPath(domain, member));
        const before = await readScan();
        const base = purchased(before);
        if (base === undefined)
          return ctx.skip(
            `scan's traffic status of ${member} answered ${before.status} without an integer target.total_purchased before the purchase; nothing to compare with`,
          );

        const trackingId = trackingIds(ctx, 'credited')();
        const created = await buy(ctx, buyBody(ctx, trackingId));
        if (isDuplicateAnswer(created)) collision(ctx, created, trackingId);
        if (created.status !== 200)
          ctx.skip(`the purchase was not made: the request was answered ${created.status} (judged by WALLET-BUY-TRAFFIC-CREATE)`, { exchange: created });

        let last: Exchange | undefined;
        const outcome = await poll(STATUS_POLLS, async () => {
          last = await ctx.wallet.post(buyStatusPath(trackingId));
          const status: Json = last.status === 200 ? parseJson(last.text) : undefined;
          return status?.status === 'completed' || status?.status === 'failed' ? (status as { status: string; failure_reason?: unknown }) : undefined;
        });
        if (!outcome) return ctx.skip(`purchase did not complete within ${STATUS_POLLS} polls of its status (last answer ${last?.status})`);
        if (outcome.status === 'failed') ctx.skip(`the purchase failed (${String(outcome.failure_reason)}), so no traffic was bought to look for`);

        let after = before;
        const grown = await poll(SCAN_READS, async () => {
          after = await readScan();
          const now = purchased(after);
          return now !== undefined && now - base >= TRAFFIC_AMOUNT ? now : undefined;
        });
        if (grown === undefined)
          ctx
            .expect(after)
            .fail(
              `after a completed purchase of ${TRAFFIC_AMOUNT} bytes for ${member} on ${domain} (tracking id ${trackingId}), its target.total_purchased (the evidence) grew by less than that: it grows by at least the bytes bought`,
              '/traffic_status/target/total_purchased',
            );
      },
    }),
  ],
);
