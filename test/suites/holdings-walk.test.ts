// The holdings walk keeps its pages deflated: each page must come back exactly as received (evidence and
// events), and a walk's bounds and stall detection must work on what it keeps.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { makeCheckContext, withFixtures } from '../../engine/check-context.ts';
import { summarise } from '../../engine/transport/http.ts';
import type { CheckContext } from '../../engine/model.ts';
import {
  baseQuery,
  contractIdOf,
  HOLDINGS_NEEDS,
  type HoldingsNeed,
  pageEvents,
  pageExchange,
  pageWith,
  walkEvents,
  walkHoldings,
} from '../../requirements/scan/holdings/walk.ts';
import { contextParts, DEFAULT_BOUNDS } from '../../engine/target.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode({ seed: 3, scale: 2 });
});
afterAll(() => node?.close());

async function nodeContext(maxPages = DEFAULT_BOUNDS.maxPages): Promise<CheckContext<HoldingsNeed>> {
  return withFixtures(makeCheckContext(contextParts(referenceNodeTarget(node, { maxPages }), {})), HOLDINGS_NEEDS);
}

describe('holdings walk', () => {
  it('keeps each page deflated and restores its exchange and events exactly', async () => {
    const ctx = await nodeContext();
    const walk = await walkHoldings(ctx, 'v1', baseQuery(ctx, 7));
    expect(walk.end).toBe('complete');
    expect(walk.pages.length).toBeGreaterThan(10);
    for (const page of walk.pages) {
      const x = pageExchange(page);
      expect(x.status).toBe(200);
      expect(x.bytes.length).toBe(page.head.received);
      // The node answers a request the same every time: the kept body is the body received, byte for byte.
      const again = await ctx.scan.post('/v1/holdings/state', JSON.parse(x.requestBody!));
      expect(x.text).toBe(again.text);
      expect(summarise(x).response?.bodyExcerpt).toBe(summarise(again).response?.bodyExcerpt);
      const body = JSON.parse(x.text);
      expect(pageEvents(page)).toEqual(body.created_events);
      expect(page.count).toBe(body.created_events.length);
      expect(page.token).toEqual(body.next_page_token);
      // Kept deflated, not as received.
      if (page.count >= 5) expect(page.packed.byteLength).toBeLessThan(page.head.received / 3);
    }
    // Decoded anew on each call, never memoised: the caller may change what it gets.
    const first = walk.pages[0]!;
    pageEvents(first).length = 0;
    expect(pageEvents(first)).toHaveLength(first.count);

    const ids = Array.from(walkEvents(walk), contractIdOf);
    expect(ids).toHaveLength(walk.count);
    expect(new Set(ids).size).toBe(walk.count);
    expect(walk.count).toBe(walk.pages.reduce((n, p) => n + p.count, 0));
    const large = await walkHoldings(ctx, 'v1', baseQuery(ctx, 100));
    expect(new Set(Array.from(walkEvents(large), contractIdOf))).toEqual(new Set(ids));
    const last = ids.at(-1)!;
    expect(pageWith(walk, last)).toBe(walk.pages.at(-1));
    expect(pageWith(walk, 'no such contract')).toBeUndefined();
  });

  it('shares one walk per run and request', async () => {
    const ctx = await nodeContext();
    const query = baseQuery(ctx, 50);
    expect(await walkHoldings(ctx, 'v2', query)).toBe(await walkHoldings(ctx, 'v2', { ...query }));
    expect(await walkHoldings(ctx, 'v2', query)).not.toBe(await walkHoldings(ctx, 'v2', query, 3));
  });
});

/** A holdings endpoint whose token never ends; page n carries the contracts `contracts(n)`. */
async function endlessNode(contracts: (n: number) => string[]): Promise<{ server: Server; ctx: CheckContext<HoldingsNeed> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const n = Number(JSON.parse(body).after ?? 0);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          record_time: '2025-01-01T00:00:00Z',
          migration_id: 0,
          created_events: contracts(n).map((contract_id) => ({ contract_id })),
          next_page_token: n + 1,
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/scan`;
  const parts = contextParts(
    {
      scan: { url },
      fixtures: { migrationId: 0, snapshotRecordTime: '2025-01-01T00:00:00Z', holdingOwners: ['p'] },
      allowMutations: false,
      ...DEFAULT_BOUNDS,
      maxPages: 12,
    },
    {},
  );
  return { server, ctx: withFixtures(makeCheckContext(parts), HOLDINGS_NEEDS) };
}

describe('holdings walk bounds', () => {
  it('a token leading to pages without new contracts is stalled; one bringing new contracts is not', async () => {
    const same = await endlessNode(() => ['c-1', 'c-2']);
    const growing = await endlessNode((n) => [`c-${n}`]);
    try {
      const stalled = await walkHoldings(same.ctx, 'v1', baseQuery(same.ctx, 2));
      expect({ end: stalled.end, pages: stalled.pages.length, stalled: stalled.stalled }).toEqual({ end: 'bound', pages: 12, stalled: true });
      const slow = await walkHoldings(growing.ctx, 'v1', baseQuery(growing.ctx, 2));
      expect({ end: slow.end, pages: slow.pages.length, stalled: slow.stalled, count: slow.count }).toEqual({
        end: 'bound',
        pages: 12,
        stalled: false,
        count: 12,
      });
    } finally {
      same.server.close();
      growing.server.close();
    }
  });
});
