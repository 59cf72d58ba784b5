// The three history endpoints (/v0/updates, /v2/updates, /v0/events) are judged each on its own: one the
// scan does not serve makes only its requirements unsupported, and ids no endpoint knows skip, except for the
// positive requirements: the ids come from the scan's own history, so a documented 404 to them is a refusal.
// A proxy in front of the reference node stops serving one endpoint at a time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { httpEvidence } from '../../engine/transport/evidence.ts';
import { SCAN_REQUIREMENTS } from '../../requirements/scan/index.ts';
import { runAgainst } from '../support/suite-harness.ts';

type Answer = { status: number; type: string; body: string };
const JSON_404: Answer = { status: 404, type: 'application/json', body: '{"error":"not found"}' };

const ENDPOINT = { v0: '/api/scan/v0/updates/', v2: '/api/scan/v2/updates/', events: '/api/scan/v0/events/' } as const;
type Endpoint = keyof typeof ENDPOINT;

// The requirements reading the history endpoints, by the endpoint they judge (reassignments read all three).
const OPS: Record<Endpoint, string> = { v0: 'getUpdateByIdV0', v2: 'getUpdateByIdV2', events: 'getEventById' };
const HISTORY = SCAN_REQUIREMENTS.filter((r) => r.tags?.includes('history') || r.tags?.includes('events'));
// The positive requirement of an update path also asks /v0/events about the ids that path does not know.
const only = (e: Endpoint) => HISTORY.filter((r) => (r.operations.length === 1 && r.operations[0] === OPS[e]) || r.confirms === OPS[e]).map((r) => r.id);
/** The positive requirement of each endpoint: a documented (JSON) 404 to ids the scan lists is its refusal, not its absence. */
const POSITIVE: Record<Endpoint, string> = { v0: 'SCAN-UPDATES-BY-ID', v2: 'SCAN-UPDATES-V2-BY-ID', events: 'SCAN-EVENTS-BY-ID' };

let node: RunningReferenceNode;
let proxy: Server;
let proxyUrl: string;
/** What the proxy answers instead of the node, for the endpoints named. */
let replaced: Partial<Record<Endpoint, Answer>> = {};

beforeAll(async () => {
  node = await startReferenceNode({});
  const origin = new URL(node.urls.scan).origin;
  proxy = createServer(async (req, res) => {
    const hit = (Object.keys(ENDPOINT) as Endpoint[]).find((e) => req.url!.startsWith(ENDPOINT[e]) && replaced[e]);
    if (hit) {
      res.writeHead(replaced[hit]!.status, { 'content-type': replaced[hit]!.type }).end(replaced[hit]!.body);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await fetch(origin + req.url, {
      method: req.method,
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' }).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/scan`;
});
afterAll(async () => {
  proxy?.close();
  await node?.close();
});

async function runWith(answers: Partial<Record<Endpoint, Answer>>): Promise<RequirementResult[]> {
  replaced = answers;
  return runAgainst(node, HISTORY, { scan: { url: proxyUrl } });
}

const byStatus = (results: RequirementResult[], status: string) =>
  results
    .filter((r) => r.status === status)
    .map((r) => r.id)
    .sort();

describe('history endpoints judged each on its own', () => {
  it.each([
    ['v0', '405', { status: 405, type: 'application/json', body: '{"error":"method not allowed"}' }, false],
    ['v2', 'a JSON 404 to the ids the others know', JSON_404, true],
    ['events', '501', { status: 501, type: 'text/plain', body: 'Not Implemented' }, false],
    ['v0', "the HTTP layer's text/plain 404", { status: 404, type: 'text/plain; charset=utf-8', body: 'The requested resource could not be found.' }, false],
  ] as Array<[Endpoint, string, Answer, boolean]>)(
    '%s answering %s: only its requirements are unsupported (its positive one fails on a documented refusal), the others pass',
    async (endpoint, _what, answer, refusal) => {
      const results = await runWith({ [endpoint]: answer });
      expect(only(endpoint).length).toBeGreaterThan(3);
      // The comparison of the variants reads /v0/updates first: without it there is nothing to compare.
      const comparing = endpoint === 'v0' ? ['SCAN-UPDATES-VARIANTS-SAME-UPDATE'] : [];
      const failed = refusal ? [POSITIVE[endpoint]] : [];
      expect(byStatus(results, 'unsupported')).toEqual([...only(endpoint).filter((id) => !failed.includes(id)), ...comparing].sort());
      expect(byStatus(results, 'failed')).toEqual(failed);
      expect(results.filter((r) => !['unsupported', 'passed', 'failed'].includes(r.status)).map((r) => `${r.id} ${r.status}: ${r.reason}`)).toEqual([]);
      if (refusal)
        expect(results.find((r) => r.id === POSITIVE[endpoint])?.reason).toMatch(
          /refused a valid request \(update .*discovery: this scan's update and event history/,
        );
      const first = results.find((r) => r.id === only(endpoint)[0])!;
      expect(httpEvidence(first.evidence?.exchange)?.response?.status).toBe(answer.status);
    },
    60_000,
  );

  it('a JSON 404 from every endpoint is ids the scan does not know: skipped, not unsupported, but a refusal of the lookups that must find them', async () => {
    const results = await runWith({ v0: JSON_404, v2: JSON_404, events: JSON_404 });
    const positive = Object.values(POSITIVE).sort();
    expect(byStatus(results, 'skipped')).toEqual(
      HISTORY.map((r) => r.id)
        .filter((id) => !positive.includes(id))
        .sort(),
    );
    expect(byStatus(results, 'failed')).toEqual(positive);
    expect(results.find((r) => r.id === 'SCAN-UPDATES-TREE-ROOTS-KNOWN')?.reason).toMatch(/none of the fixture update ids is known to \/v0\/updates/);
  });
});
