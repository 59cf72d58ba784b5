// The suite's target configuration for a bench node, as `run` builds it for the embedded node.
import { DEFAULT_BOUNDS, type TargetConfig } from '../engine/target.ts';
import type { NodeInfo } from './node-process.ts';

export function benchTarget(info: NodeInfo, bounds: Partial<typeof DEFAULT_BOUNDS> = {}): TargetConfig {
  return {
    ledger: { url: info.urls.ledger, credentials: { bearer: info.credentials.ledgerAdminToken } },
    wallet: { url: info.urls.validator, credentials: { bearer: info.credentials.walletUsers[0]!.token } },
    scan: { url: info.urls.scan },
    fixtures: info.fixtures,
    // Read-only: the bench replays and re-reads, so the node must answer the same every time.
    allowMutations: false,
    ...DEFAULT_BOUNDS,
    ...bounds,
  };
}
