// A client never has more requests in flight to its interface than it is allowed, and queued requests are
// neither lost nor timed out while they wait.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../engine/transport/http.ts';

// The target answers '/first' at once, and holds every other request until `release` of them are open at once,
// then answers them all: the client's concurrency, not a timer, decides when answers come (a client that sent
// fewer at once would wait for the safety valve, and `most` would say so).
let open = 0;
let most = 0;
let release = 1;
const held: ServerResponse[] = [];
const answer = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
const releaseAll = () => {
  open -= held.length;
  for (const res of held.splice(0)) answer(res);
};
const server = createServer((req, res) => {
  if (req.url === '/first') return answer(res);
  most = Math.max(most, ++open);
  held.push(res);
  if (open >= release) releaseAll();
  else setTimeout(() => held.includes(res) && releaseAll(), 10_000).unref();
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (maxInFlight?: number) =>
  new Client({ origin, prefix: '', credentials: {}, timeoutMs: 30_000, maxBodyBytes: 1024, budget: { remaining: 100 }, maxInFlight });

describe('requests in flight', () => {
  it('stay within maxInFlight, every one answered', async () => {
    most = 0;
    release = 3;
    const c = client(3);
    await c.get('/first'); // the first request goes alone until the target has answered
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`/r${i}`)));
    expect(answers.map((x) => x.status)).toEqual(Array(12).fill(200));
    expect(most).toBe(3);
  });

  it('are unbounded without it', async () => {
    most = 0;
    release = 12;
    const c = client();
    await c.get('/first');
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`/r${i}`)));
    expect(most).toBe(12);
  });
});
