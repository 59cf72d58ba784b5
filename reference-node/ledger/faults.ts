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
  commandIdLeak: 'ledger-command-id-leak',
  filterAndFormatAccepted: 'ledger-filter-and-format-accepted',
  requiredFieldDropped: 'ledger-required-field-dropped',
} as const;

const fault = (name: string, family: string, breaks: string): FaultDefinition => ({ name, interface: 'ledger', family, breaks });

export const LEDGER_FAULTS: FaultDefinition[] = [
  fault(LF.beginInclusive, 'offset window', 'The element whose offset equals beginExclusive is returned, although only strictly greater offsets may be.'),
  fault(LF.endIgnored, 'offset window', 'Elements with offsets beyond endInclusive are returned.'),
  fault(LF.descendingIgnored, 'ordering', 'With descendingOrder true the elements still come in ascending offset order.'),
  fault(LF.descendingWithoutEndAccepted, 'request validation', 'descendingOrder without endInclusive is accepted instead of being rejected with 400.'),
  fault(LF.limitIgnored, 'limits', 'The limit query parameter is ignored, so more elements than the limit are returned.'),
  fault(LF.invalidLimitAccepted, 'request validation', 'An invalid limit (negative or not an integer) is accepted instead of being rejected with a plain-text 400.'),
  fault(LF.no413, 'limits', 'A result larger than the node list limit is answered 200 with every element instead of 413.'),
  fault(LF.error400AsJson, 'errors', 'The update stream answers 400 with a JSON JsCantonError body instead of text/plain.'),
  fault(LF.errorBodyShape, 'errors', 'JsCantonError bodies lack the required errorCategory field.'),
  fault(LF.acsDeltaLeak, 'ACS-delta filter', 'In the ACS-delta shape a created event of a contract with no requesting stakeholder is returned.'),
  fault(LF.ledgerEffectsLeak, 'ledger-effects filter', 'In the ledger-effects shape events that no requesting party witnesses are returned.'),
  fault(LF.wrongEventKind, 'transaction shape', 'An ACS-delta transaction carries an ExercisedEvent where an ArchivedEvent belongs.'),
  fault(LF.templateFilterIgnored, 'event filters', 'A template filter does not narrow the result: events of every template are returned.'),
  fault(LF.twoKeysUpdate, 'update shape', 'An update object carries two kind keys instead of exactly one.'),
  fault(LF.unrequestedKind, 'update format', 'Reassignments are emitted although includeReassignments is unset.'),
  fault(LF.offsetsNotIncreasing, 'ordering', 'Two consecutive elements of an ascending answer have decreasing offsets.'),
  fault(LF.eventOffsetMismatch, 'record fields', "Events carry an offset different from their update's offset."),
  fault(LF.noAuth, 'authentication', 'The update stream answers requests that carry no credentials instead of 401.'),
  fault(LF.readRightsUnchecked, 'authorization', 'A user may read as parties it has no rights for instead of getting 403.'),
  fault(LF.witnessPartiesTooWide, 'witness parties', 'witnessParties lists parties that were not requested (every stakeholder or witness).'),
  fault(LF.commandIdLeak, 'record fields', 'Transactions carry commandId although no requesting party submitted them.'),
  fault(LF.filterAndFormatAccepted, 'request validation', 'A request with both filter and updateFormat is accepted instead of rejected with 400.'),
  fault(LF.requiredFieldDropped, 'record fields', 'Transaction records lack the required recordTime field.'),
];
