// The renderers on the result model of a real run: a small selection against the reference node with two
// faults on. Only what varies between runs (port, clock, durations) is fixed before rendering.
import { describe, expect, it } from 'vitest';
import { startReferenceNode } from '../../reference-node/index.ts';
import { coverage, renderCoverageMarkdown } from '../../reporting/coverage.ts';
import { renderHtml } from '../../reporting/html.ts';
import { renderJunit } from '../../reporting/junit.ts';
import { buildReport, type ConformanceReport } from '../../reporting/model.ts';
import { catalog } from '../../requirements/catalog.ts';
import { select } from '../../engine/engine.ts';
import { runConformance } from '../../runner/run-conformance.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';

async function realRun(): Promise<ConformanceReport> {
  const node = await startReferenceNode({ faults: ['scan-ans-too-many', 'wallet-status-unknown-200'] });
  try {
    const documents = await builtinDocumentsOnce();
    const { specs } = documents;
    const selected = select(catalog(specs), { only: ['SCAN-ANS-*', 'WALLET-TRANSFER-*', 'GENERIC-SCAN-LIST-ANS-ENTRIES-*'] });
    const run = await runConformance({ target: referenceNodeTarget(node, { runs: 3 }), documents, requirements: selected, preflight: false });
    const requirements = run.requirements.map((r) => ({
      ...r,
      durationMs: 0,
      evidence: r.evidence?.exchange ? { ...r.evidence, exchange: { ...r.evidence.exchange, durationMs: 0 } } : r.evidence,
    }));
    const report = buildReport({
      version: '0.0.0',
      startedAt: new Date('2026-11-21T10:00:00Z'),
      finishedAt: new Date('2026-11-21T10:00:01Z'),
      targets: { ledger: node.urls.ledger, wallet: node.urls.validator, scan: node.urls.scan },
      config: { seed: 1, runs: 3 },
      specChecks: [],
      seed: 1,
      fixtureNotes: [],
      coverage: coverage(specs, catalog(specs), requirements, run.seen),
      requirements,
    });
    const port = new URL(node.urls.scan).port;
    return JSON.parse(JSON.stringify(report).replaceAll(`127.0.0.1:${port}`, '127.0.0.1:PORT'));
  } finally {
    await node.close();
  }
}

describe('renderers on a real run', () => {
  it('report.html, junit.xml and coverage.md of a faulty node (snapshots)', async () => {
    const report = await realRun();
    // The selection must have produced failures, passes and the operations' statuses, or the snapshot proves little.
    expect(report.summary.failed).toBeGreaterThanOrEqual(2);
    expect(report.summary.passed).toBeGreaterThan(0);
    expect(report.coverage.find((c) => c.operationId === 'listAnsEntries')?.statusesSeen).toContain(200);
    await expect(renderHtml(report)).toMatchFileSnapshot('./__snapshots__/real-run/report.html');
    await expect(renderJunit(report)).toMatchFileSnapshot('./__snapshots__/real-run/junit.xml');
    await expect(renderCoverageMarkdown(report.coverage)).toMatchFileSnapshot('./__snapshots__/real-run/coverage.md');
  });
});
