// The WebSocket channels of the ledger's release line (facts: websocket-stream): each a WebSocket upgrade of GET
// on the path of its HTTP endpoint. Line 3.5 has the command-completions channel; 3.4 the deprecated flats and trees.
import type { NodeContext } from '../../context.ts';
import type { Caller } from '../callers.ts';
import { serveActiveContracts } from './active-contracts.ts';
import type { Channel } from './channel.ts';
import { serveCompletions } from './completions.ts';
import { serveUpdates } from './updates.ts';

/** Serves one channel once its request came; throws what the HTTP endpoint would answer as an error. */
export type ChannelHandler = (ctx: NodeContext, channel: Channel, caller: Caller, body: unknown) => Promise<void>;

export function channelHandlers(ctx: NodeContext): ReadonlyMap<string, ChannelHandler> {
  const handlers = new Map<string, ChannelHandler>([
    ['/v2/updates', (c, ch, caller, body) => serveUpdates(c, ch, caller, body, 'updates')],
    ['/v2/commands/completions', (c, ch, caller, body) => serveCompletions(c, ch, caller, body, false)],
    ['/v2/state/active-contracts', serveActiveContracts],
  ]);
  if (ctx.release.ledger === '3.4') {
    handlers.set('/v2/updates/flats', (c, ch, caller, body) => serveUpdates(c, ch, caller, body, 'updates'));
    handlers.set('/v2/updates/trees', (c, ch, caller, body) => serveUpdates(c, ch, caller, body, 'trees'));
  } else {
    handlers.set('/v2/commands/command-completions', (c, ch, caller, body) => serveCompletions(c, ch, caller, body, true));
  }
  return handlers;
}
