// The WebSocket channel reader against small servers of the test's own: the token in the subprotocols, the
// request as the first message, and every way a stream can end (the node's close, the client's own stop, a
// refused upgrade) or go wrong (silence, a stream that never ends, a flood, garbage, no connection), each
// ending in a result with its reason within its bound, and evidence that never shows the token.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { createServer, type Server } from 'node:http';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { AUTH_SUBPROTOCOL, parsed, summariseChannel } from '../../engine/transport/websocket.ts';

const TOKEN = 'header.payload.signature-that-is-secret';

/** What the server does with each connection, by path. */
const behaviours: Record<string, (ws: WebSocket, request: string) => void> = {
  '/three': (ws) => {
    for (let i = 1; i <= 3; i++) ws.send(JSON.stringify({ update: { OffsetCheckpoint: { value: { offset: i } } } }));
    ws.close(1000);
  },
  '/echo': (ws, request) => {
    ws.send(request);
    ws.close(1000);
  },
  '/silent': () => {},
  '/endless': (ws) => {
    const timer = setInterval(() => ws.send('{"update":{}}'), 10);
    ws.on('close', () => clearInterval(timer));
  },
  '/flood': (ws) => {
    const chunk = 'x'.repeat(4096);
    const pump = () => {
      if (ws.readyState !== ws.OPEN) return;
      for (let i = 0; i < 16; i++) ws.send(JSON.stringify({ chunk }));
      setImmediate(pump);
    };
    pump();
  },
  '/garbage': (ws) => {
    ws.send('not json at all');
    ws.send(Buffer.from([0, 159, 146, 150]), { binary: true });
    ws.close(1000);
  },
  '/forever-open': (ws) => {
    ws.send('{"n":1}');
    ws.send('{"n":2}');
    ws.send('{"n":3}');
  },
  '/drop': (ws) => {
    ws.send('{"n":1}');
    setTimeout(() => ws.terminate(), 20);
  },
};

let server: Server;
let origin: string;
const seen: Array<{ protocols: string | undefined }> = [];

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => (p.has(AUTH_SUBPROTOCOL) ? AUTH_SUBPROTOCOL : false) });
  server.on('upgrade', (req, socket, head) => {
    seen.push({ protocols: req.headers['sec-websocket-protocol'] });
    const path = req.url ?? '';
    if (path === '/refused') {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"code":"UNAUTHENTICATED","cause":"no token"}');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => ws.once('message', (data) => behaviours[path]?.(ws, String(data))));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (over: { timeoutMs?: number; maxBodyBytes?: number; origin?: string } = {}) =>
  new Client({
    origin: over.origin ?? origin,
    prefix: '',
    credentials: { bearer: TOKEN },
    credentialVariables: { bearer: 'CN_CONFORMANCE_LEDGER_TOKEN' },
    timeoutMs: over.timeoutMs ?? 2_000,
    maxBodyBytes: over.maxBodyBytes ?? 1024 * 1024,
    limits: new RunLimits({ maxRequests: 100 }),
  });

describe('a channel read', () => {
  it('offers the token and the auth subprotocol, sends the request first and ends with the node normal close', async () => {
    const x = await client().channel('/echo', { request: { beginExclusive: 0 } });
    expect(
      seen
        .at(-1)!
        .protocols?.split(',')
        .map((p) => p.trim()),
    ).toEqual([`jwt.token.${TOKEN}`, AUTH_SUBPROTOCOL]);
    expect(x.protocol).toBe(AUTH_SUBPROTOCOL);
    expect(x.end).toBe('closed');
    expect(x.close).toEqual({ code: 1000, reason: '', by: 'node' });
    expect(x.messages.map(parsed)).toEqual([{ beginExclusive: 0 }]);
    const evidence = JSON.stringify(summariseChannel(x));
    expect(evidence).not.toContain('signature-that-is-secret');
    expect(summariseChannel(x).websocat).toBe(
      `websocat -n --protocol "jwt.token.\${CN_CONFORMANCE_LEDGER_TOKEN}, daml.ws.auth" '${origin.replace('http', 'ws')}/echo' <<< '{"beginExclusive":0}'`,
    );
  });

  it('collects every message until the close', async () => {
    const x = await client().channel('/three', { request: {} });
    expect(x.messages).toHaveLength(3);
    expect(x.end).toBe('closed');
  });

  it('a refused upgrade is the node answer, with its status and body', async () => {
    const x = await client().channel('/refused', { request: {}, auth: 'none' });
    expect(seen.at(-1)!.protocols).toBe(AUTH_SUBPROTOCOL);
    expect(x.end).toBe('refused');
    expect(x.upgrade).toMatchObject({ status: 401, text: '{"code":"UNAUTHENTICATED","cause":"no token"}' });
    expect(summariseChannel(x).error).toContain('401');
  });

  it('the client stops on its own terms: after N messages, or once idle, and the node answers its close', async () => {
    const some = await client().channel('/forever-open', { request: {}, stopAfter: 2 });
    expect(some).toMatchObject({ end: 'stopped', closeHandshake: 'completed' });
    expect(some.messages).toHaveLength(2);
    const idle = await client().channel('/forever-open', { request: {}, idleMs: 100 });
    expect(idle).toMatchObject({ end: 'stopped', closeHandshake: 'completed' });
    expect(idle.messages).toHaveLength(3);
    const until = await client().channel('/forever-open', { request: {}, until: (m) => (m as { n: number }).n === 2 });
    expect(until.messages).toHaveLength(2);
  });

  it('runs a live action once the stream is idle, then waits for what it brings', async () => {
    let acted = 0;
    const x = await client().channel('/forever-open', { request: {}, idleMs: 50, live: { act: async () => void acted++, waitMs: 100 } });
    expect(acted).toBe(1);
    expect(x.end).toBe('stopped');
  });
});

describe('a channel that misbehaves ends in a failure with its reason, within its bound', () => {
  it('silence: no message and no close within the timeout', async () => {
    const x = await client({ timeoutMs: 200 }).channel('/silent', { request: {} });
    expect(x).toMatchObject({ end: 'failed', errorCode: 'IDLE' });
  });

  it('a stream that never ends: stopped at its longest life', async () => {
    const started = Date.now();
    const x = await client({ timeoutMs: 100 }).channel('/endless', { request: {} });
    expect(x).toMatchObject({ end: 'failed', errorCode: 'DURATION' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(summariseChannel(x).omitted).toBeGreaterThan(0);
  });

  it('a flood: stopped at the byte bound, keeping no more than it', async () => {
    const x = await client({ maxBodyBytes: 256 * 1024 }).channel('/flood', { request: {} });
    expect(x).toMatchObject({ end: 'failed', errorCode: 'TOO_LARGE' });
    expect(x.messages.reduce((n, m) => n + m.bytes, 0)).toBeLessThanOrEqual(256 * 1024);
  });

  it('garbage: text that is no JSON and binary frames are kept as received, and parse to nothing', async () => {
    const x = await client().channel('/garbage', { request: {} });
    expect(x.end).toBe('closed');
    expect(x.messages.map(parsed)).toEqual([undefined, undefined]);
    expect(x.messages[1]!.binary).toBe(true);
  });

  it('a connection dropped without a close frame', async () => {
    const x = await client().channel('/drop', { request: {} });
    expect(x).toMatchObject({ end: 'failed', errorCode: 'DROPPED' });
    expect(x.messages).toHaveLength(1);
  });

  it('nothing listening: a failure with the network error, not an exception', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const x = await client({ origin: `http://127.0.0.1:${port}` }).channel('/three', { request: {} });
    expect(x).toMatchObject({ end: 'failed', errorCode: 'ECONNREFUSED' });
  });
});
