// Every answer a check receives is judged against its operation's schema: a break only a page walk reaches
// fails the operation's generic answer requirement, with the answer as evidence.
import { describe, expect, it } from 'vitest';
import { startReferenceNode } from '../../reference-node/index.ts';
import { httpEvidence } from '../../engine/transport/evidence.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';
import { runConformance } from '../../runner/run-conformance.ts';
import { catalog } from '../../requirements/catalog.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';
import { loadedSpecs, runOnFreshNode } from '../support/suite-harness.ts';

describe('the answer judge', () => {
  it('fails GENERIC-...-RESPONSES on a walked holdings page that breaks its schema, naming the check that received it', async () => {
    const all = catalog(await loadedSpecs());
    const generic = all.find((r) => r.id === 'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-RESPONSES')!;
    const walk = all.find((r) => r.id === 'SCAN-HOLDINGS-PAGING-COMPLETE')!;
    const faults = ['scan-holdings-walked-page-malformed'];

    // Its own requests never walk: alone, it sees nothing wrong.
    const [alone] = await runOnFreshNode({ faults }, [generic]);
    expect(alone!.status, alone!.reason).toBe('passed');

    // After a walk, it judges what the walk received, whatever the order given.
    const results = await runOnFreshNode({ faults }, [generic, walk]);
    expect(results.map((r) => r.id)).toEqual([generic.id, walk.id]);
    const [judged, walked] = results;
    expect(walked!.status, walked!.reason).toBe('passed');
    expect(judged!.status).toBe('failed');
    expect(judged!.reason).toMatch(
      /an answer SCAN-HOLDINGS-PAGING-COMPLETE received breaks the document: body of getHoldingsStateV1 200 violates the schema: \/created_events\/0\/created_at must be string/,
    );
    expect(judged!.evidence?.pointer).toBe('/created_events/0/created_at');
    expect(httpEvidence(judged!.evidence?.exchange)?.request.body).toMatch(/"after":/);
  });

  it('reports nothing on a correct node: the SHOULD requirements of the policy pass where answers were judged, skip where none were', async () => {
    const all = catalog(await loadedSpecs());
    const pick = (ids: string[]) => ids.map((id) => all.find((r) => r.id === id)!);
    const results = await runOnFreshNode(
      {},
      pick([
        'SCAN-ANSWERS-NULL-FOR-ABSENT',
        'SCAN-HOLDINGS-PAGING-COMPLETE',
        'SCAN-ERRORS-SHAPE',
        'SCAN-ANSWERS-PLAIN-TEXT-404',
        'WALLET-ANSWERS-NULL-FOR-ABSENT',
      ]),
    );
    expect(
      results.map((r) => `${r.id} ${r.status}`),
      JSON.stringify(results.map((r) => r.reason)),
    ).toEqual([
      'SCAN-ANSWERS-NULL-FOR-ABSENT passed',
      'SCAN-HOLDINGS-PAGING-COMPLETE passed',
      'SCAN-ERRORS-SHAPE passed',
      'SCAN-ANSWERS-PLAIN-TEXT-404 passed',
      'WALLET-ANSWERS-NULL-FOR-ABSENT skipped',
    ]);
  });

  it('judges a node of an earlier release line without what that line predates, and says so', async () => {
    const documents = await builtinDocumentsOnce();
    const all = catalog(documents.specs);
    const requirements = all.filter((r) => r.id === 'GENERIC-LEDGER-GET-UPDATES-RESPONSES' || r.id === 'LEDGER-UPDATES-PAGING-COMPLETE');
    expect(requirements).toHaveLength(2);
    for (const faults of [[], ['ledger-pre-3-5']]) {
      const node = await startReferenceNode({ faults });
      try {
        const run = await runConformance({ target: referenceNodeTarget(node), documents, requirements, preflight: false });
        expect(run.requirements.map((r) => `${r.id} ${r.status} ${r.reason ?? ''}`.trim())).toEqual(requirements.map((r) => `${r.id} passed`));
        if (faults.length === 0) expect(run.applicability).toEqual([]);
        else
          expect(run.applicability).toEqual([
            expect.stringMatching(/^ledger: the target runs 3\.4\.\d+ \(GET \/v2\/version\), before 3\.5: acsDelta, representativePackageId .* not applicable/),
            "ledger: answers lacked acsDelta, representativePackageId, not applicable to the target's release line",
          ]);
      } finally {
        await node.close();
      }
    }
  });
});
