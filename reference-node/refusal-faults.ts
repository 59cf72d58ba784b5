// Faults that refuse one operation: every request to it that a correct node would go on to handle (its
// credentials verified, where it asks for any) is answered a plausible 400 in the interface's error shape, as a
// node whose handler rejects every input would. One per operation of the built-in documents, so that each
// operation's positive requirement is shown to fail when the operation does not do its job (refusals.ts
// switches them on).
import type { InterfaceName } from '../common/vocabulary.ts';
import type { FaultDefinition } from './fault-definition.ts';

export interface Served {
  interface: InterfaceName;
  /** operationId in the built-in document. */
  operation: string;
  method: string;
  /** Full path with `{}` for each parameter. */
  path: string;
  /** The node verifies a bearer token before its handler runs: a request without a valid one is not refused here. */
  credentials: boolean;
  /**
   * The refusal's status: 400, except where a 400 is a correct node's answer to a valid request (force-ACS,
   * which production environments disable): there the broken handler fails with a 500.
   */
  refusal: 400 | 500;
  /** The sentences stating what the operation does or answers, which refusing its every request breaks. */
  cites: readonly string[];
}

const op = (
  iface: InterfaceName,
  operation: string,
  method: string,
  path: string,
  credentials: boolean,
  cites: readonly string[],
  refusal: 400 | 500 = 400,
): Served => ({
  interface: iface,
  operation,
  method,
  path,
  credentials,
  refusal,
  cites,
});

/** The operations of the built-in documents, where the node serves them (test/reference-node/refusals.test.ts holds it to the documents). */
export const SERVED_OPERATIONS: readonly Served[] = [
  op('ledger', 'getUpdates', 'POST', '/v2/updates', true, ['A.updates.6']),
  op('ledger', 'submitAndWait', 'POST', '/v2/commands/submit-and-wait', true, ['A.overview.2']),
  op('ledger', 'submitAndWaitForTransaction', 'POST', '/v2/commands/submit-and-wait-for-transaction', true, ['A.overview.4']),
  op('ledger', 'submitAndWaitForReassignment', 'POST', '/v2/commands/submit-and-wait-for-reassignment', true, ['A.overview.6']),
  op('ledger', 'submitAndWaitForTransactionTree', 'POST', '/v2/commands/submit-and-wait-for-transaction-tree', true, ['A.overview.8']),
  op('ledger', 'submitAsync', 'POST', '/v2/commands/async/submit', true, ['A.overview.10']),
  op('ledger', 'submitReassignmentAsync', 'POST', '/v2/commands/async/submit-reassignment', true, ['A.overview.12']),
  op('ledger', 'getCompletions', 'POST', '/v2/commands/completions', true, ['A.overview.14']),
  op('ledger', 'getCommandCompletions', 'POST', '/v2/commands/command-completions', true, ['A.overview.17']),
  op('ledger', 'getEventsByContractId', 'POST', '/v2/events/events-by-contract-id', true, ['A.overview.19']),
  op('ledger', 'getVersion', 'GET', '/v2/version', true, ['A.overview.22']),
  op('ledger', 'validateDar', 'POST', '/v2/dars/validate', true, ['A.overview.24']),
  op('ledger', 'uploadDar', 'POST', '/v2/dars', true, ['A.overview.26']),
  op('ledger', 'listPackages', 'GET', '/v2/packages', true, ['A.overview.28']),
  op('ledger', 'uploadPackages', 'POST', '/v2/packages', true, ['A.overview.30']),
  op('ledger', 'getPackage', 'GET', '/v2/packages/{}', true, ['A.overview.32']),
  op('ledger', 'getPackageStatus', 'GET', '/v2/packages/{}/status', true, ['A.overview.34']),
  op('ledger', 'getPackageVetting', 'GET', '/v2/package-vetting', true, ['A.overview.36']),
  op('ledger', 'postPackageVetting', 'POST', '/v2/package-vetting', true, ['A.overview.36']),
  op('wallet', 'createBuyTrafficRequest', 'POST', '/api/validator/v0/wallet/buy-traffic-requests', true, ['B.buy-traffic.1']),
  op('wallet', 'getTransferOfferStatus', 'POST', '/api/validator/v0/wallet/transfer-offers/{}/status', true, ['B.transfer-status.3']),
  op('wallet', 'getDsoPartyId', 'GET', '/api/validator/v0/scan-proxy/dso-party-id', false, ['B.dso-party-id.2']),
  op('scan', 'getHoldingsStateV0', 'POST', '/api/scan/v0/holdings/state', false, ['C.holdings-v0.1']),
  op('scan', 'getHoldingsStateV1', 'POST', '/api/scan/v1/holdings/state', false, ['C.holdings-v1.2']),
  op('scan', 'getHoldingsStateV2', 'POST', '/api/scan/v2/holdings/state', false, ['X.versioning.5']),
  op('scan', 'getUpdateByIdV0', 'GET', '/api/scan/v0/updates/{}', false, ['C.updates-v0.4']),
  op('scan', 'getUpdateByIdV2', 'GET', '/api/scan/v2/updates/{}', false, ['X.versioning.6']),
  op('scan', 'getEventById', 'GET', '/api/scan/v0/events/{}', false, ['C.events.4']),
  op('scan', 'listBulkHistoryUpdates', 'POST', '/api/scan/v0/history/bulk/updates', false, ['C.bulk-updates.1']),
  op('scan', 'downloadBulkHistoryObject', 'GET', '/api/scan/v0/history/bulk/download/{}', false, ['C.bulk-download.1']),
  op('scan', 'getTransferPreapprovalByParty', 'GET', '/api/scan/v0/transfer-preapprovals/by-party/{}', false, ['C.preapproval.1']),
  op('scan', 'getMemberTrafficStatus', 'GET', '/api/scan/v0/domains/{}/members/{}/traffic-status', false, ['C.traffic.2']),
  op('scan', 'getValidatorFaucetsByValidator', 'GET', '/api/scan/v0/validators/validator-faucets', false, ['C.faucets.3']),
  op('scan', 'getPartyToParticipantV1', 'GET', '/api/scan/v1/domains/{}/parties/{}/participant-id', false, ['C.participant-id.2']),
  op('scan', 'listUnclaimedDevelopmentFundCoupons', 'GET', '/api/scan/v0/unclaimed-development-fund-coupons', false, ['C.dev-fund.1']),
  op('scan', 'getPreviousSvRewardWeight', 'POST', '/api/scan/v0/admin/sv/previous-sv-reward-weight', false, ['C.reward-weight.3']),
  op('scan', 'getSynchronizerIdentities', 'GET', '/api/scan/v0/synchronizer-identities/{}', false, ['C.sync-identities.2']),
  op('scan', 'getFeatureSupport', 'GET', '/api/scan/v0/feature-support', false, ['C.feature-support.1']),
  op('scan', 'listAnsEntries', 'GET', '/api/scan/v0/ans-entries', false, ['C.ans.1']),
  op('scan', 'forceAcsSnapshotNow', 'POST', '/api/scan/v0/state/acs/force', false, ['C.acs-force.1'], 500),
  op('scan', 'getBackfillingStatus', 'GET', '/api/scan/v0/backfilling/status', false, ['C.backfilling.1']),
  op('scan', 'getRewardAccountingRootHash', 'GET', '/api/scan/v0/internal/reward-accounting-process/rounds/{}/root-hash', false, ['C.root-hash.2']),
];

/** getHoldingsStateV1 -> get-holdings-state-v1 */
const kebab = (operationId: string) =>
  operationId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();

export type RefusalFaultName = `${InterfaceName}-refuses-${string}`;

/** The name of the fault that refuses `operation` of `iface`: scan-refuses-get-holdings-state-v1. */
export const refusalFault = (iface: InterfaceName, operation: string): RefusalFaultName => `${iface}-refuses-${kebab(operation)}`;

export const REFUSAL_FAULTS: ReadonlyArray<FaultDefinition<RefusalFaultName>> = SERVED_OPERATIONS.map((s) => ({
  name: refusalFault(s.interface, s.operation),
  interface: s.interface,
  family: 'positive requests',
  breaks: `Every valid request to ${s.operation} (${s.method} ${s.path.replace(/\{\}/g, '{...}')}) is refused with a plausible ${s.refusal} in the interface's error shape.`,
  cites: s.cites,
  rules: [],
  refuses: s.operation,
}));
