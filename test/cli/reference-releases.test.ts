// run and plan on the embedded reference node: --reference-scan-release and --reference-ledger-release make it
// play an older release; a value of the wrong form is a one-line usage error naming the setting, and with a
// URL (no embedded node) the flags are refused.
import { describe, expect, it } from 'vitest';
import { buildTarget, type RunOptions, runBounds } from '../../cli/run-settings.ts';

const opts = (over: Partial<RunOptions>): RunOptions =>
  ({ spec: [], reportDir: '', runs: '1', seed: '1', timeoutMs: '1000', maxRequests: '10', only: [], skip: [], ...over }) as RunOptions;
const bounds = runBounds(opts({}));

describe('the embedded node of run and plan', () => {
  it('plays the releases --reference-scan-release and --reference-ledger-release name', async () => {
    const { node } = await buildTarget(opts({ referenceScanRelease: '0.5.13', referenceLedgerRelease: '3.4' }), bounds, {});
    try {
      expect(node?.context.release).toEqual({ scan: '0.5.13', scanStated: '0.5.13', ledger: '3.4' });
      expect(((await (await fetch(`${node!.urls.scan}/version`)).json()) as { version: string }).version).toBe('0.5.13');
    } finally {
      await node?.close();
    }
  });

  it('refuses a value of the wrong form, naming the setting it came from', async () => {
    await expect(buildTarget(opts({ referenceScanRelease: '0.5' }), bounds, {})).rejects.toThrow(
      /^--reference-scan-release must be a Splice release x\.y\.z \(digits, e\.g\. \d+\.\d+\.\d+\), got "0\.5"$/,
    );
    await expect(
      buildTarget(
        opts({ referenceLedgerRelease: '3.3', origins: { referenceLedgerRelease: 'CN_CONFORMANCE_REFERENCE_LEDGER_RELEASE (environment)' } }),
        bounds,
        {},
      ),
    ).rejects.toThrow(
      /^CN_CONFORMANCE_REFERENCE_LEDGER_RELEASE \(environment\) must be a ledger release line 3\.4 or 3\.5 \(or 3\.4\.x, 3\.5\.x\), got "3\.3"$/,
    );
  });

  it('refuses them when the target is given by URL', async () => {
    await expect(buildTarget(opts({ scanUrl: 'https://scan.example', referenceScanRelease: '0.5.13' }), bounds, {})).rejects.toThrow(
      /^--reference-scan-release applies to the embedded reference node; a run given --ledger-url, --wallet-url or --scan-url has none$/,
    );
  });
});
