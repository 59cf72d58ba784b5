// Real-world deviations: what production nodes send where it bends the letter of the description. A node
// showing one fails no MUST requirement; exactly the SHOULD requirements it names report it.
import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { DEVIATION_CATALOG } from '../../reference-node/faults.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../suites/catalog.ts';
import { loadedSpecs, runOnFreshNode } from '../support/suite-harness.ts';

describe('a node showing a real-world deviation', () => {
  for (const d of DEVIATION_CATALOG) {
    it(`${d.name}: no MUST requirement fails; the findings are exactly ${d.findings.join(', ') || 'none'}`, async () => {
      const all = catalog(await loadedSpecs());
      for (const id of [...d.findings, ...(d.unsupported ?? [])])
        expect(
          all.find((r) => r.id === id),
          `${d.name} names ${id}`,
        ).toBeDefined();
      for (const id of d.findings) expect(all.find((r) => r.id === id)?.level, `${d.name} names ${id}`).toBe('SHOULD');
      // The requirements that read the answers it changes, and the ones that report it.
      const touched = all.filter((r) => r.interface === d.interface && (r.operations.some((op) => d.operations.includes(op)) || d.findings.includes(r.id)));
      expect(
        touched.some((r) => r.level === 'MUST'),
        `${d.name}: its operations are read by some MUST requirement`,
      ).toBe(true);
      const results = await runOnFreshNode({ faults: [d.name] }, touched);
      const unsupported = new Set(d.unsupported ?? []);
      expect(
        results
          .filter((r) => r.level === 'MUST' && r.status !== (unsupported.has(r.id) ? 'unsupported' : 'passed'))
          .map((r) => `${r.id} ${r.status}: ${r.reason}`),
      ).toEqual([]);
      expect(
        results
          .filter((r) => r.status === 'failed')
          .map((r) => r.id)
          .sort(),
      ).toEqual([...d.findings].sort());
    });
  }
});

describe('scan-validator-never-collected', () => {
  it('puts a validator with all four faucet counters 0 into the answer the round arithmetic reads', async () => {
    const node = await startReferenceNode({ faults: ['scan-validator-never-collected'] });
    try {
      const query = referenceFixtures(node)
        .validatorIds.map((id) => `validator_ids=${encodeURIComponent(id)}`)
        .join('&');
      const body = (await (await fetch(`${node.urls.scan}/v0/validators/validator-faucets?${query}`)).json()) as {
        validatorsReceivedFaucets: Array<Record<string, unknown>>;
      };
      const zero = body.validatorsReceivedFaucets.filter(
        (r) => r.numRoundsCollected === 0 && r.numRoundsMissed === 0 && r.firstCollectedInRound === 0 && r.lastCollectedInRound === 0,
      );
      expect(zero).toHaveLength(1);
      // The others collected, and keep the arithmetic.
      expect(body.validatorsReceivedFaucets.length).toBeGreaterThan(1);
    } finally {
      await node.close();
    }
  });
});
