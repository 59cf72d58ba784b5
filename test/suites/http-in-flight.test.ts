// A client never has more requests in flight to its interface than it is allowed, and queued requests are
// neither lost nor timed out while they wait. The server holds every answer until the test releases it, so
// what is in flight is counted on events, never on how fast a loaded machine gets requests out.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';

let most = 0;
/** Answers held by the server, oldest first: calling one sends it. */
const held: Array<() => void> = [];
let arrived = () => {};
const server = createServer((_req, res) => {
  held.push(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  most = Math.max(most, held.length);
  arrived();
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Waits until the server holds `n` answers. */
const holding = (n: number) =>
  new Promise<void>((r) => {
    arrived = () => held.length >= n && r();
    arrived();
  });

const release = () => held.shift()!();
// A failed test leaves nothing held for the next.
afterEach(() => {
  while (held.length) release();
});

/** The run's limits, counting the turns they grant: the requests the client has sent. */
class Counted extends RunLimits {
  granted = 0;
  override async turn(...args: Parameters<RunLimits['turn']>) {
    const t = await super.turn(...args);
    this.granted++;
    return t;
  }
}

const client = (maxInFlight?: number) => {
  const limits = new Counted({ maxRequests: 100, maxInFlight });
  return { limits, c: new Client({ origin, prefix: '', credentials: {}, timeoutMs: 10_000, maxBodyBytes: 1024, limits }) };
};

/** The first request goes alone until the target has answered. */
async function firstAnswered(c: Client): Promise<void> {
  const first = c.get('/first');
  await holding(1);
  release();
  await first;
}

describe('requests in flight', () => {
  it('stay within maxInFlight, every one answered', async () => {
    const { c, limits } = client(3);
    await firstAnswered(c);
    most = 0;
    const base = limits.granted;
    const answers = Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`/r${i}`)));
    // Before each answer is released, every request the client has sent must have arrived: then the server
    // holds all the client has in flight, which the bound caps at 3.
    for (let released = 0; released < 12; released++) {
      await holding(1);
      await holding(limits.granted - base - released);
      expect(held.length).toBeLessThanOrEqual(3);
      release();
    }
    expect((await answers).map((x) => x.status)).toEqual(Array(12).fill(200));
    expect(most).toBe(3);
  });

  it('are unbounded without it', async () => {
    const { c } = client();
    await firstAnswered(c);
    most = 0;
    const answers = Promise.all(Array.from({ length: 12 }, (_, i) => c.get(`/r${i}`)));
    await holding(12);
    while (held.length) release();
    expect((await answers).map((x) => x.status)).toEqual(Array(12).fill(200));
    expect(most).toBe(12);
  });
});
