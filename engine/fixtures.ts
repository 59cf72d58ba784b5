// The ids checks need. They come from a config file or the environment, or are discovered from the target
// itself (engine/discovery); a requirement whose fixture is missing is skipped with the reason, never passed.
import { endpointOf, type InterfaceName } from '../common/vocabulary.ts';

export interface Fixtures {
  // --- scan ---
  /** A migration id with a known ACS snapshot. */
  migrationId?: number;
  /** A record time that is an ACS snapshot time of `migrationId` (exact match). */
  snapshotRecordTime?: string;
  /** Parties owning holdings at that snapshot. */
  holdingOwners?: string[];
  /** Update ids of transactions known to the scan. */
  transactionUpdateIds?: string[];
  /** Update ids of reassignments (assignments and unassignments) known to the scan. */
  reassignmentUpdateIds?: string[];
  /** A synchronizer (domain) id. */
  domainId?: string;
  /** Member ids (PAR::... / MED::...) with traffic on `domainId`. */
  memberIds?: string[];
  /** Onboarded validator party ids. */
  validatorIds?: string[];
  /** Parties to look up participant ids for on `domainId`. */
  partyIds?: string[];
  /**
   * Participants seen hosting parties, per synchronizer (the topology events of the ledger's update stream,
   * read to its end, revocations applied): the scan's participant ids of each party include them.
   */
  partyHosting?: Array<{ party: string; synchronizerId: string; participants: string[] }>;
  /** Reward-accounting round numbers to ask root hashes for. */
  rounds?: number[];
  /** SV parties for reward-weight lookups. */
  svParties?: string[];
  /**
   * Accepted reward-weight changes (update-SV-reward-weight votes): the SV, its new weight and when the change
   * took effect. Every change of each SV named, since the checks take the list as the SV's whole history.
   */
  rewardWeightChanges?: Array<{ svParty: string; weight: string; effectiveAt: string }>;
  /** Parties that have a transfer preapproval. */
  preapprovalParties?: string[];
  /** A record-time range with bulk history objects. */
  bulkRange?: { start: string; end: string };
  // --- ledger ---
  /** Parties hosted on the participant that the ledger credentials may read as. */
  ledgerParties?: string[];
  /** A party the ledger credentials may NOT read as (for the 403 check). */
  ledgerForbiddenParty?: string;
  /** Bearer token of a user with limited read rights (for the 403 check). */
  ledgerLimitedToken?: string;
  /**
   * A JsCommands body without its commandId (the run sets a fresh one): commands on templates the ledger knows,
   * acting as parties the user of ledgerLimitedToken (or else of the ledger token) may act as.
   */
  ledgerCommands?: { commands: unknown[]; actAs: string[]; readAs?: string[]; userId?: string; workflowId?: string };
  /**
   * Synchronizer ids the participant is connected to where the acting party of ledgerCommands may submit: a
   * reassignment moves a contract between two of them (one alone leaves the reassignment checks skipped).
   */
  ledgerSynchronizers?: string[];
  /**
   * A contract the update stream shows created (in a transaction), with the offset of that transaction, a party
   * the ledger token may read as who is a stakeholder of it, and the offset of the transaction archiving it
   * where the stream shows that too.
   */
  ledgerContract?: { contractId: string; offset: number; party: string; archivedOffset?: number };
  /**
   * The node's list limit (`http-list-max-elements-limit`) as its operator set it. No answer of the node tells
   * it (a node refusing a result of exactly its limit looks like a correct node whose limit is one less), so the
   * probes at, one below and one above the bound need it given; discovery never finds it.
   */
  ledgerListLimit?: number;
  // --- wallet ---
  /** Tracking ids of transfer offers of the wallet user, by state. */
  transferOffers?: Partial<Record<'created' | 'accepted' | 'completed' | 'failed', string[]>>;
  /** Tracking ids of transfer offers of ANOTHER wallet user (the configured user must get 404 for them). */
  otherUserTransferOffers?: string[];
  /**
   * Bearer token of the wallet user whose offers otherUserTransferOffers lists: that user asks for them first,
   * so a node that answers by tracking id alone, whoever asks, has the answer to give the configured user.
   */
  otherWalletUserToken?: string;
  /** A party hosted on one participant, to receive bought traffic. */
  trafficReceiverParty?: string;
  /** A party hosted on several participants (buy traffic must refuse it). */
  multiHostedParty?: string;
}

export type FixtureName = keyof Fixtures;

/**
 * The environment variable that may hold the limited user's token instead of the fixture file; curl lines
 * of the checks that send it refer to it rather than show the token.
 */
export const LIMITED_TOKEN_VARIABLE = 'CN_CONFORMANCE_LEDGER_LIMITED_TOKEN';

/** The environment variable that may hold the other wallet user's token instead of the fixture file (as for the limited token). */
export const OTHER_WALLET_TOKEN_VARIABLE = 'CN_CONFORMANCE_OTHER_WALLET_TOKEN';

/** "the scan's GET /api/scan/v0/dso": a discovery source's operation, named as the plan and the report name it. */
const at = (iface: InterfaceName, method: 'GET' | 'POST', path: string) => `the ${iface}'s ${endpointOf(iface, method, path)}`;

export const FIXTURE_HELP: Record<FixtureName, string> = {
  migrationId: `fixtures.migrationId (a migration id with an ACS snapshot; discovery: ${at('scan', 'GET', '/v0/migrations/last')})`,
  snapshotRecordTime: `fixtures.snapshotRecordTime (an ACS snapshot time; discovery: ${at('scan', 'GET', '/v0/state/acs/snapshot-timestamp')}, or with mutations allowed its ${endpointOf('scan', 'POST', '/v0/state/acs/force')})`,
  holdingOwners: `fixtures.holdingOwners (parties owning holdings; discovery: ${at('scan', 'POST', '/v0/state/acs')})`,
  transactionUpdateIds: `fixtures.transactionUpdateIds (discovery: ${at('scan', 'POST', '/v2/updates')}, its ${endpointOf('scan', 'POST', '/v0/events')})`,
  reassignmentUpdateIds: `fixtures.reassignmentUpdateIds (discovery: ${at('scan', 'POST', '/v2/updates')})`,
  domainId: "fixtures.domainId (discovery: synchronizer_id of the scan's updates)",
  memberIds: 'fixtures.memberIds (PAR::/MED:: members; discovery: participant ids of known parties, the mediator)',
  validatorIds: "fixtures.validatorIds (onboarded validator parties; discovery: the ACS's validator licenses)",
  partyIds: 'fixtures.partyIds',
  partyHosting:
    'fixtures.partyHosting [{party, synchronizerId, participants}] (participants hosting each party; discovery: the participant authorization events of the ledger stream, read to its end)',
  rounds: `fixtures.rounds (reward-accounting round numbers; discovery: ${at('scan', 'GET', '/v0/internal/reward-accounting-process/rounds/earliest-available')}, its event history)`,
  svParties: `fixtures.svParties (discovery: ${at('scan', 'GET', '/v0/dso')})`,
  rewardWeightChanges:
    "fixtures.rewardWeightChanges [{svParty, weight, effectiveAt}] (every accepted reward-weight change of those SVs; discovery: the scan's accepted vote results)",
  preapprovalParties: "fixtures.preapprovalParties (discovery: the ACS's transfer preapprovals)",
  bulkRange: "fixtures.bulkRange {start, end} (discovery: the record times of the scan's updates)",
  ledgerParties: "fixtures.ledgerParties (parties the ledger token may read as; discovery: the token's user rights)",
  ledgerForbiddenParty: "fixtures.ledgerForbiddenParty (discovery: a hosted party outside the limited token's rights)",
  ledgerLimitedToken: 'fixtures.ledgerLimitedToken (discovery: the wallet token, when the ledger knows its user with limited rights)',
  ledgerCommands:
    'fixtures.ledgerCommands {commands, actAs, ...} (a JsCommands body without commandId that the user of ledgerLimitedToken, or else of the ledger token, may submit; discovery: a contract that user signs alone, created and archived in one transaction)',
  ledgerSynchronizers: `fixtures.ledgerSynchronizers (synchronizer ids where the acting party of ledgerCommands may submit, two or more to reassign; discovery: ${at('ledger', 'GET', '/v2/state/connected-synchronizers')} asked with party=...)`,
  ledgerContract:
    'fixtures.ledgerContract {contractId, offset, party, archivedOffset?} (a contract the update stream shows created at offset, read as party, and archived at archivedOffset; discovery: the bounded read of the update stream)',
  ledgerListLimit:
    "fixtures.ledgerListLimit (the ledger node's http-list-max-elements-limit setting, from its operator; no discovery: the node's answers do not tell it)",
  transferOffers:
    "fixtures.transferOffers {created: [...], failed: [...]} (tracking ids of the wallet user; discovery: the ledger history, the wallet's offers, or one created with mutations allowed)",
  otherUserTransferOffers: "fixtures.otherUserTransferOffers (tracking ids of another wallet user's transfer offers; discovery: the ledger history)",
  otherWalletUserToken: `fixtures.otherWalletUserToken (a bearer token of the wallet user whose offers otherUserTransferOffers lists, or ${OTHER_WALLET_TOKEN_VARIABLE}; no discovery)`,
  trafficReceiverParty: 'fixtures.trafficReceiverParty (discovery: a validator party)',
  multiHostedParty: 'fixtures.multiHostedParty (discovery: topology events of the ledger history)',
};

/** Fixtures only the target's operator knows (settings of the node): no discovery source provides them. */
export const OPERATOR_FIXTURES: readonly FixtureName[] = ['ledgerListLimit', 'otherWalletUserToken'];

export function missingFixtures(f: Fixtures, needs: readonly FixtureName[]): FixtureName[] {
  return needs.filter((n) => {
    const v = f[n];
    return v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  });
}
