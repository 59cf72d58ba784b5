// Who is calling: credentials come as `Authorization: Bearer <JWT>` (httpAuth) or as an API key in
// `Sec-WebSocket-Protocol` carrying `jwt.token.<JWT>` (apiKeyAuth, as the WebSocket variant sends it).
// The token's subject must be a ledger user of the world; its read rights decide which parties it may read.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { bearer, claimsWithoutVerifying, isFailure } from '../auth.ts';
import type { NodeContext } from '../context.ts';
import { LedgerHttpError } from './errors.ts';

export type Caller = { kind: 'anonymous' } | { kind: 'user'; user: string; readAs: readonly string[] | 'any'; actAs: readonly string[] };

const API_KEY_PREFIX = 'jwt.token.';

/** The token a request carries: undefined when it carries none, '' when the Authorization header is malformed. */
export function presentedToken(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) return bearer(authorization) ?? '';
  const protocols = headers['sec-websocket-protocol'];
  const items = (Array.isArray(protocols) ? protocols.join(',') : (protocols ?? '')).split(',').map((s) => s.trim());
  const key = items.find((s) => s.startsWith(API_KEY_PREFIX));
  return key === undefined ? undefined : key.slice(API_KEY_PREFIX.length);
}

/**
 * Identifies the caller. Missing credentials are an error only when `required`; credentials that are
 * present but invalid are always 401, and a valid token of an unknown user is 403.
 */
export async function identify(ctx: NodeContext, req: FastifyRequest, required: boolean): Promise<Caller> {
  return callerOfToken(ctx, presentedToken(req.headers), required, ctx.faults.has('ledger-token-signature-unchecked'));
}

/** identify() for a token already taken from a request; `signatureUnchecked`: its signature and expiry are not checked (a fault). */
export async function callerOfToken(ctx: NodeContext, token: string | undefined, required: boolean, signatureUnchecked = false): Promise<Caller> {
  if (token === undefined && !required) return { kind: 'anonymous' };
  let verified = await ctx.auth.verify(token === '' ? 'malformed' : token);
  if (isFailure(verified) && signatureUnchecked) verified = claimsWithoutVerifying(token) ?? verified;
  if (isFailure(verified)) throw new LedgerHttpError(401, 'unauthenticated', `The request could not be authenticated: ${verified.reason}.`);
  const user = ctx.world.ledgerUsers.get(verified.subject);
  if (!user) throw new LedgerHttpError(403, 'permissionDenied', `The token's user '${verified.subject}' is not a user of this participant.`);
  return { kind: 'user', user: verified.subject, readAs: user.readAs, actAs: user.actAs };
}

/** Throws 403 unless the caller may read as every listed party (and as any party, when asked). */
export function requireReadRights(caller: Caller, parties: Iterable<string>, anyParty: boolean): void {
  if (caller.kind === 'anonymous' || caller.readAs === 'any') return;
  if (anyParty)
    throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' may not read as any party (filtersForAnyParty or all-party topology events).`);
  const allowed = new Set(caller.readAs);
  const denied = [...parties].filter((p) => !allowed.has(p));
  if (denied.length > 0) throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' may not read as ${denied.join(', ')}.`);
}

/** Throws 403 unless the caller may act as every listed party (reading as any party gives no right to act). */
export function requireActRights(caller: Caller, parties: Iterable<string>): void {
  if (caller.kind === 'anonymous') return;
  const allowed = new Set(caller.actAs);
  const denied = [...new Set(parties)].filter((p) => !allowed.has(p));
  if (denied.length > 0) throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' may not act as ${denied.join(', ')}.`);
}

/**
 * Throws 403 unless the caller administers the participant (package uploads and vetting changes are the
 * participant administrator's): in this world, the user who may read as any party.
 */
export function requireAdmin(caller: Caller, what: string): void {
  if (caller.kind === 'user' && caller.readAs !== 'any')
    throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' is no participant administrator and may not ${what}.`);
}
