// What the channel says to a request it will not serve: a bad request gets an error message (a JsCantonError,
// the channel's error form) and a refused token a refused upgrade or an error message; never a silent close,
// never an update. A node that closes with an error code and a reason has said why too: that is accepted.
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { AUTH_SUBPROTOCOL, describeChannel, parsed, summariseChannel, type ChannelExchange, type ChannelOptions } from '../../../engine/transport/websocket.ts';
import { forgedSignature } from '../../../interfaces/ledger/forged-token.ts';
import { channelError, UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import { body, readParties, updateFormat } from '../../../interfaces/ledger/updates.ts';

/** Close codes that say the node ended the stream for a reason of its own (policy, bad data, an error). */
const isErrorClose = (x: ChannelExchange) => !!x.close && x.close.by === 'node' && x.close.code !== 1000 && x.close.code !== 1005 && x.close.reason !== '';

/**
 * Fails unless the node refused what it was sent: an error message and no update, or a close with an error
 * code and a reason; a refused upgrade too where `upgradeMayRefuse` (credentials are read at the upgrade,
 * a request only after it).
 */
function expectRefused(ctx: CheckContext, x: ChannelExchange, what: string, upgradeMayRefuse: boolean): void {
  const cite = summariseChannel(x);
  if (x.upgrade) {
    if (upgradeMayRefuse && x.upgrade.status >= 400 && x.upgrade.status < 500) return;
    ctx.fail(`${what}: the upgrade was answered ${x.upgrade.status}, not a refusal of the request (an error message, or a 4xx refusal of the upgrade)`, {
      exchange: cite,
    });
  }
  const values = x.messages.map(parsed);
  const element = values.findIndex((v) => v !== undefined && channelError(v) === undefined);
  if (element >= 0) ctx.fail(`${what}: the channel sent an element (message ${element}) instead of refusing`, { exchange: cite, pointer: `/${element}` });
  if (values.some((v) => channelError(v) !== undefined) || isErrorClose(x)) return;
  if (x.end === 'failed' && x.errorCode === 'IDLE') ctx.fail(`${what}: the channel neither answered nor closed (${describeChannel(x)})`, { exchange: cite });
  ctx.fail(`${what}: the channel ended without saying why (${describeChannel(x)}): no error message, no error close`, { exchange: cite });
}

export const REFUSAL_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [] }, [
  rule({
    id: 'LEDGER-WEBSOCKET-BAD-REQUEST',
    cites: ['X.errors.3', 'R.ledger.8'],
    needs: ['ledgerParties'],
    tags: ['websocket', 'errors'],
    channels: [UPDATES_CHANNEL],
    async check(ctx) {
      const format = updateFormat(readParties(ctx));
      const bad: Array<{ what: string; options: ChannelOptions }> = [
        { what: 'a request that is not JSON', options: { rawRequest: '{"beginExclusive": 0, "updateFormat": ' } },
        { what: 'a request whose beginExclusive is a string', options: { request: body({ beginExclusive: 'zero' as unknown as number }, format) } },
        // The description's own bad request (R.ledger.8): descending order needs an end.
        { what: 'a request for descending order without endInclusive', options: { request: body({ beginExclusive: 0 }, format, { descendingOrder: true }) } },
      ];
      // Bounded by the client: one message says whether the node refused or served.
      for (const b of bad)
        expectRefused(ctx, await ctx.ledger.channel(UPDATES_CHANNEL, { ...b.options, stopAfter: 1 }), `${UPDATES_CHANNEL} was sent ${b.what}`, false);
    },
  }),
  rule({
    id: 'LEDGER-WEBSOCKET-REFUSED-TOKEN',
    cites: ['A.updates.11', 'X.auth.5'],
    needs: ['ledgerParties'],
    tags: ['websocket', 'auth'],
    channels: [UPDATES_CHANNEL],
    async check(ctx) {
      const request = body({ beginExclusive: 0 }, updateFormat(readParties(ctx)));
      // Bounded by the client: a node that serves the read anyway shows it in its first element.
      const read = (auth: ChannelOptions) => ctx.ledger.channel(UPDATES_CHANNEL, { request, stopAfter: 1, ...auth });
      expectRefused(ctx, await read({ auth: 'none' }), `${UPDATES_CHANNEL} was opened without a token (subprotocol ${AUTH_SUBPROTOCOL} only)`, true);
      const forged = forgedSignature(ctx.ledger.config.credentials.bearer);
      if (forged)
        expectRefused(ctx, await read({ auth: { bearer: forged } }), `${UPDATES_CHANNEL} was opened with the configured token under a forged signature`, true);
    },
  }),
]);
