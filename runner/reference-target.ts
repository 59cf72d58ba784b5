// The target of an embedded reference node: its URLs, an admin and a wallet user token, its fixtures.
// The node is disposable, so checks that change its state run too.
import { referenceFixtures } from '../reference-node/fixtures.ts';
import type { RunningReferenceNode } from '../reference-node/index.ts';
import { DEFAULT_BOUNDS, type TargetConfig } from '../engine/target.ts';

export function referenceNodeTarget(node: RunningReferenceNode, overrides: Partial<TargetConfig> = {}): TargetConfig {
  return {
    ledger: { url: node.urls.ledger, credentials: { bearer: node.credentials.ledgerAdminToken } },
    wallet: { url: node.urls.validator, credentials: { bearer: node.credentials.walletUsers[0]!.token } },
    scan: { url: node.urls.scan },
    fixtures: referenceFixtures(node),
    allowMutations: true,
    ...DEFAULT_BOUNDS,
    ...overrides,
  };
}
