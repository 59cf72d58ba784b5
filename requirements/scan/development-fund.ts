// GET /v0/unclaimed-development-fund-coupons: the unclaimed coupons of the development fund, as contracts
// with their state.
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { acceptedObject, contractWithStateProblems } from '../../interfaces/scan/common.ts';

export const DEVELOPMENT_FUND_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'scan', operations: ['listUnclaimedDevelopmentFundCoupons'] },
  [
    {
      id: 'SCAN-DEVELOPMENT-FUND-COUPONS',
      cites: ['R.scan.33', 'R.scan.34', 'C.dev-fund.1'],
      tags: ['misc'],
      confirms: 'listUnclaimedDevelopmentFundCoupons',
      async check(ctx) {
        const x = await ctx.scan.get('/v0/unclaimed-development-fund-coupons');
        const list = acceptedObject(ctx, x, 'the unclaimed development fund coupons, which take no parameters')['unclaimed-development-fund-coupons'];
        if (!Array.isArray(list)) ctx.expect(x).fail('unclaimed-development-fund-coupons is not an array', '/unclaimed-development-fund-coupons');
        for (const [k, c] of list.entries()) {
          const problems = contractWithStateProblems(c);
          // A template id ends with the template's name (package:module:entity).
          const template = c?.contract?.template_id;
          if (typeof template === 'string' && template.split(':').at(-1) !== 'UnclaimedDevelopmentFundCoupon')
            problems.push(`template ${template} is not UnclaimedDevelopmentFundCoupon`);
          if (problems.length > 0) ctx.expect(x).fail(`coupon ${k}: ${problems.join('; ')}`, `/unclaimed-development-fund-coupons/${k}`);
        }
      },
    },
  ],
);
