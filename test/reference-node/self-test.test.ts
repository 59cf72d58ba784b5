// The clean reference node answers every operation of the three documents conformingly: generated valid
// requests (mutations included) and requests built from the network's own data, zero violations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseProblems } from '../../generators/index.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { genericRequirements } from '../../requirements/generic/spec-requirements.ts';
import { runAgainst } from '../support/suite-harness.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';
import { worldRequests } from '../support/world-requests.ts';

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode({ seed: 11 });
});
afterAll(async () => node?.close());

describe('reference node self-test', () => {
  it.each(BUILTIN_NAMES)('%s: every operation answers generated valid requests (fixture ids first) conformingly', async (name) => {
    const spec = await builtinSpec(name);
    const responses = genericRequirements(name, spec).filter((r) => r.id.endsWith('-RESPONSES'));
    expect(responses.length).toBe(spec.catalog.operations.length);
    const results = await runAgainst(node, responses, { runs: 8 });
    expect(results.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
  });

  it('requests built from the network data (real ids) get documented, schema-valid answers', async () => {
    const problems: string[] = [];
    const statuses = new Map<string, Set<number>>();
    for (const r of worldRequests(node)) {
      const res = await fetch(r.url, { ...r.init, signal: AbortSignal.timeout(10_000) });
      const text = await res.text();
      (statuses.get(r.operationId) ?? statuses.set(r.operationId, new Set()).get(r.operationId)!).add(res.status);
      for (const p of responseProblems(await builtinSpec(r.spec), r.operationId, {
        status: res.status,
        contentType: res.headers.get('content-type') ?? undefined,
        text,
      }))
        problems.push(`${r.name}: ${p}`);
    }
    expect(problems).toEqual([]);
    // Real ids find real data: every read operation answered 200 at least once.
    for (const [op, seen] of statuses) expect([...seen], op).toContain(200);
  });
});
