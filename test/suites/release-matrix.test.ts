// The suite against the releases a network runs: the reference node plays an older scan release or ledger
// line (--reference-scan-release, --reference-ledger-release), and a certification run with mutations is
// conformant there, with exactly what the description dates after the stated release not applicable: every
// requirement that needs only such operations, and nothing else. A node that states a newer release than it
// serves fails on what it lacks.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseBefore } from '../../common/releases.ts';
import { DATED_OPERATIONS } from '../../description/versions.ts';
import type { ConformanceReport } from '../../reporting/model.ts';
import { runConformance } from '../../runner/run-conformance.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

/** Cases per property: the releases change which operations exist, not what a generated case shows. */
const RUNS = '1';

/** The operations the description dates after the releases (scan's Splice release, ledger's line). */
function datedAfter(scan: string, ledger: string): string[] {
  return DATED_OPERATIONS.filter((d) => d.since && releaseBefore(d.interface === 'scan' ? scan : ledger, d.since) === true).map((d) => d.operation);
}

async function certify(scan: string, ledger: string): Promise<{ code: number; stdout: string; report: ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'cn-releases-'));
  const { code, stdout } = await cliInProcess([
    'run',
    '--reference-scan-release',
    scan,
    '--reference-ledger-release',
    ledger,
    '--certify',
    '--allow-mutations',
    '--runs',
    RUNS,
    '--report-dir',
    dir,
    '--no-allure',
  ]);
  return { code, stdout, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ConformanceReport };
}

describe('the release matrix', () => {
  for (const [scan, ledger] of [
    ['0.5.5', '3.4'],
    ['0.5.13', '3.5'],
    ['0.6.4', '3.5'],
  ] as const) {
    it(`scan ${scan}, ledger ${ledger}: conformant under --certify, not applicable exactly where the description dates later`, async () => {
      const { code, stdout, report } = await certify(scan, ledger);
      const later = new Set(datedAfter(scan, ledger));
      expect(report.verdict, report.judgement.reasons.join('; ')).toBe('conformant');
      expect(code).toBe(0);
      const stated = (i: string) => report.releases?.find((r) => r.interface === i)?.version ?? '';
      expect(stated('scan')).toBe(scan);
      expect(stated('ledger').startsWith(`${ledger}.`), stated('ledger')).toBe(true);
      // Every result not applicable names an operation dated after the release, and the release that decided it.
      const inapplicable = report.requirements.filter((r) => r.status === 'not-applicable');
      for (const r of inapplicable) {
        const named = [...later].filter((op) => r.reason?.includes(op));
        const wholeRelease = /before every operation the description dates|before 3\.5: the endpoint need not exist there/.test(r.reason ?? '');
        expect(named.length > 0 || wholeRelease, `${r.id}: ${r.reason}`).toBe(true);
      }
      // Every requirement that needs nothing but such operations is not applicable.
      const onlyLater = report.requirements.filter((r) => r.operations.length > 0 && r.operations.every((op) => later.has(op)));
      expect(onlyLater.filter((r) => r.status !== 'not-applicable').map((r) => `${r.id} ${r.status}`)).toEqual([]);
      expect(report.summary.notApplicable).toBe(inapplicable.length);
      // The operations left out of the confirmed count are exactly those, and the console lists them with the release.
      expect(report.judgement.operations?.notApplicable?.map((o) => o.operation.split(' ')[1]).sort()).toEqual([...later].sort());
      expect(stdout).toContain(`Not applicable to the releases the nodes state (${inapplicable.length}`);
      for (const d of DATED_OPERATIONS.filter((x) => later.has(x.operation)))
        expect(stdout).toContain(`not applicable: ${d.operation} came in ${d.since}, and the ${d.interface} states release ${stated(d.interface)}`);
    });
  }

  it('a scan that states a newer release than it plays fails on the operations it lacks, and is judged normally on the rest', async () => {
    const documents = await builtinDocumentsOnce();
    const node = await startReferenceNode({ releases: { scan: '0.5.13', scanStated: '0.7.5' } });
    try {
      const scanOnly = catalog(documents.specs).filter((r) => r.interface === 'scan');
      const target = { ...referenceNodeTarget(node), runs: Number(RUNS) };
      const run = await runConformance({ target, documents, requirements: scanOnly });
      const failed = run.requirements.filter((r) => r.status === 'failed');
      const lacking = datedAfter('0.5.13', '3.5');
      expect(run.requirements.filter((r) => r.status === 'not-applicable')).toEqual([]);
      const versioning = failed.find((r) => r.id === 'SCAN-RELEASE-SERVES-DATED-OPERATIONS');
      expect(versioning?.reason).toMatch(
        /^the scan states release 0\.7\.5 \(GET \S+\/api\/scan\/version\), which has getHoldingsStateV1 \(since 0\.6\.0\), yet/,
      );
      // What the other checks of those operations make of the unknown path is theirs (unsupported, or a failed
      // status): never a pass, and never "not applicable" to the release it states.
      for (const op of lacking) {
        const generic = run.requirements.find((r) => r.operations.includes(op) && r.id.startsWith('GENERIC-') && r.id.endsWith('-RESPONSES'));
        expect(['unsupported', 'failed'], `${op}: ${generic?.status}`).toContain(generic?.status);
      }
      // Everything that fails needs an operation the release it states has and it lacks, or the root hash at the
      // path 0.7.5 serves it (moved there in 0.6.5; this node has the old one).
      const explained = [...lacking, 'getRewardAccountingRootHash'];
      expect(failed.filter((r) => !r.operations.some((op) => explained.includes(op))).map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    } finally {
      await node.close();
    }
  });
});
