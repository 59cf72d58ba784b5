// The seam blind faults are written against: a fault sees the request and the answer a client would see,
// and what it returns is what the client receives; everything it leaves alone goes out unchanged.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { BlindChannelRewrite } from '../../reference-node/blind/channel.ts';
import { blindFaults, blindHook } from '../../reference-node/blind/hook.ts';
import { blindRound, type BlindFault } from '../../reference-node/blind/seam.ts';
import { BLIND_FAULTS, FaultSet } from '../../reference-node/faults.ts';

async function app(faults: readonly BlindFault[]) {
  const a = Fastify();
  blindHook(a, blindFaults(faults));
  a.get('/api/scan/v0/items', async (req) => ({ items: [1, 2, 3], asked: (req.query as Record<string, string>).n ?? null }));
  a.post('/v2/echo', async (req) => req.body);
  a.get('/text', async (_req, reply) => reply.type('text/plain').send('plain'));
  await a.ready();
  return a;
}

const [dropLast, secondTime] = blindRound(0, [
  {
    name: 'blind-r0-scan-drops-last-item',
    interface: 'scan',
    breaks: 'an example',
    cites: [],
    rewrite: (req, answer) =>
      req.path === '/api/scan/v0/items' ? { ...answer, body: { ...(answer.body as object), items: [1, 2], query: req.query } } : undefined,
  },
  {
    name: 'blind-r0-ledger-refuses-second-echo',
    interface: 'ledger',
    breaks: 'an example',
    cites: [],
    rewrite: (req, _answer, memory) => {
      if (req.path !== '/v2/echo') return undefined;
      const n = ((memory.get('n') as number | undefined) ?? 0) + 1;
      memory.set('n', n);
      return n === 2 ? { status: 400, contentType: 'text/plain', body: `refused ${JSON.stringify(req.body)}` } : undefined;
    },
  },
]) as [BlindFault, BlindFault];

describe('blind faults', () => {
  it('rewrite the answer a client receives, with the request parsed, and leave other answers alone', async () => {
    const a = await app([dropLast!]);
    const r = await a.inject({ method: 'GET', url: '/api/scan/v0/items?n=1&m=a&m=b' });
    expect([r.statusCode, r.json()]).toEqual([200, { items: [1, 2], asked: '1', query: { n: '1', m: ['a', 'b'] } }]);
    expect((await a.inject({ method: 'GET', url: '/text' })).body).toBe('plain');
  });

  it('keep a memory of their own for the life of the node, and may change the status and the media type', async () => {
    const a = await app([secondTime!]);
    const send = () => a.inject({ method: 'POST', url: '/v2/echo', payload: { x: 1 } });
    const [first, second, third] = [await send(), await send(), await send()];
    expect([first.statusCode, second.statusCode, second.headers['content-type'], second.body, third.statusCode]).toEqual([
      200,
      400,
      'text/plain',
      'refused {"x":1}',
      200,
    ]);
  });

  it("rewrite a WebSocket channel's messages: held back and sent later, added before the close, several faults in turn", () => {
    const [holdsSecond, echoes] = blindRound(0, [
      {
        name: 'blind-r0-ledger-holds-second-message',
        interface: 'ledger',
        breaks: 'an example',
        cites: [],
        rewrite: () => undefined,
        // The second message comes after the third; one still held at the close goes out before it.
        rewriteChannel: (channel, event, memory) => {
          const key = `held:${channel.id}`;
          const held = memory.get(key) as unknown[] | undefined;
          if (event.kind === 'close') return held;
          if (event.n === 1) {
            memory.set(key, [event.message]);
            return [];
          }
          memory.delete(key);
          return held && [event.message, ...held];
        },
      },
      {
        name: 'blind-r0-ledger-tells-request',
        interface: 'ledger',
        breaks: 'an example',
        cites: [],
        rewrite: () => undefined,
        rewriteChannel: (channel, event) => (event.kind === 'close' ? [{ request: channel.request, path: channel.path }] : undefined),
      },
    ]) as [BlindFault, BlindFault];
    const channel = (id: number) => ({ id, path: '/v2/updates', request: { beginExclusive: id }, headers: {} });
    const one = new BlindChannelRewrite(blindFaults([holdsSecond, echoes]), channel(1));
    expect([1, 2, 3, 4].map((m) => one.message(m))).toEqual([[1], [], [3, 2], [4]]);
    expect(one.close(1000, '')).toEqual([{ request: { beginExclusive: 1 }, path: '/v2/updates' }]);
    const two = new BlindChannelRewrite(blindFaults([holdsSecond]), channel(2));
    expect([two.message('a'), two.message('b'), two.close(1000, '')]).toEqual([['a'], [], ['b']]);
    // A fault without a channel rewrite leaves the messages as they are.
    expect(new BlindChannelRewrite(blindFaults([dropLast]), channel(3)).message({ x: 1 })).toEqual([{ x: 1 }]);
  });

  it('are named for their round and interface, and switched like the catalog faults', () => {
    expect(() => blindRound(2, [{ ...dropLast!, name: 'blind-r1-scan-x' }])).toThrow(/must start blind-r2-scan-/);
    for (const f of BLIND_FAULTS) expect(new FaultSet([f.name]).blind).toEqual([f]);
    expect(() => new FaultSet(['blind-r9-scan-nothing'])).toThrow(/unknown fault/);
  });
});
