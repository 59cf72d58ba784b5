// GET /v0/feature-support: the features the node announces.
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { acceptedObject } from '../../interfaces/scan/common.ts';

export const FEATURE_SUPPORT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: ['getFeatureSupport'],
    cites: ['C.feature-support.1'],
  },
  [
    {
      id: 'SCAN-FEATURE-SUPPORT',
      tags: ['misc'],
      confirms: 'getFeatureSupport',
      async check(ctx) {
        const x = await ctx.scan.get('/v0/feature-support');
        const body = acceptedObject(ctx, x, 'the feature support, which takes no parameters');
        if (body.dummy !== undefined && typeof body.dummy !== 'boolean') ctx.expect(x).fail('dummy is present but not a boolean', '/dummy');
      },
    },
  ],
);
