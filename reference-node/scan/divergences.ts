// Divergences of the scan (see fault-definition.ts): the node keeps every rule, yet disagrees with the other
// nodes of its network, so only `cn-conformance compare` notices.
import { declareDivergences } from '../fault-definition.ts';

export const SCAN_DIVERGENCES = declareDivergences('scan', {
  'scan-divergent-holding-amount': {
    family: 'cross-node consistency',
    breaks: "One active holding's initial amount is one unit higher than the network's, wherever the node shows the contract.",
    shows: 'the holdings pages and the update history of the holding: /create_arguments/amount/initialAmount of its contract',
  },
});

export type ScanDivergenceName = (typeof SCAN_DIVERGENCES)[number]['name'];
