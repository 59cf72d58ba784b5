// Credentials of the update stream: a read without them is refused, and a user may read only as the
// parties it has rights for. (That the refusals carry a JsCantonError is LEDGER-UPDATES-ERROR-BODY's rule.)
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { forgedSignature } from '../../../interfaces/ledger/forged-token.ts';
import { LEDGER_EFFECTS, anyPartyFormat, limitedAuth, OPERATION, openRead, readParties, updateFormat } from '../../../interfaces/ledger/updates.ts';

export const AUTH_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [OPERATION] }, [
  rule({
    id: 'LEDGER-UPDATES-AUTH-REQUIRED',
    cites: ['A.updates.11', 'X.auth.5'],
    needs: ['ledgerParties'],
    tags: ['auth'],
    // Authentication is of the request's token, judged before its format is read.
    variants: {
      'transaction-shape':
        'a read without verified credentials is refused as unauthenticated whatever it asks for; the shape selects events of an accepted read',
      parties: 'a read without verified credentials is refused as unauthenticated whoever it reads as (whose rights suffice is LEDGER-UPDATES-READ-RIGHTS)',
      cumulative: 'a read without verified credentials is refused as unauthenticated; the filter entries select events of an accepted read',
    },
    async check(ctx) {
      const format = updateFormat(readParties(ctx));
      const x = await openRead(ctx, format, 1, 'none');
      ctx.expect(x, 'a read without credentials must be refused as unauthenticated').status(401);
      // A token is authentication only when its signature is verified.
      const forged = forgedSignature(ctx.ledger.config.credentials.bearer);
      if (forged)
        ctx
          .expect(
            await openRead(ctx, format, 1, { bearer: forged }),
            'a read with the configured token under a forged signature must be refused as unauthenticated',
          )
          .status(401);
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-READ-RIGHTS',
    cites: ['A.updates.11', 'X.auth.5'],
    needs: ['ledgerLimitedToken', 'ledgerForbiddenParty'],
    tags: ['auth'],
    variants: { cumulative: 'who may read is decided by the parties read as, not by the filter entries selecting their events' },
    async check(ctx) {
      const party = ctx.fixtures.ledgerForbiddenParty;
      const x = await openRead(ctx, updateFormat([party], ['transactions']), 1, limitedAuth(ctx));
      // Refusing as unauthenticated (401) or as forbidden (403) both keep the party's data private.
      ctx.expect(x, `the limited user may not read as ${party}`).status([401, 403]);
      // Next to other parties, in the other shape: one party the user may not read as refuses the read.
      const others = readParties(ctx)
        .filter((p) => p !== party)
        .slice(0, 1);
      if (others.length)
        ctx
          .expect(
            await openRead(ctx, updateFormat([...others, party], ['transactions'], LEDGER_EFFECTS), 1, limitedAuth(ctx)),
            `the limited user may not read as ${party}, even next to ${others[0]}`,
          )
          .status([401, 403]);
      // Reading for any party reads as every party, the forbidden one included.
      ctx.expect(await openRead(ctx, anyPartyFormat(), 1, limitedAuth(ctx)), 'the limited user may not read with filtersForAnyParty').status([401, 403]);
    },
  }),
]);
