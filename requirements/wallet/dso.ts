// GET /v0/scan-proxy/dso-party-id carries no credentials in its shape, unlike the wallet endpoints, so it must
// answer without any. (That it answers {dso_party_id} at all is GENERIC-WALLET-GET-DSO-PARTY-ID-RESPONSES.)
// Being a proxy of the network's scan, it names the DSO party that scan names.
import { parseJson } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { DSO_PARTY_ID } from '../../interfaces/wallet/support.ts';

export const DSO_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'wallet', operations: ['getDsoPartyId'] }, [
  {
    id: 'WALLET-DSO-PARTY-ID-NO-AUTH',
    cites: ['B.dso-party-id.1', 'B.dso-party-id.2', 'X.auth.4'],
    tags: ['scan-proxy', 'auth'],
    confirms: 'getDsoPartyId',
    async check(ctx) {
      const x = await ctx.wallet.get(DSO_PARTY_ID, { auth: 'none' });
      // Here a 401 or 403 is the rule broken, not credentials the run lacks.
      if (x.status === 401 || x.status === 403) ctx.expect(x).fail(`answered ${x.status} to a request without credentials; the endpoint takes none`);
      const body = ctx.accepted(x, 'the DSO party id, which takes no parameters, asked without credentials as its shape has none');
      if (typeof body?.dso_party_id !== 'string') ctx.expect(x).fail('the answer without credentials has no string dso_party_id', '/dso_party_id');
    },
  },
  {
    id: 'WALLET-DSO-PARTY-ID-IS-SCANS',
    cites: ['B.dso-party-id.1', 'B.dso-party-id.2'],
    tags: ['scan-proxy'],
    async check(ctx) {
      // The scan's own DSO party: GET /v0/dso, which real scans serve (it is no operation of the description).
      const dso = await ctx.scan.get('/v0/dso');
      const scans: unknown = dso.status === 200 ? parseJson(dso.text)?.dso_party_id : undefined;
      if (typeof scans !== 'string')
        return ctx.skip(`the scan's GET /v0/dso answered ${dso.status} without a string dso_party_id: no DSO party to compare with`, { exchange: dso });
      const x = await ctx.wallet.get(DSO_PARTY_ID);
      const proxied = ctx.expect(x).json()?.dso_party_id;
      if (typeof proxied !== 'string')
        return ctx.skip(`the scan proxy answered ${x.status} without a string dso_party_id (see WALLET-DSO-PARTY-ID-NO-AUTH)`, { exchange: x });
      if (proxied !== scans)
        ctx
          .expect(x)
          .fail(
            `the scan proxy names the DSO party ${proxied}, the scan names ${scans}: a proxy of the network's scan names the same DSO (unless the wallet and scan URLs given are of different networks)`,
            '/dso_party_id',
          );
    },
  },
]);
