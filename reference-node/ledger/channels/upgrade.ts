// The ledger's WebSocket channels on the node's own port: the HTTP server's WebSocket upgrades (upgrades.ts) go
// to a WebSocketServer without a server of its own. The token travels in the subprotocols (`jwt.token.<JWT>,
// daml.ws.auth`, as the official client sends it), or as a bearer header; the node accepts with `daml.ws.auth`.
// Refused before the upgrade, as plain HTTP answers: a path that is no channel (404), a connection without any
// token (401), one beyond the channels the node serves at once (503). Everything else is answered on the channel
// (serve.ts).
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer } from 'ws';
import type { BlindFaults } from '../../blind/hook.ts';
import type { NodeContext } from '../../context.ts';
import type { UpgradeHandler } from '../../upgrades.ts';
import { presentedToken } from '../callers.ts';
import { cantonErrorBody } from '../errors.ts';
import { offsetShift } from '../offset-shift.ts';
import { Channel } from './channel.ts';
import { channelHandlers } from './paths.ts';
import { serveChannel } from './serve.ts';

/** The subprotocol of the ledger's channels, which a node accepts the connection with. */
const AUTH_PROTOCOL = 'daml.ws.auth';
/** The largest message a client may send (a request is a few kilobytes). */
const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** Channels served at once. */
const MAX_CHANNELS = 64;
/** What the HTTP layer answers for a path nothing serves (as server.ts's not-found handler). */
const NOT_FOUND = 'The requested resource could not be found.';

/** The handler of the node's WebSocket upgrades; the node's close closes its channels first. */
export function ledgerChannels(app: FastifyInstance, ctx: NodeContext, blind: BlindFaults): UpgradeHandler {
  const handlers = channelHandlers(ctx);
  const shift = offsetShift(ctx.settings.offsetShift);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD_BYTES,
    clientTracking: false,
    handleProtocols: (protocols) => (protocols.has(AUTH_PROTOCOL) ? AUTH_PROTOCOL : false),
  });
  const open = new Set<Channel>();
  let opened = 0;

  // Before the HTTP server closes (it waits for every connection, an upgraded one too).
  app.addHook('preClose', async () => {
    await Promise.all([...open].map((c) => c.shutdown()));
    wss.close();
  });

  return (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://node').pathname;
    const handler = handlers.get(path);
    if (!handler || req.method !== 'GET') return refuse(socket, 404, 'text/plain; charset=UTF-8', NOT_FOUND);
    if (open.size >= MAX_CHANNELS) {
      const body = cantonErrorBody(ctx, 'internal', `The participant serves at most ${MAX_CHANNELS} WebSocket channels at once.`, 'TOO_MANY_CHANNELS');
      return refuse(socket, 503, 'application/json', JSON.stringify(body));
    }
    const token = presentedToken(req.headers);
    // ledger-ws-token-unchecked: a connection without a token is let in too.
    if (token === undefined && !ctx.faults.has('ledger-ws-token-unchecked')) {
      const body = cantonErrorBody(ctx, 'unauthenticated', 'The request could not be authenticated: missing credentials.');
      return refuse(socket, 401, 'application/json', JSON.stringify(body));
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const channel = new Channel(ws, {
        id: ++opened,
        path,
        headers: req.headers,
        blind,
        shift,
        closeIgnored: ctx.faults.has('ledger-ws-close-ignored'),
      });
      open.add(channel);
      void channel.gone.then(() => open.delete(channel));
      void serveChannel(ctx, channel, token, handler).catch(() => channel.shutdown());
    });
  };
}

/** A plain HTTP answer on a connection that asked for an upgrade, which then closes. */
function refuse(socket: Duplex, status: number, contentType: string, body: string): void {
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      `Content-Type: ${contentType}`,
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
