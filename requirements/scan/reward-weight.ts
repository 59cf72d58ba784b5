// POST /v0/admin/sv/previous-sv-reward-weight: the previous reward weight of an SV (a string or absent).
import type { Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedObject } from '../../interfaces/scan/common.ts';

const WEIGHT_OP = 'getPreviousSvRewardWeight';

async function weight(ctx: CheckContext, body: Record<string, string>): Promise<{ x: Exchange; body: Record<string, Json> }> {
  const x = await ctx.scan.post('/v0/admin/sv/previous-sv-reward-weight', body);
  return {
    x,
    body: acceptedObject(ctx, x, `the previous reward weight of ${body.svParty}, an SV (fixtures.svParties; discovery: the DSO rules of GET /v0/dso)`),
  };
}

export const REWARD_WEIGHT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: [WEIGHT_OP],
  },
  [
    rule({
      id: 'SCAN-REWARD-WEIGHT-STRING-OR-ABSENT',
      cites: ['C.reward-weight.3'],
      needs: ['svParties'],
      tags: ['rewards'],
      confirms: WEIGHT_OP,
      async check(ctx) {
        for (const sv of ctx.fixtures.svParties) {
          const { x, body } = await weight(ctx, { svParty: sv });
          if (body.rewardWeight !== undefined && typeof body.rewardWeight !== 'string')
            ctx.expect(x).fail(`${sv}: rewardWeight is ${JSON.stringify(body.rewardWeight)}, neither a string nor absent`, '/rewardWeight');
        }
      },
    }),
    rule({
      id: 'SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE',
      cites: ['C.reward-weight.2', 'C.reward-weight.5'],
      needs: ['svParties'],
      tags: ['rewards'],
      async check(ctx) {
        // No weight change of a running network took effect before 1970: the weight must be absent.
        const before = '1970-01-01T00:00:00Z';
        for (const sv of ctx.fixtures.svParties) {
          const x = await ctx.scan.post('/v0/admin/sv/previous-sv-reward-weight', { svParty: sv, effectiveBefore: before });
          if (x.status === 400) ctx.skip(`the target does not accept effectiveBefore as an ISO 8601 timestamp (${before}: 400)`);
          const body = ctx.expect(x, `previous reward weight of ${sv} before ${before}`).status(200).object();
          if (body.rewardWeight !== undefined)
            ctx
              .expect(x)
              .fail(
                `${sv}: a rewardWeight (${JSON.stringify(body.rewardWeight)}) is reported for effectiveBefore ${before}, before any weight change can have taken effect`,
                '/rewardWeight',
              );
        }
      },
    }),
  ],
);
