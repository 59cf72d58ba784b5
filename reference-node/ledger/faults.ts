// Faults of the ledger interface: each switches on one violation of one rule of the description, so the
// suite can prove it notices. Routes read them through `ctx.faults.has(LF.name)`.
import type { FaultDefinition } from '../faults.ts';

/** Fault names, so that code and tests refer to them without string typos. */
export const LF = {
  beginInclusive: 'ledger-begin-inclusive',
  endIgnored: 'ledger-end-ignored',
  descendingIgnored: 'ledger-descending-ignored',
  descendingWithoutEndAccepted: 'ledger-descending-without-end-accepted',
  limitIgnored: 'ledger-limit-ignored',
  invalidLimitAccepted: 'ledger-invalid-limit-accepted',
  no413: 'ledger-no-413',
  error400AsJson: 'ledger-error-400-as-json',
  errorBodyShape: 'ledger-error-body-shape',
  acsDeltaLeak: 'ledger-acs-delta-leak',
  ledgerEffectsLeak: 'ledger-ledger-effects-leak',
  wrongEventKind: 'ledger-wrong-event-kind',
  templateFilterIgnored: 'ledger-template-filter-ignored',
  twoKeysUpdate: 'ledger-two-keys-update',
  unrequestedKind: 'ledger-unrequested-kind',
  offsetsNotIncreasing: 'ledger-offsets-not-increasing',
  eventOffsetMismatch: 'ledger-event-offset-mismatch',
  noAuth: 'ledger-no-auth',
  readRightsUnchecked: 'ledger-read-rights-unchecked',
  witnessPartiesTooWide: 'ledger-witness-parties-too-wide',
  filterAndFormatAccepted: 'ledger-filter-and-format-accepted',
  requiredFieldDropped: 'ledger-required-field-dropped',
  pagingGap: 'ledger-paging-gap',
  ledgerEffectsArchived: 'ledger-ledger-effects-archived',
  acsDeltaReassignmentLeak: 'ledger-acs-delta-reassignment-leak',
  tokenSignatureUnchecked: 'ledger-token-signature-unchecked',
  anyPartyReadUnchecked: 'ledger-any-party-read-unchecked',
  templateFilterPackageNameOnly: 'ledger-template-filter-package-name-only',
  ledgerEffectsParticipantView: 'ledger-ledger-effects-participant-view',
  transactionsAlwaysIncluded: 'ledger-transactions-always-included',
  checkpointKindMisnamed: 'ledger-checkpoint-kind-misnamed',
  witnessPartiesAllRequesters: 'ledger-witness-parties-all-requesters',
  commandBadJson500: 'ledger-command-bad-json-500',
  completionsBodyIgnored: 'ledger-completions-body-ignored',
  overviewJsonAsText: 'ledger-overview-json-as-text',
} as const;

const fault = (name: string, family: string, breaks: string, detectedBy: string[]): FaultDefinition => ({ name, interface: 'ledger', family, breaks, detectedBy });

export const LEDGER_FAULTS: FaultDefinition[] = [
  fault(LF.beginInclusive, 'offset window', 'The element whose offset equals beginExclusive is returned, although only strictly greater offsets may be.', ['LEDGER-UPDATES-BEGIN-EXCLUSIVE']),
  fault(LF.endIgnored, 'offset window', 'Elements with offsets beyond endInclusive are returned.', ['LEDGER-UPDATES-END-INCLUSIVE']),
  fault(LF.descendingIgnored, 'ordering', 'With descendingOrder true the elements still come in ascending offset order.', ['LEDGER-UPDATES-DESCENDING']),
  fault(LF.descendingWithoutEndAccepted, 'request validation', 'descendingOrder without endInclusive is accepted instead of being rejected with 400.', ['LEDGER-UPDATES-DESCENDING-NEEDS-END']),
  fault(LF.limitIgnored, 'limits', 'The limit query parameter is ignored, so more elements than the limit are returned.', ['LEDGER-UPDATES-LIMIT']),
  fault(LF.invalidLimitAccepted, 'request validation', 'An invalid limit (negative or not an integer) is accepted instead of being rejected with a plain-text 400.', ['LEDGER-UPDATES-INVALID-REQUEST-400']),
  // Observable only where some read exceeds the list limit: every read of the default history stays under the
  // default limit of 500 (at most 474 elements), so a node with this fault needs a smaller listLimit (e.g. 200).
  fault(LF.no413, 'limits', 'A result larger than the node list limit is answered 200 with every element instead of 413.', ['LEDGER-UPDATES-LIST-LIMIT-413']),
  fault(LF.error400AsJson, 'errors', 'The update stream answers 400 with a JSON JsCantonError body instead of text/plain.', ['LEDGER-UPDATES-400-TEXT-PLAIN']),
  fault(LF.errorBodyShape, 'errors', 'JsCantonError bodies lack the required errorCategory field.', ['LEDGER-UPDATES-ERROR-BODY']),
  fault(LF.acsDeltaLeak, 'ACS-delta filter', 'In the ACS-delta shape a created event of a contract with no requesting stakeholder is returned.', ['LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER']),
  fault(LF.ledgerEffectsLeak, 'ledger-effects filter', 'In the ledger-effects shape events that no requesting party witnesses are returned.', ['LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS']),
  fault(LF.wrongEventKind, 'transaction shape', 'An ACS-delta transaction carries an ExercisedEvent where an ArchivedEvent belongs.', ['LEDGER-UPDATES-ACS-DELTA-EVENT-KINDS']),
  fault(LF.templateFilterIgnored, 'event filters', 'A template filter does not narrow the result: events of every template are returned.', ['LEDGER-UPDATES-TEMPLATE-FILTER']),
  fault(LF.twoKeysUpdate, 'update shape', 'An update object carries two kind keys instead of exactly one.', ['LEDGER-UPDATES-ONE-KIND']),
  fault(LF.unrequestedKind, 'update format', 'Reassignments are emitted although includeReassignments is unset.', ['LEDGER-UPDATES-REQUESTED-KINDS']),
  fault(LF.offsetsNotIncreasing, 'ordering', 'Two consecutive elements of an ascending answer have decreasing offsets.', ['LEDGER-UPDATES-ASCENDING']),
  fault(LF.eventOffsetMismatch, 'record fields', "Events carry an offset different from their update's offset.", ['LEDGER-UPDATES-EVENT-OFFSET']),
  fault(LF.noAuth, 'authentication', 'The update stream answers requests that carry no credentials instead of 401.', ['LEDGER-UPDATES-AUTH-REQUIRED']),
  fault(LF.readRightsUnchecked, 'authorization', 'A user may read as parties it has no rights for instead of getting 403.', ['LEDGER-UPDATES-READ-RIGHTS']),
  fault(LF.witnessPartiesTooWide, 'witness parties', 'witnessParties lists parties that were not requested (every stakeholder or witness).', ['LEDGER-UPDATES-WITNESS-PARTIES']),
  // No requirement: no answer shows who submitted a transaction, so a leaked commandId cannot be told apart
  // target-agnostically (it would need a fixture naming a transaction's submitters).
  fault(LF.filterAndFormatAccepted, 'request validation', 'A request with both filter and updateFormat is accepted instead of rejected with 400.', ['LEDGER-UPDATES-FILTER-WITH-FORMAT-REJECTED']),
  fault(LF.requiredFieldDropped, 'record fields', 'Transaction records lack the required recordTime field.', ['LEDGER-UPDATES-RECORD-FIELDS']),
  // A window starting at 0 is read whole, so only reads that page through the history show the gap; both
  // directions drop the same (lowest-offset) update, so ascending and descending reads still agree.
  fault(LF.pagingGap, 'offset window', 'A read whose beginExclusive lies inside the history silently drops its first update, which a window starting earlier returns.', ['LEDGER-UPDATES-PAGING-COMPLETE']),
  // Only consuming exercises whose created descendants all have a requesting stakeholder are replaced, so no
  // created event loses the exercise that shows why a requesting party witnesses it.
  fault(LF.ledgerEffectsArchived, 'transaction shape', 'A ledger-effects transaction carries an ArchivedEvent where the ExercisedEvent of a consuming choice belongs.', ['LEDGER-UPDATES-LEDGER-EFFECTS-EVENT-KINDS']),
  // Second faults of their families: another way a real node breaks the same rule.
  fault(LF.acsDeltaReassignmentLeak, 'ACS-delta filter', 'Assignments are delivered to the requesting parties whose filters select the template, whether or not one of them is a stakeholder of the reassigned contract.', ['LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER']),
  fault(LF.tokenSignatureUnchecked, 'authentication', "Bearer tokens are decoded without verifying their signature, so a token with a forged signature is accepted as its subject.", ['LEDGER-UPDATES-AUTH-REQUIRED']),
  fault(LF.anyPartyReadUnchecked, 'authorization', 'Read rights are checked for the parties a request names only: a filtersForAnyParty read by a user without the right to read as any party is served.', ['LEDGER-UPDATES-READ-RIGHTS']),
  fault(LF.templateFilterPackageNameOnly, 'event filters', 'Template filters are compared by package name only (#name:Module:Entity): a filter naming the template by package id matches nothing.', ['LEDGER-UPDATES-TEMPLATE-FILTER']),
  fault(LF.ledgerEffectsParticipantView, 'ledger-effects filter', "The ledger-effects shape shows what any party hosted on the participant witnesses, not only the requesting parties (witnessParties name those hosted witnesses).", ['LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS', 'LEDGER-UPDATES-WITNESS-PARTIES']),
  fault(LF.transactionsAlwaysIncluded, 'update format', 'Transactions are emitted although includeTransactions is unset (read with the reassignment filters, or a wildcard).', ['LEDGER-UPDATES-REQUESTED-KINDS']),
  // A misnamed checkpoint is also none of the kinds a read may carry.
  fault(LF.checkpointKindMisnamed, 'update shape', 'Offset checkpoints are sent under the key offsetCheckpoint instead of OffsetCheckpoint, a kind the Update one-of does not have.', ['LEDGER-UPDATES-ONE-KIND', 'LEDGER-UPDATES-REQUESTED-KINDS']),
  fault(LF.witnessPartiesAllRequesters, 'witness parties', 'witnessParties list every requesting party hosted here, including those that do not see the event.', ['LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS']),
  // Faults of the overview endpoints, visible to the checks derived from the document only.
  fault(LF.commandBadJson500, 'request validation', 'A command submission whose body is not JSON is answered 500 (the parse error escapes) instead of 400.', [
    'GENERIC-LEDGER-SUBMIT-AND-WAIT-INVALID-INPUT', 'GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-TRANSACTION-INVALID-INPUT', 'GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-REASSIGNMENT-INVALID-INPUT',
    'GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-TRANSACTION-TREE-INVALID-INPUT', 'GENERIC-LEDGER-SUBMIT-ASYNC-INVALID-INPUT', 'GENERIC-LEDGER-SUBMIT-REASSIGNMENT-ASYNC-INVALID-INPUT',
  ]),
  fault(LF.completionsBodyIgnored, 'request validation', 'The completion endpoints never read their body: one that is not JSON is answered 200 with no completions instead of 400.', [
    'GENERIC-LEDGER-GET-COMPLETIONS-INVALID-INPUT', 'GENERIC-LEDGER-GET-COMMAND-COMPLETIONS-INVALID-INPUT',
  ]),
  // Every overview operation that answers JSON (the package download answers bytes).
  fault(LF.overviewJsonAsText, 'documented answers', 'The overview endpoints send their JSON answers serialized by hand, labelled text/plain instead of application/json.', [
    'SUBMIT-AND-WAIT', 'SUBMIT-AND-WAIT-FOR-TRANSACTION', 'SUBMIT-AND-WAIT-FOR-REASSIGNMENT', 'SUBMIT-AND-WAIT-FOR-TRANSACTION-TREE', 'SUBMIT-ASYNC', 'SUBMIT-REASSIGNMENT-ASYNC',
    'GET-COMPLETIONS', 'GET-COMMAND-COMPLETIONS', 'GET-VERSION', 'VALIDATE-DAR', 'UPLOAD-DAR', 'LIST-PACKAGES', 'UPLOAD-PACKAGES', 'GET-PACKAGE-STATUS', 'GET-PACKAGE-VETTING', 'POST-PACKAGE-VETTING',
  ].map((op) => `GENERIC-LEDGER-${op}-RESPONSES`)),
];
