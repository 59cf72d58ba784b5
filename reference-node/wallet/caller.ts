// Who is calling a wallet endpoint: the bearer JWT's subject must be a ledger user that owns a wallet.
// The description names no status for rejected credentials; 401 (no or bad token) and 403 (a valid token
// of a user without a wallet) are the usual HTTP answers and are used consistently.
import type { FastifyRequest } from 'fastify';
import { bearer, claimsWithoutVerifying, isFailure } from '../auth.ts';
import type { NodeContext } from '../context.ts';
import { WalletError } from './errors.ts';

export interface WalletCaller {
  /** Ledger user id (the JWT subject). */
  user: string;
  /** The wallet's party. */
  party: string;
}

export async function walletCaller(ctx: NodeContext, request: FastifyRequest): Promise<WalletCaller> {
  const token = bearer(request.headers.authorization);
  const statusLookup = request.routeOptions.url?.endsWith('/status') ?? false;
  if (token === undefined && (ctx.faults.has('wallet-no-auth-required') || (statusLookup && ctx.faults.has('wallet-status-lookup-no-auth')))) {
    const [user, party] = [...ctx.world.walletUsers][0]!;
    return { user, party };
  }
  let verified = await ctx.auth.verify(token);
  if (isFailure(verified) && ctx.faults.has('wallet-token-signature-unchecked')) verified = claimsWithoutVerifying(token) ?? verified;
  if (isFailure(verified)) throw new WalletError(verified.status, `Unauthorized: ${verified.reason}`);
  const party = ctx.world.walletUsers.get(verified.subject);
  if (party === undefined) throw new WalletError(403, `Forbidden: user ${verified.subject} has no wallet on this validator`);
  return { user: verified.subject, party };
}
