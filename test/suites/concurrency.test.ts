// Results do not depend on scheduling: the same selection against the same (faulty) node gives the same
// results, evidence included, one requirement at a time and eight side by side.
import { describe, expect, it } from 'vitest';
import { startReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import { select, type RequirementResult } from '../../engine/engine.ts';
import { runAgainst, loadedSpecs } from '../support/suite-harness.ts';

/** The results without what varies between runs: durations, the node's port and the answers' date headers. */
async function results(concurrency: number): Promise<unknown> {
  const node = await startReferenceNode({ faults: ['scan-ans-too-many', 'wallet-status-unknown-200'] });
  try {
    const selected = select(catalog(await loadedSpecs()), {
      only: ['WALLET-BUY-TRAFFIC-*', 'WALLET-TRANSFER-*', 'SCAN-ANS-*', 'GENERIC-SCAN-LIST-ANS-*', '*-ANSWERS-*'],
    });
    const run = await runAgainst(node, selected, { runs: 3, concurrency });
    const stripped = run.map((r: RequirementResult) => ({
      ...r,
      durationMs: 0,
      evidence: r.evidence?.exchange ? { ...r.evidence, exchange: { ...r.evidence.exchange, durationMs: 0 } } : r.evidence,
    }));
    const text = JSON.stringify(stripped).replaceAll(new URL(node.urls.scan).host, 'NODE');
    return JSON.parse(text.replace(/"date":"[^"]*"/g, '"date":"-"'));
  } finally {
    await node.close();
  }
}

describe('bounded concurrency', () => {
  it('gives the same results, in the same order with the same evidence, at concurrency 1 and 8', async () => {
    const serial = (await results(1)) as RequirementResult[];
    expect(serial.filter((r) => r.status === 'failed').length).toBeGreaterThanOrEqual(2);
    expect(serial.some((r) => r.mutates && r.status === 'passed')).toBe(true);
    expect(await results(8)).toEqual(serial);
  });
});
