// The wallet requirement records against the reference node: all pass on a clean node, each wallet fault
// fails exactly the requirements its catalog entry names, and a missing fixture skips with its name.
import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type ReferenceNodeOptions, type RunningReferenceNode } from '../../reference-node/index.ts';
import { WALLET_FAULTS } from '../../reference-node/wallet/faults.ts';
import type { Fixtures } from '../../engine/fixtures.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { WALLET_REQUIREMENTS } from '../../requirements/wallet/index.ts';
import { failedIds, runAgainst } from '../support/suite-harness.ts';

const IDS = new Set(WALLET_REQUIREMENTS.map((r) => r.id));
/** Faults no target-agnostic wallet check can notice (see the comment at the fault). */

/**
 * The reference fixtures plus the one the wallet suite reads that `Fixtures` does not declare yet:
 * tracking ids of offers sent by another wallet user (never used by the configured one).
 */
function walletFixtures(node: RunningReferenceNode): Fixtures {
  const w = node.context.world;
  const me = node.credentials.walletUsers[0]!.party;
  const mine = new Set(w.transferOffers.filter((o) => o.sender === me).map((o) => o.trackingId));
  const others = w.transferOffers
    .filter((o) => o.sender !== me && [...w.walletUsers.values()].includes(o.sender) && !mine.has(o.trackingId))
    .map((o) => o.trackingId);
  return { ...referenceFixtures(node), otherUserTransferOffers: others } as Fixtures;
}

async function runOn(options: ReferenceNodeOptions, fixtures: (node: RunningReferenceNode) => Fixtures = walletFixtures): Promise<RequirementResult[]> {
  const node = await startReferenceNode(options);
  try {
    return await runAgainst(node, WALLET_REQUIREMENTS, { fixtures: fixtures(node) });
  } finally {
    await node.close();
  }
}

const describeResults = (results: RequirementResult[]) =>
  results
    .filter((r) => r.status !== 'passed')
    .map((r) => `${r.id}: ${r.status}: ${r.reason}`)
    .join('\n');

describe('wallet requirement records', () => {
  // Ids, levels, sections, sentences and documented operations: test/suites/requirement-records.test.ts.
  it('are MUST but for the reviews, and read-only unless they send a buy-traffic request', () => {
    for (const r of WALLET_REQUIREMENTS) {
      // Only the deviation policy's reviews (which name no operation) are SHOULD: every wallet rule of the description is a MUST.
      expect(r.level, r.id).toBe(r.phase === 'review' && r.operations.length === 0 ? 'SHOULD' : 'MUST');
      // Everything that sends a buy-traffic request may create state on a faulty node.
      expect(r.mutates, r.id).toBe(r.operations.includes('createBuyTrafficRequest'));
    }
  });

  it('all pass on a clean reference node (default settings), none skipped', async () => {
    const results = await runOn({});
    expect(describeResults(results)).toBe('');
    expect(results.map((r) => r.id).sort()).toEqual([...IDS].sort());
  });

  it('read-only run: mutating requirements are skipped, the others pass', async () => {
    const node = await startReferenceNode({});
    try {
      const results = await runAgainst(node, WALLET_REQUIREMENTS, { fixtures: walletFixtures(node), allowMutations: false });
      for (const r of results) expect(r.status, `${r.id}: ${r.reason}`).toBe(r.mutates ? 'skipped' : 'passed');
    } finally {
      await node.close();
    }
  });

  it('every wallet fault names the requirements that catch it', () => {
    for (const f of WALLET_FAULTS) {
      const mine = f.rules.filter((id) => id.startsWith('WALLET-'));
      for (const id of mine) expect(IDS.has(id), `${f.name}: ${id}`).toBe(true);
      // A break of the document alone (say a media type) is for the generic checks to catch (the detection test).
      const generic = f.generic ? [f.generic] : [];
      expect(mine.length + generic.length, `${f.name} is caught by no requirement`).toBeGreaterThan(0);
    }
  });

  // That each fault fails exactly the requirements it names is the detection matrix's test (test/suites/detection.test.ts).

  it('a requirement whose fixture is missing is skipped, naming the fixture', async () => {
    const node = await startReferenceNode({});
    try {
      const results = await runAgainst(node, WALLET_REQUIREMENTS, {
        fixtures: { ...referenceFixtures(node), transferOffers: undefined, otherUserTransferOffers: undefined },
      });
      const shape = results.find((r) => r.id === 'WALLET-TRANSFER-STATUS-ACTIVE-SHAPE')!;
      expect(shape.status).toBe('skipped');
      expect(shape.reason).toMatch(/missing fixture: .*transferOffers/);
      const other = results.find((r) => r.id === 'WALLET-TRANSFER-STATUS-OTHER-USER-404')!;
      expect(other.status).toBe('skipped');
      expect(other.reason).toMatch(/missing fixture: fixtures\.otherUserTransferOffers/);
      expect(failedIds(results)).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it('a rerun with the same seed against the same node skips on reused tracking ids instead of failing', async () => {
    const node = await startReferenceNode({});
    try {
      await runAgainst(node, WALLET_REQUIREMENTS, { fixtures: walletFixtures(node) });
      const again = await runAgainst(node, WALLET_REQUIREMENTS, { fixtures: walletFixtures(node) });
      expect(failedIds(again)).toEqual([]);
      const reused = again.filter((r) => r.status === 'skipped').map((r) => r.id);
      expect(reused).toContain('WALLET-BUY-TRAFFIC-CREATE');
      for (const r of again.filter((x) => x.status === 'skipped')) expect(r.reason, r.id).toMatch(/already used on this node/);
      // Another seed uses other ids: everything passes again.
      const fresh = await runAgainst(node, WALLET_REQUIREMENTS, { fixtures: walletFixtures(node), seed: 2 });
      expect(describeResults(fresh)).toBe('');
    } finally {
      await node.close();
    }
  });
});
