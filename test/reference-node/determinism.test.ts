// Same seed, same data, byte for byte: two nodes started with one seed answer every request identically.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { worldRequests } from '../support/world-requests.ts';

let a: RunningReferenceNode;
let b: RunningReferenceNode;
let c: RunningReferenceNode;

beforeAll(async () => {
  [a, b, c] = await Promise.all([startReferenceNode({ seed: 7 }), startReferenceNode({ seed: 7 }), startReferenceNode({ seed: 8 })]);
});
afterAll(async () => {
  await Promise.all([a, b, c].map((n) => n?.close()));
});

async function answers(node: RunningReferenceNode): Promise<string[]> {
  const out: string[] = [];
  for (const r of worldRequests(node)) {
    const res = await fetch(r.url, { ...r.init, signal: AbortSignal.timeout(10_000) });
    const text = Buffer.from(await res.arrayBuffer()).toString('base64');
    // The node's own address appears in download links; it is the only thing allowed to differ.
    out.push(
      `${r.name} ${res.status} ${res.headers.get('content-type')} ${Buffer.from(text, 'base64').toString('latin1').split(node.urls.ledger).join('<base>')}`,
    );
  }
  return out;
}

describe('determinism', () => {
  it('two nodes with one seed give identical responses', async () => {
    const [ra, rb] = await Promise.all([answers(a), answers(b)]);
    expect(ra.length).toBeGreaterThan(300);
    for (let i = 0; i < ra.length; i++) expect(rb[i], ra[i]!.slice(0, 80)).toBe(ra[i]);
  });

  it('a different seed gives a different network', async () => {
    expect(a.context.world.dso.id).toBe(b.context.world.dso.id);
    expect(c.context.world.dso.id).not.toBe(a.context.world.dso.id);
  });
});
