// POST /v0/wallet/buy-traffic-requests: a valid request creates a request contract; invalid ones are 400.
// Invalid bodies go to a state-changing endpoint: a correct node creates nothing, a faulty one might, so
// these checks are marked as mutating too.
import type { Exchange } from '../../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { buy, buyBody, collision, isDuplicateAnswer, trackingIds } from '../../../interfaces/wallet/support.ts';

const STRING_FIELDS = ['receiving_validator_party_id', 'domain_id', 'tracking_id'] as const;
const INT64_FIELDS = ['traffic_amount', 'expires_at'] as const;

/**
 * Values of the wrong JSON type that no common decoder coerces: numbers and booleans are left out for
 * string fields (some decoders turn them into strings), numeric strings and fractions for int64 fields
 * (some decoders parse or truncate them).
 */
const WRONG_TYPES: Record<string, Array<[string, unknown]>> = {
  string: [
    ['an object', { value: 'x' }],
    ['an array of two strings', ['a', 'b']],
  ],
  int64: [
    ['a non-numeric string', 'lots'],
    ['an object', { bytes: 1 }],
  ],
};

interface InvalidCase {
  label: string;
  body?: unknown;
  raw?: string;
}

function invalidCases(ctx: CheckContext, fresh: () => string): InvalidCase[] {
  const cases: InvalidCase[] = [];
  for (const field of [...STRING_FIELDS, ...INT64_FIELDS]) {
    const valid = buyBody(ctx, fresh());
    delete valid[field];
    cases.push({ label: `required field ${field} missing`, body: valid });
  }
  for (const field of STRING_FIELDS)
    for (const [what, value] of WRONG_TYPES.string!)
      cases.push({ label: `${field} (a string) given ${what}`, body: buyBody(ctx, fresh(), { [field]: value }) });
  for (const field of INT64_FIELDS)
    for (const [what, value] of WRONG_TYPES.int64!) cases.push({ label: `${field} (an int64) given ${what}`, body: buyBody(ctx, fresh(), { [field]: value }) });
  cases.push({ label: 'a body that is not JSON', raw: `{"tracking_id": "${fresh()}",` });
  cases.push({ label: 'a JSON array instead of an object', body: [buyBody(ctx, fresh())] });
  return cases;
}

function expect400(ctx: CheckContext, x: Exchange, label: string): void {
  if (x.status === 0) ctx.expect(x).fail(`no answer to a buy-traffic request with ${label}: ${x.error}`);
  if (x.status >= 200 && x.status < 300)
    ctx.expect(x).fail(`a buy-traffic request with ${label} was accepted (${x.status}); an invalid request is answered 400`);
  if (x.status !== 400) ctx.expect(x).fail(`a buy-traffic request with ${label} got ${x.status}; an invalid request is answered 400`);
}

export const BUY_TRAFFIC_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'wallet',
    operations: ['createBuyTrafficRequest'],
  },
  [
    rule({
      id: 'WALLET-BUY-TRAFFIC-CREATE',
      cites: ['S.service.7', 'S.service.8', 'T.buy-traffic.1', 'B.buy-traffic.1', 'B.buy-traffic.19'],
      mutates: true,
      needs: ['trafficReceiverParty', 'domainId'],
      tags: ['buy-traffic'],
      confirms: 'createBuyTrafficRequest',
      async check(ctx) {
        const trackingId = trackingIds(ctx, 'create')();
        const body = buyBody(ctx, trackingId);
        const x = await buy(ctx, body);
        if (isDuplicateAnswer(x)) collision(ctx, x, trackingId);
        const answer = ctx.accepted(
          x,
          `a purchase of ${body.traffic_amount} bytes for the validator hosting ${body.receiving_validator_party_id} (fixtures.trafficReceiverParty; discovery: a validator's party) on ${body.domain_id} (fixtures.domainId), with the fresh tracking id ${trackingId}`,
        );
        ctx.created(
          `a buy-traffic request ${JSON.stringify(answer?.request_contract_id)} with tracking id ${trackingId} (${body.traffic_amount} bytes, expiring in a day)`,
        );
      },
    }),
    rule({
      id: 'WALLET-BUY-TRAFFIC-INVALID-BODY-400',
      cites: [
        'B.buy-traffic.4',
        'B.buy-traffic.5',
        'B.buy-traffic.8',
        'B.buy-traffic.10',
        'B.buy-traffic.12',
        'B.buy-traffic.16',
        'B.buy-traffic.20',
        'X.errors.4',
      ],
      mutates: true,
      needs: ['trafficReceiverParty', 'domainId'],
      tags: ['buy-traffic', 'validation'],
      async check(ctx) {
        // Each case has its own tracking id: they are independent, so they go out together and are judged in order.
        const cases = invalidCases(ctx, trackingIds(ctx, 'invalid'));
        const answers = cases.map((c) => buy(ctx, c.body, c.raw === undefined ? {} : { rawBody: c.raw, contentType: 'application/json' }));
        for (const a of answers) a.catch(() => {});
        for (const [i, c] of cases.entries()) expect400(ctx, await answers[i]!, c.label);
      },
    }),
    rule({
      id: 'WALLET-BUY-TRAFFIC-MULTI-HOSTED-400',
      cites: ['B.buy-traffic.7', 'X.errors.4'],
      mutates: true,
      needs: ['multiHostedParty', 'domainId'],
      tags: ['buy-traffic', 'validation'],
      async check(ctx) {
        const body = buyBody(ctx, trackingIds(ctx, 'multi-hosted')(), { receiving_validator_party_id: ctx.fixtures.multiHostedParty });
        expect400(ctx, await buy(ctx, body), `a receiving party hosted on several participants (${ctx.fixtures.multiHostedParty})`);
      },
    }),
  ],
);
