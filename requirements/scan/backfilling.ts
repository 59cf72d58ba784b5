// GET /v0/backfilling/status: whether the node's history is complete.
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { acceptedObject } from '../../interfaces/scan/common.ts';

export const BACKFILLING_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: ['getBackfillingStatus'],
    cites: ['C.backfilling.1'],
  },
  [
    {
      id: 'SCAN-BACKFILLING-COMPLETE-FLAG',
      tags: ['misc'],
      confirms: 'getBackfillingStatus',
      async check(ctx) {
        const x = await ctx.scan.get('/v0/backfilling/status');
        if (typeof acceptedObject(ctx, x, 'the backfilling status, which takes no parameters').complete !== 'boolean')
          ctx.expect(x).fail('complete is not a boolean', '/complete');
      },
    },
  ],
);
