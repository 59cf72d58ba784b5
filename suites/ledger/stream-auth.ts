// Credentials of the update stream: a read without them is refused, and a user may read only as the
// parties it has rights for. (That the refusals carry a JsCantonError is LEDGER-UPDATES-ERROR-BODY's rule.)
import type { Requirement } from '../model.ts';
import { openRead, readParties, streamRequirement, updateFormat } from './stream-client.ts';

const SECTION = 'A. Ledger interface > POST /v2/updates (Security); Authentication 3';

export const AUTH_REQUIREMENTS: Requirement[] = [
  streamRequirement({
    id: 'LEDGER-UPDATES-AUTH-REQUIRED',
    section: SECTION,
    sentence: 'Security: either bearer HTTP authentication or API-key authentication.',
    tags: ['auth'],
    async check(ctx) {
      const x = await openRead(ctx, updateFormat(readParties(ctx)), 1, 'none');
      ctx.expectStatus(x, 401, 'a read without credentials must be refused as unauthenticated');
    },
  }),
  streamRequirement({
    id: 'LEDGER-UPDATES-READ-RIGHTS',
    section: SECTION,
    sentence: 'Security: bearer HTTP or API-key authentication; the authenticated user reads only as parties it may read as.',
    needs: ['ledgerLimitedToken', 'ledgerForbiddenParty'],
    tags: ['auth'],
    async check(ctx) {
      const party = ctx.fixtures.ledgerForbiddenParty!;
      const x = await openRead(ctx, updateFormat([party], ['transactions']), 1, { bearer: ctx.fixtures.ledgerLimitedToken! });
      // Refusing as unauthenticated (401) or as forbidden (403) both keep the party's data private.
      ctx.expectStatus(x, [401, 403], `the limited user may not read as ${party}`);
    },
  }),
];
