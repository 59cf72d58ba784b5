// The scan requirement records against the reference node: all pass on a clean node and on others, every
// scan fault names requirements that exist, and a missing fixture skips with its name.
import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { SCAN_FAULTS } from '../../reference-node/scan/faults.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import { httpEvidence } from '../../engine/transport/evidence.ts';
import { SCAN_REQUIREMENTS } from '../../requirements/scan/index.ts';
import { keysInTextOrder } from '../../requirements/scan/json-order.ts';
import { failedIds, runAgainst, runOnFreshNode } from '../support/suite-harness.ts';

const IDS = new Set(SCAN_REQUIREMENTS.map((r) => r.id));

const notPassed = (results: RequirementResult[]) =>
  results
    .filter((r) => r.status !== 'passed')
    .map((r) => `${r.id}: ${r.status}: ${r.reason}`)
    .join('\n');

describe('scan requirement records', () => {
  // Ids, levels, sections, sentences and documented operations: test/suites/requirement-records.test.ts.
  it('are read-only but for force-ACS, the one operation that changes the scan', () => {
    for (const r of SCAN_REQUIREMENTS) expect(r.mutates, r.id).toBe(r.operations.includes('forceAcsSnapshotNow'));
  });

  it('all pass on a clean reference node (default settings), none skipped', async () => {
    const results = await runOnFreshNode({}, SCAN_REQUIREMENTS);
    expect(notPassed(results)).toBe('');
    expect(results.map((r) => r.id).sort()).toEqual([...IDS].sort());
  });

  it('pass again on the same node, and on another seed and scale', async () => {
    const node = await startReferenceNode({ seed: 7, scale: 2 });
    try {
      expect(notPassed(await runAgainst(node, SCAN_REQUIREMENTS))).toBe('');
      // A second run sees the snapshot the first one forced; nothing else changes.
      expect(notPassed(await runAgainst(node, SCAN_REQUIREMENTS, { seed: 3 }))).toBe('');
    } finally {
      await node.close();
    }
  });

  it('read-only run: the force-ACS requirement is skipped, the others pass', async () => {
    const results = await runOnFreshNode({}, SCAN_REQUIREMENTS, { allowMutations: false });
    for (const r of results) expect(r.status, `${r.id}: ${r.reason}`).toBe(r.mutates ? 'skipped' : 'passed');
  });

  it('every scan fault names the requirements that catch it', () => {
    for (const f of SCAN_FAULTS) {
      const mine = f.rules.filter((id) => id.startsWith('SCAN-'));
      for (const id of mine) expect(IDS.has(id), `${f.name}: ${id}`).toBe(true);
      // A break of the document alone (say a media type) is for the generic checks to catch (the detection test).
      const generic = f.generic ? [f.generic] : [];
      expect(mine.length + generic.length, `${f.name} is caught by no requirement`).toBeGreaterThan(0);
    }
  });

  // That each fault fails exactly the requirements it names, with evidence, is the detection matrix's test
  // (test/suites/detection.test.ts), for every interface at once.

  it('an endless holdings token is reported as a failure with the page that repeats it, not a hang', async () => {
    const tokenEnds = SCAN_REQUIREMENTS.filter((r) => r.id === 'SCAN-HOLDINGS-PAGING-TOKEN-ENDS');
    const [result] = await runOnFreshNode({ faults: ['scan-holdings-endless-token'] }, tokenEnds, { maxPages: 10 });
    expect(result!.status).toBe('failed');
    expect(result!.reason).toMatch(/already used in this walk: the walk never ends/);
    expect(result!.evidence?.pointer).toBe('/next_page_token');
    expect(httpEvidence(result!.evidence?.exchange)?.request.url).toMatch(/\/api\/scan\/v0\/holdings\/state$/);
  });

  it('a requirement whose fixture is missing is skipped, naming the fixture', async () => {
    const node = await startReferenceNode({});
    try {
      const results = await runAgainst(node, SCAN_REQUIREMENTS, { fixtures: { ...referenceFixtures(node), memberIds: undefined } });
      const traffic = results.find((r) => r.id === 'SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED')!;
      expect(traffic.status).toBe('skipped');
      expect(traffic.reason).toMatch(/missing fixture: fixtures\.memberIds/);
      expect(failedIds(results)).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it('reads key order from the raw JSON text (integer-like keys included)', () => {
    const text = '{"update": {"events_by_id": {"b": {}, "2": {"x": 1}, "a:1": [], "1": null}}, "other": "{\\"z\\": 1}"}';
    expect(keysInTextOrder(text, ['update', 'events_by_id'])).toEqual(['b', '2', 'a:1', '1']);
    expect(Object.keys(JSON.parse(text).update.events_by_id)).toEqual(['1', '2', 'b', 'a:1']);
    expect(keysInTextOrder(text, ['missing'])).toBeUndefined();
    expect(keysInTextOrder('{"a": ', ['a'])).toBeUndefined();
  });
});
