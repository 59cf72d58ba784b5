// GET /v2/version reads the ledger interface version: a conformant node answers it, and the answer states the
// version (the description shows no payload; both official documents require `version`, a string).
import { isObject } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';

export const VERSION_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'ledger',
    operations: ['getVersion'],
    cites: ['A.overview.22'],
  },
  [
    {
      id: 'LEDGER-VERSION-STATED',
      confirms: 'getVersion',
      tags: ['version'],
      async check(ctx) {
        const x = await ctx.ledger.get('/v2/version');
        const body = ctx.accepted(x, 'a read of the version');
        if (!isObject(body) || typeof body.version !== 'string')
          ctx.expect(x).fail(`GET /v2/version answered ${x.status} without the version it is read for (no string \`version\`)`, '/version');
      },
    },
  ],
);
