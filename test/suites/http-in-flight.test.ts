// A client never has more requests in flight to its interface than it is allowed, and queued requests are
// neither lost nor timed out while they wait.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';

let open = 0;
let most = 0;
const server = createServer((_req, res) => {
  most = Math.max(most, ++open);
  setTimeout(() => {
    open--;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }, 30);
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const client = (maxInFlight?: number) =>
  new Client({ origin, prefix: '', credentials: {}, timeoutMs: 1000, maxBodyBytes: 1024, limits: new RunLimits({ maxRequests: 100, maxInFlight }) });

describe('requests in flight', () => {
  it('stay within maxInFlight, every one answered', async () => {
    most = 0;
    const c = client(3);
    await c.get('/first'); // the first request goes alone until the target has answered
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`/r${i}`)));
    expect(answers.map((x) => x.status)).toEqual(Array(12).fill(200));
    expect(most).toBe(3);
  });

  it('are unbounded without it', async () => {
    most = 0;
    const c = client();
    await c.get('/first');
    await Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`/r${i}`)));
    expect(most).toBe(12);
  });
});
