// The description leaves the root-hash `status` values open: a node answering others than the ones real nodes
// send (Ok, Undetermined, CannotProvide) still meets the root-hash requirements. A proxy in front of the
// reference node renames every status it passes on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { ROOT_HASH_REQUIREMENTS } from '../../requirements/scan/root-hash.ts';
import { runAgainst } from '../support/suite-harness.ts';

const RENAMED: Record<string, string> = { Ok: 'computed', Undetermined: 'pending-round', CannotProvide: 'unavailable' };

let node: RunningReferenceNode;
let proxy: Server;
let proxyUrl: string;
const seen = new Set<string>();

beforeAll(async () => {
  node = await startReferenceNode({});
  const origin = new URL(node.urls.scan).origin;
  proxy = createServer(async (req, res) => {
    const answer = await fetch(origin + req.url, { method: req.method });
    const text = await answer.text();
    const body = /\/root-hash$/.test(req.url ?? '') && answer.status === 200 ? JSON.parse(text) : undefined;
    if (body) {
      body.status = RENAMED[body.status] ?? body.status;
      seen.add(body.status);
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' }).end(body ? JSON.stringify(body) : text);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/scan`;
});
afterAll(async () => {
  proxy?.close();
  await node?.close();
});

describe('root-hash status values', () => {
  it('other values than the official ones still pass every root-hash requirement', async () => {
    const results = await runAgainst(node, ROOT_HASH_REQUIREMENTS, { scan: { url: proxyUrl } });
    expect(results.map((r) => `${r.id} ${r.status}${r.reason ? `: ${r.reason}` : ''}`)).toEqual(ROOT_HASH_REQUIREMENTS.map((r) => `${r.id} passed`));
    // Every kind of result went through the proxy renamed.
    expect([...seen].sort()).toEqual(Object.values(RENAMED).sort());
  });
});
