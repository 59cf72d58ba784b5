// GET /v2/parties/participant-id: the participant's id. GET /v2/parties: every party the participant knows (the whole network's), local ones marked, in party id
// order, paged. A page token names the last party of the previous page, so the next page starts after it. Only
// the participant administrator may list parties.
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { authenticated, queryParameter, UndecodableQuery } from './authenticated-route.ts';
import { LedgerHttpError } from './errors.ts';
import { hostedParties } from './projection.ts';

/** The largest page the participant serves (its version features announce it). */
export const MAX_PARTIES_PAGE_SIZE = 10_000;

const INT32 = /^-?\d{1,10}$/;

export function partyRoutes(app: FastifyInstance, ctx: NodeContext): void {
  // The participant's own id (what its vetting entries name), for any authenticated user.
  app.get(
    '/parties/participant-id',
    authenticated(ctx, () => ({ participantId: ctx.world.ledgerParticipant.id })),
  );
  app.get(
    '/parties',
    authenticated(ctx, (req, caller) => {
      const sizeText = queryParameter(req, 'pageSize');
      if (sizeText !== undefined && (!INT32.test(sizeText) || Math.abs(Number(sizeText)) >= 2 ** 31)) throw new UndecodableQuery('pageSize');
      if (caller.readAs !== 'any') throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' may not list the participant's parties.`);
      const size = Number(sizeText ?? 0);
      if (size < 0 || size > MAX_PARTIES_PAGE_SIZE)
        throw new LedgerHttpError(400, 'invalidArgument', `pageSize must be between 0 and ${MAX_PARTIES_PAGE_SIZE}, got ${size}.`);
      const after = pageStart(queryParameter(req, 'pageToken') ?? '');
      const prefix = queryParameter(req, 'filter-party') ?? '';
      const local = new Set(hostedParties(ctx));
      const matching = ctx.world.parties
        .map((p) => p.id)
        .filter((id) => id > after && id.startsWith(prefix))
        .sort();
      const page = matching.slice(0, size === 0 ? MAX_PARTIES_PAGE_SIZE : size);
      const more = page.length < matching.length;
      return {
        partyDetails: page.map((party) => details(party, local.has(party))),
        nextPageToken: more ? Buffer.from(page.at(-1)!).toString('base64url') : '',
      };
    }),
  );
}

/** The party id a page token continues after ('' from the start); a token this node did not issue is refused. */
function pageStart(token: string): string {
  const after = Buffer.from(token, 'base64url').toString();
  if (Buffer.from(after).toString('base64url') !== token) throw new LedgerHttpError(400, 'invalidArgument', `Invalid page token '${token}'.`);
  return after;
}

function details(party: string, isLocal: boolean): JsonObject {
  return { party, isLocal, localMetadata: { resourceVersion: isLocal ? '0' : '', annotations: {} }, identityProviderId: '' };
}
