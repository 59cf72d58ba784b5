// The clean reference node answers every operation of the three documents conformingly: generated valid
// requests (mutations included) and requests built from the network's own data, zero violations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseProblems } from '../../generators/index.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { sweepOperation, type SweepTarget } from '../../suites/generic/documented-responses.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';
import { worldRequests } from '../support/world-requests.ts';

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode({ seed: 11 });
});
afterAll(async () => node?.close());

describe('reference node self-test', () => {
  it.each(BUILTIN_NAMES)('%s: generated valid requests for every operation get documented, schema-valid answers', async (name) => {
    const spec = await builtinSpec(name);
    const token = name === 'ledger' ? node.credentials.ledgerAdminToken : name === 'wallet' ? node.credentials.walletUsers[0]!.token : undefined;
    const target: SweepTarget = { origin: node.urls.ledger, headers: token ? { authorization: `Bearer ${token}` } : {} };
    let requests = 0;
    const problems: string[] = [];
    for (const op of spec.catalog.operations) {
      const r = await sweepOperation(spec, op, target, { samples: 8, seed: 5, timeoutMs: 10_000, allowMutations: true });
      requests += r.requests;
      problems.push(...r.problems.map((p) => `${op.id}: ${p.request}: ${p.problem}`));
    }
    expect(problems).toEqual([]);
    expect(requests).toBe(spec.catalog.operations.length * 8);
  });

  it('requests built from the network data (real ids) get documented, schema-valid answers', async () => {
    const problems: string[] = [];
    const statuses = new Map<string, Set<number>>();
    for (const r of worldRequests(node)) {
      const res = await fetch(r.url, { ...r.init, signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      (statuses.get(r.operationId) ?? statuses.set(r.operationId, new Set()).get(r.operationId)!).add(res.status);
      for (const p of responseProblems(await builtinSpec(r.spec), r.operationId, { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text })) problems.push(`${r.name}: ${p}`);
    }
    expect(problems).toEqual([]);
    // Real ids find real data: every read operation answered 200 at least once.
    for (const [op, seen] of statuses) expect([...seen], op).toContain(200);
  });
});
