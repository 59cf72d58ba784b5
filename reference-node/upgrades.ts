// The node's HTTP upgrades: a WebSocket one goes to the ledger's channels (ledger/channels/upgrade.ts). Any other
// (curl --http2 asks for h2c) the node ignores, as an HTTP/1.1 server without upgrades does: the request is
// answered as a plain one, through the same routes, and the connection closed. Node's HTTP server hands every
// upgrade to a listener once there is one, so this listener must answer those too.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Hop-by-hop fields of the upgrade request that the plain request does not carry. */
const UPGRADE_FIELDS = ['upgrade', 'connection', 'http2-settings'];

export function handleUpgrades(app: FastifyInstance, webSocket: UpgradeHandler, bodyLimit: number): void {
  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    if (req.headers.upgrade?.toLowerCase() === 'websocket') return webSocket(req, socket, head);
    void answerPlainly(app, req, socket, head, bodyLimit).catch(() => socket.destroy());
  });
}

async function answerPlainly(app: FastifyInstance, req: IncomingMessage, socket: Duplex, head: Buffer, bodyLimit: number): Promise<void> {
  // The body's bytes follow the head on the socket, which no HTTP parser reads any more.
  const length = Math.min(Number(req.headers['content-length'] ?? 0) || 0, bodyLimit);
  const chunks = head.length < length ? [head, ...(await bodyRest(socket, length - head.length))] : [head];
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !UPGRADE_FIELDS.includes(k)));
  const res = await app.inject({ method: req.method as 'GET', url: req.url ?? '/', headers, payload: Buffer.concat(chunks).subarray(0, length) });
  const fields = Object.entries(res.headers)
    .filter(([k, v]) => v !== undefined && !['content-length', 'transfer-encoding', 'connection'].includes(k))
    .flatMap(([k, v]) => [v].flat().map((x) => `${k}: ${x}`));
  socket.end(
    Buffer.concat([
      Buffer.from(
        [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`, ...fields, `content-length: ${res.rawPayload.length}`, 'connection: close', '', ''].join('\r\n'),
      ),
      res.rawPayload,
    ]),
  );
}

/** The next `length` bytes (or fewer, when the client ends first) of a socket nothing else reads. */
function bodyRest(socket: Duplex, length: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let read = 0;
    const done = () => {
      socket.off('data', onData);
      socket.pause();
      resolve(chunks);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      read += chunk.length;
      if (read >= length) done();
    };
    socket.on('data', onData);
    socket.once('end', done);
    socket.once('error', reject);
  });
}
