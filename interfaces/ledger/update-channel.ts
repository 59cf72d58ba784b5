// Reading the update stream over the ledger's WebSocket channel (facts: the WebSocket stream): the same request
// record as the HTTP body, sent as the first message; one element per message. A read the rules take their
// elements from must have been delivered whole: the upgrade accepted, every message a JSON element and none an
// error, and the stream ended by the node's normal close (a bounded read) or by the client's own choice (a
// sample of an open-ended one). Anything else is the node's failure, cited with the channel's evidence.
import { isObject, parseJson, type Json } from '../../common/json.ts';
import type { CheckContext } from '../../engine/model.ts';
import { CheckSkipped, CheckUnsupported } from '../../engine/model.ts';
import { type ChannelExchange, type ChannelOptions, describeChannel, parsed, summariseChannel } from '../../engine/transport/websocket.ts';
import type { WebSocketExchangeSummary } from '../../engine/transport/evidence.ts';

export const UPDATES_CHANNEL = '/v2/updates';
/** How long a sample of an open-ended stream waits for a next element before it counts the stream caught up. */
export const CHANNEL_SAMPLE_IDLE_MS = 1_000;

/** Upgrade refusals that say the channel is not served at all. */
const NOT_SERVED = new Set([404, 405, 426, 501]);

/** A JsCantonError sent as a message (the channels' error form): its code and cause. */
export function channelError(m: unknown): { code: string; cause: string } | undefined {
  return isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string' && !('update' in m) ? { code: m.code, cause: m.cause } : undefined;
}

/** An error message whose code says the credentials may not read this (the run's token lacks a right). */
export const refusedRight = (e: { code: string } | undefined) => !!e && /PERMISSION_DENIED|UNAUTHENTICATED/.test(e.code);

export class ChannelRefusal extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/**
 * The elements of a stream that must have been delivered whole. `how`: 'bounded' when the node must end it
 * (endInclusive set), 'sample' when the client stopped it. A refused upgrade of a channel not served makes the
 * check unsupported; a 401 or 403 skips it (the run's credentials, not the rule); any other refusal, a stream
 * cut short, a message that is no JSON or an error message fails it.
 */
export function channelElements(ctx: CheckContext, x: ChannelExchange, how: 'bounded' | 'sample'): { els: Json[]; cite: WebSocketExchangeSummary } {
  const cite = summariseChannel(x);
  const what = `the WebSocket stream ${x.path}`;
  if (x.upgrade) {
    const status = x.upgrade.status;
    if (NOT_SERVED.has(status)) throw new CheckUnsupported(`${what} is not served: ${describeChannel(x)}`, { exchange: cite });
    if (status === 401 || status === 403)
      throw new CheckSkipped(`${what} refused the run's credentials (${status}): the rule cannot be judged with them`, { status, exchange: cite });
    ctx.fail(`${what} refused the upgrade of a valid request: ${describeChannel(x)}`, { exchange: cite });
  }
  if (x.end === 'failed') ctx.fail(`${what} did not deliver the read: ${describeChannel(x)}`, { exchange: cite });
  const els: Json[] = [];
  x.messages.forEach((m, i) => {
    const value = parsed(m);
    if (value === undefined) ctx.fail(`message ${i} of ${what} is not JSON text`, { exchange: cite, pointer: `/${i}` });
    const error = channelError(value);
    if (error) {
      if (refusedRight(error)) throw new ChannelRefusal(`${what} refused the run's credentials: ${error.code} ${error.cause}`, error.code);
      ctx.fail(`${what} answered a valid request with an error message: ${error.code}: ${error.cause}`, { exchange: cite, pointer: `/${i}` });
    }
    els.push(value as Json);
  });
  if (how === 'bounded' && x.close && x.close.by === 'node' && x.close.code !== 1000)
    ctx.fail(`${what} ended a bounded read with close code ${x.close.code}${x.close.reason ? ` (${x.close.reason})` : ''}, not a normal close (1000)`, {
      exchange: cite,
    });
  if (how === 'bounded' && x.end === 'stopped') ctx.fail(`${what} did not end a bounded read: it was still open when the client stopped`, { exchange: cite });
  return { els, cite };
}

/** The HTTP status a channel's error message stands for, by its code (what a rule of statuses judges). */
const STATUS_OF_CODE: Readonly<Record<string, number>> = { INVALID_ARGUMENT: 400, UNAUTHENTICATED: 401, PERMISSION_DENIED: 403, NOT_FOUND: 404 };
export const statusOfError = (code: string) => STATUS_OF_CODE[code] ?? 500;

/**
 * A request's answer over the channel as a rule of statuses reads it: a refused upgrade its status, an error
 * message the status its code stands for (500 for another code), a stream delivered whole 200 with its elements.
 */
export async function channelAnswer(ctx: CheckContext, request: Json): Promise<{ status: number; x: WebSocketExchangeSummary; els?: Json[]; said: string }> {
  const x = await ctx.ledger.channel(UPDATES_CHANNEL, { request });
  const cite = summariseChannel(x);
  if (x.upgrade) return { status: x.upgrade.status, x: cite, said: describeChannel(x) };
  const error = x.messages.map((m) => channelError(parsed(m))).find((e) => e !== undefined);
  if (error) return { status: statusOfError(error.code), x: cite, said: `an error message ${error.code}: ${error.cause}` };
  return { status: 200, x: cite, els: channelElements(ctx, x, 'bounded').els, said: describeChannel(x) };
}

/** Reads a request over the update channel (see channelElements); a refusal of the credentials skips the check. */
export async function channelRead(ctx: CheckContext, request: Json, how: 'bounded' | 'sample', options: ChannelOptions = {}) {
  const x = await ctx.ledger.channel(UPDATES_CHANNEL, { ...options, request });
  try {
    return channelElements(ctx, x, how);
  } catch (e) {
    if (e instanceof ChannelRefusal) throw new CheckSkipped(e.message, { status: 403, exchange: summariseChannel(x) });
    throw e;
  }
}

/** The ledger end (GET /v2/state/ledger-end, which real nodes serve; no operation of the description), or undefined. */
async function ledgerEndOffset(ctx: CheckContext): Promise<number | undefined> {
  const x = await ctx.ledger.get('/v2/state/ledger-end');
  const offset = x.status === 200 ? (parseJson(x.text) as Json)?.offset : undefined;
  return Number.isSafeInteger(offset) && (offset as number) >= 0 ? (offset as number) : undefined;
}

/**
 * The first `size` elements of the stream for a request (its window from beginExclusive), over the channel:
 * bounded by the ledger end where the node states it, so that a shorter stream ends with the node's close at
 * once; else open-ended, until the stream is idle.
 */
export async function channelSample(ctx: CheckContext, request: Json, size: number) {
  const end = await ledgerEndOffset(ctx);
  const bounded = end === undefined ? request : { ...request, endInclusive: end };
  return channelRead(ctx, bounded, 'sample', { stopAfter: size, idleMs: CHANNEL_SAMPLE_IDLE_MS });
}
