// GET /v2/authenticated-user and GET /v2/users/{user-id}/rights: who a token is and what it may do. A user may
// read its own rights; only the participant administrator reads another user's (and learns when there is none).
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { LedgerUser } from '../world/model.ts';
import { authenticated } from './authenticated-route.ts';
import { LedgerHttpError } from './errors.ts';

/** The user ids the ledger accepts: 1 to 128 of these characters. */
// The backquote and the apostrophe are written as escapes, so that tools reading the file see no open string.
const USER_ID = /^[a-zA-Z0-9@^$.!\x60\-#+\x27~_|:()]{1,128}$/;

export function userRoutes(app: FastifyInstance, ctx: NodeContext): void {
  const users = ctx.world.ledgerUsers;
  app.get(
    '/authenticated-user',
    authenticated(ctx, (_req, caller) => ({ user: userRecord(caller.user, users.get(caller.user)!) })),
  );
  app.get(
    '/users/:userId/rights',
    authenticated(ctx, (req, caller) => {
      const id = (req.params as { userId: string }).userId;
      if (id !== caller.user && caller.readAs !== 'any')
        throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' may read only its own rights, not those of '${id}'.`);
      if (!USER_ID.test(id)) throw new LedgerHttpError(400, 'invalidArgument', `Invalid user id '${id}'.`);
      const user = users.get(id);
      if (!user) throw new LedgerHttpError(404, 'notFound', `User '${id}' does not exist.`, 'USER_NOT_FOUND');
      return { rights: rights(user) };
    }),
  );
}

/** The official User record; unset optional values as the ledger writes them (empty strings). */
function userRecord(id: string, u: LedgerUser): JsonObject {
  return { id, primaryParty: u.primaryParty ?? '', isDeactivated: false, metadata: { resourceVersion: '0', annotations: {} }, identityProviderId: '' };
}

/** The administrator (reads as any party) administers the participant; every other user acts and reads as its parties. */
function rights(u: LedgerUser): JsonObject[] {
  const kind = (name: string, value: JsonObject = {}) => ({ kind: { [name]: { value } } });
  if (u.readAs === 'any') return [kind('ParticipantAdmin'), kind('CanReadAsAnyParty')];
  return [...u.actAs.map((party) => kind('CanActAs', { party })), ...u.readAs.map((party) => kind('CanReadAs', { party }))];
}
