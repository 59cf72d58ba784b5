// Every node's release, read before the requirements: the ledger's GET /v2/version and the scan's and the
// validator's GET /version. What a node states is recorded as stated; a node that states none (no endpoint,
// a refusal, no version in the answer, no answer) is recorded with why, and every rule stays applicable.
import { describe, expect, it } from 'vitest';
import { startReferenceNode } from '../../reference-node/index.ts';
import { SPLICE_RELEASE } from '../../reference-node/splice-version.ts';
import { LEDGER_API_VERSION } from '../../reference-node/ledger/overview.ts';
import { releaseOf } from '../../runner/node-versions.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';
import { runConformance } from '../../runner/run-conformance.ts';
import { releasesLine } from '../../reporting/model.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';

describe("the nodes' releases", () => {
  it('takes the version of a 200 JSON answer, and says why there is none otherwise', () => {
    const asked = { interface: 'scan' as const, request: 'GET http://scan/api/scan/version' };
    expect(releaseOf({ ...asked, answered: true, status: 200, body: '{"version":" 0.7.5 ","commit_ts":"2026-03-01T00:00:00Z"}' })).toEqual({
      ...asked,
      version: '0.7.5',
    });
    expect(releaseOf({ ...asked, answered: true, status: 404, body: 'Not Found' })).toEqual({ ...asked, unstated: 'answered 404' });
    expect(releaseOf({ ...asked, answered: true, status: 200, body: '{"commit_ts":"x"}' })).toEqual({
      ...asked,
      unstated: 'answered 200 without a version string',
    });
    expect(releaseOf({ ...asked, answered: true, status: 200, body: '{"version":""}' }).unstated).toBe('answered 200 without a version string');
    expect(releaseOf({ ...asked, answered: false, error: 'ECONNREFUSED' })).toEqual({ ...asked, unstated: 'no answer (ECONNREFUSED)' });
    expect(
      releasesLine([
        releaseOf({ ...asked, answered: true, status: 200, body: '{"version":"0.6.0"}' }),
        { interface: 'wallet', request: 'r', unstated: 'answered 404' },
      ]),
    ).toBe('scan 0.6.0 (the description dates after it: getPreviousSvRewardWeight (0.6.9)), wallet not stated (answered 404)');
  });

  it('are read from each interface of a run before its requirements, and recorded with the request that asked', async () => {
    const documents = await builtinDocumentsOnce();
    const node = await startReferenceNode();
    try {
      const run = await runConformance({ target: referenceNodeTarget(node), documents, requirements: [], preflight: false });
      expect(run.releases.map((r) => [r.interface, r.version, r.request.replace(node.urls.ledger, '')])).toEqual([
        ['ledger', LEDGER_API_VERSION, 'GET /v2/version'],
        ['scan', SPLICE_RELEASE, 'GET /api/scan/version'],
        ['wallet', SPLICE_RELEASE, 'GET /api/validator/version'],
      ]);
    } finally {
      await node.close();
    }
  });
});
