// One channel from its request to its close. Checks in the HTTP endpoints' order: credentials (UNAUTHENTICATED,
// or PERMISSION_DENIED for a user the participant does not know), the request (INVALID_ARGUMENT, where HTTP
// answers 400), the read rights (PERMISSION_DENIED); a failed check is one JsCantonError message, then a close.
import type { NodeContext } from '../../context.ts';
import { claimsWithoutVerifying } from '../../auth.ts';
import { type Caller, callerOfToken } from '../callers.ts';
import { cantonErrorBody, type ErrorKind, LedgerHttpError } from '../errors.ts';
import { InvalidStreamRequest } from '../stream-request.ts';
import type { Channel } from './channel.ts';
import type { ChannelHandler } from './paths.ts';

/** How long a channel waits for its request. */
export const REQUEST_WAIT_MS = 30_000;
/** Close codes: a normal close; the node failed (1011); no request came (1008, a policy violation). */
const NORMAL = 1000;
const INTERNAL = 1011;
const NO_REQUEST = 1008;

export async function serveChannel(ctx: NodeContext, channel: Channel, token: string | undefined, handler: ChannelHandler): Promise<void> {
  const request = await channel.request(REQUEST_WAIT_MS);
  if (!request) return channel.close(NO_REQUEST, 'no request came');
  try {
    const caller = await channelCaller(ctx, token);
    if ('error' in request) throw new InvalidStreamRequest(`Invalid value for: body (${request.error})`);
    await handler(ctx, channel, caller, request.json);
  } catch (e) {
    if (e instanceof InvalidStreamRequest) return refuse(ctx, channel, 'invalidArgument', e.message);
    if (e instanceof LedgerHttpError) return refuse(ctx, channel, e.kind, e.message, e.codeOverride);
    await channel.send(cantonErrorBody(ctx, 'internal', 'The request could not be processed because of an internal error.'));
    return channel.close(INTERNAL, 'internal error');
  }
}

async function refuse(ctx: NodeContext, channel: Channel, kind: ErrorKind, cause: string, code?: string): Promise<void> {
  // ledger-ws-bad-request-silent-close: a bad request closes the channel without telling why.
  if (kind === 'invalidArgument' && ctx.faults.has('ledger-ws-bad-request-silent-close')) return channel.close(NORMAL);
  const body = cantonErrorBody(ctx, kind, cause, code);
  await channel.send(body);
  return channel.close(NORMAL, String(body.code));
}

/** The caller a token names, checked as the HTTP endpoints check it (a missing one never gets this far). */
async function channelCaller(ctx: NodeContext, token: string | undefined): Promise<Caller> {
  // ledger-ws-token-unchecked: no token, or a bad one, is served like a valid one: the user it names, if any.
  if (ctx.faults.has('ledger-ws-token-unchecked')) {
    const subject = claimsWithoutVerifying(token)?.subject;
    const user = subject === undefined ? undefined : ctx.world.ledgerUsers.get(subject);
    return user && subject ? { kind: 'user', user: subject, readAs: user.readAs, actAs: user.actAs } : { kind: 'anonymous' };
  }
  return callerOfToken(ctx, token, true);
}
