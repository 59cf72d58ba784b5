// GET /v0/scan-proxy/dso-party-id carries no credentials in its shape, unlike the wallet endpoints, so it must
// answer without any. (That it answers {dso_party_id} at all is GENERIC-WALLET-GET-DSO-PARTY-ID-RESPONSES.)
import type { Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';
import { DSO_PARTY_ID, SECTION } from './support.ts';

export const DSO_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'WALLET-DSO-PARTY-ID-NO-AUTH',
    kind: 'rule',
    level: 'MUST',
    interface: 'wallet',
    operations: ['getDsoPartyId'],
    section: SECTION.auth,
    sentence: 'The `/v0/scan-proxy/dso-party-id` endpoint of the validator interface carries no authorization header in its shape.',
    mutates: false,
    needs: [],
    tags: ['scan-proxy', 'auth'],
    async check(ctx) {
      const x = await ctx.wallet.get(DSO_PARTY_ID, { auth: 'none' });
      ctx.expectStatus(x, 200, 'the endpoint takes no credentials');
      const body = ctx.json(x);
      if (typeof body?.dso_party_id !== 'string')
        ctx.fail('the answer without credentials has no string dso_party_id', { exchange: x, pointer: '/dso_party_id' });
    },
  },
]);
