// The operations the description dates, each stated once with the sentences it comes from: the release that
// introduced it, the release since which it is deprecated, and a path it had before it moved. A node that
// states an earlier release than an operation's introduction is of a release without it: the rules needing it
// are not applicable there (engine/release-applicability.ts), a later node must serve it
// (requirements/scan/release-operations.ts), and an older one is asked at the path it had
// (runner/release-paths.ts). test/suites/versions.test.ts holds this table to the Versioning sentences and to
// the built-in documents.
import { releaseBefore } from '../common/releases.ts';
import type { InterfaceName } from '../common/vocabulary.ts';

export interface DatedOperation {
  interface: InterfaceName;
  /** operationId in the built-in document. */
  operation: string;
  /** The release that introduced it (a ledger release line, or a Splice release). */
  since?: string;
  /** The release since which it is deprecated (it is still served). */
  deprecatedSince?: string;
  /** The path it was served at before the release `until`. */
  movedFrom?: { path: string; until: string };
  cites: readonly string[];
}

export const DATED_OPERATIONS: readonly DatedOperation[] = [
  { interface: 'ledger', operation: 'getCommandCompletions', since: '3.5', cites: ['X.versioning.2'] },
  { interface: 'scan', operation: 'getHoldingsStateV1', since: '0.6.0', deprecatedSince: '0.7.5', cites: ['X.versioning.9', 'X.versioning.4'] },
  { interface: 'scan', operation: 'downloadBulkHistoryObject', since: '0.5.16', cites: ['X.versioning.9'] },
  { interface: 'scan', operation: 'listBulkHistoryUpdates', since: '0.5.18', cites: ['X.versioning.9'] },
  { interface: 'scan', operation: 'getPartyToParticipantV1', since: '0.5.17', cites: ['X.versioning.9'] },
  { interface: 'scan', operation: 'getPreviousSvRewardWeight', since: '0.6.9', cites: ['X.versioning.9'] },
  {
    interface: 'scan',
    operation: 'getRewardAccountingRootHash',
    movedFrom: { path: '/v0/reward-accounting-process/rounds/{round_number}/root-hash', until: '0.6.5' },
    cites: ['X.versioning.7'],
  },
  { interface: 'scan', operation: 'getUpdateByIdV0', deprecatedSince: '0.5.10', cites: ['X.versioning.6'] },
];

/** The operations of an interface the description dates after a release the node states ("name (since)"). */
export function introducedAfter(iface: InterfaceName, release: string): string[] {
  return DATED_OPERATIONS.filter((d) => d.interface === iface && d.since !== undefined && releaseBefore(release, d.since) === true).map(
    (d) => `${d.operation} (${d.since})`,
  );
}
