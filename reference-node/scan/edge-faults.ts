// Faults of the scan interface at the edges of its rules: boundaries and sentences probed at their edges.
// Part of the scan's catalog (faults.ts).
import { declareFaults } from '../fault-definition.ts';

export const EDGE_FAULTS = declareFaults('scan', {
  'scan-holdings-at-or-before-rounds-up': {
    family: 'snapshot matching',
    breaks: 'record_time_match at_or_before picks the next later snapshot for a time strictly between two snapshots.',
    cites: ['C.holdings-v1.6'],
    rules: ['SCAN-HOLDINGS-AT-OR-BEFORE'],
  },
  'scan-faucet-single-round-spread': {
    family: 'faucet statistics',
    breaks:
      'A validator that collected in a single round reports lastCollectedInRound one after firstCollectedInRound (and one missed round, so the sum still adds up).',
    cites: ['R.scan.38'],
    rules: ['SCAN-FAUCETS-ROUND-ARITHMETIC'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getValidatorFaucetsByValidator'], checks: ['responses'] },
  },
  'scan-reassignment-unassign-id-mismatch': {
    family: 'reassignments',
    breaks: 'An assignment carries another unassign_id than the unassignment of the same contract with the same reassignment_counter.',
    cites: ['R.scan.24'],
    rules: ['SCAN-REASSIGNMENT-PAIR-COUNTER'],
  },
  'scan-record-time-zeros-trimmed': {
    family: 'time format',
    breaks: 'Update history record times drop the trailing zeros of their microsecond digits (.123400 is sent as .1234), on every history endpoint.',
    cites: ['R.scan.9'],
    rules: ['SCAN-HISTORY-RECORD-TIME-SIX-DIGITS'],
  },
  'scan-ans-special-entry-contract-id': {
    family: 'name service',
    breaks: 'The ANS entries the operating organization provides for itself and the operators (no expiry) are listed with a contract_id.',
    cites: ['R.scan.40'],
    rules: ['SCAN-ANS-SPECIAL-NO-CONTRACT'],
  },
  'scan-ans-empty-prefix-none': {
    family: 'name service',
    breaks: 'GET /v0/ans-entries with an empty name_prefix lists only the special entries, not all that an absent prefix lists.',
    cites: ['C.ans.3'],
    rules: ['SCAN-ANS-EMPTY-PREFIX-ALL'],
  },
  'scan-lossless-default-true': {
    family: 'encodings',
    breaks: 'GET /v0/updates/{update_id} without lossless answers in the lossless encoding, not as with lossless=false.',
    cites: ['C.updates-v0.2'],
    rules: ['SCAN-UPDATES-LOSSLESS-DEFAULT'],
  },
  'scan-event-encoding-default-protobuf': {
    family: 'encodings',
    breaks: 'GET /v0/events/{update_id} without daml_value_encoding answers in protobuf_json, not as with compact_json.',
    cites: ['C.events.2'],
    rules: ['SCAN-EVENTS-ENCODING-DEFAULT'],
  },
  'scan-force-acs-stale-migration': {
    family: 'snapshot matching',
    breaks: "POST /v0/state/acs/force takes (and reports) its snapshot under the migration before the scan's current one.",
    cites: ['C.acs-force.4'],
    rules: ['SCAN-HOLDINGS-FORCE-ACS-MIGRATION'],
  },
  'scan-traffic-med-refused': {
    family: 'identifiers',
    breaks: 'A traffic-status member id with the MED (mediator) code is refused with 400, as if only PAR were a code.',
    // The fixture's mediator members lose their traffic status too.
    cites: ['C.traffic.1'],
    rules: ['SCAN-TRAFFIC-MEMBER-ID-400', 'SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED'],
  },
  'scan-synchronizer-prefix-exact-only': {
    family: 'identifiers',
    breaks: 'GET /v0/synchronizer-identities/{domain_id_prefix} finds a synchronizer by its whole id only: a proper prefix is answered 404.',
    cites: ['C.sync-identities.1'],
    rules: ['SCAN-SYNCHRONIZER-IDENTITIES-PREFIX'],
  },
  'scan-participant-id-first-only': {
    family: 'identifiers',
    breaks: 'GET /v1/domains/{domain_id}/parties/{party_id}/participant-id lists only the first participant of a party hosted on several.',
    cites: ['C.participant-id.1'],
    rules: ['SCAN-PARTICIPANT-ID-MULTI-HOSTED', 'SCAN-PARTICIPANT-ID-HOSTS-SEEN'],
  },
  'scan-effective-at-format': {
    family: 'time format',
    breaks: 'Update history effective_at is not ISO 8601 (space separator, no zone), on every history endpoint.',
    cites: ['R.scan.10'],
    rules: [
      'SCAN-UPDATES-EFFECTIVE-AT-ISO',
      'SCAN-UPDATES-V2-EFFECTIVE-AT-ISO',
      'SCAN-EVENTS-UPDATE-EFFECTIVE-AT-ISO',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  'scan-exercised-event-type-missing': {
    family: 'event trees',
    breaks: 'Exercised events of the update history trees carry no event_type, on every history endpoint.',
    cites: ['X.events.6'],
    rules: ['SCAN-UPDATES-EVENT-TYPES', 'SCAN-UPDATES-V2-EVENT-TYPES', 'SCAN-EVENTS-UPDATE-EVENT-TYPES', 'SCAN-UPDATES-BY-ID', 'SCAN-EVENTS-BY-ID'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  'scan-holdings-created-in-earlier-migration': {
    family: 'record shape',
    breaks: 'v1/v2 holdings created in an earlier migration than the requested one still carry created_in_update_id.',
    cites: ['R.scan.3'],
    rules: ['SCAN-HOLDINGS-CREATED-IN-MIGRATION'],
  },
  'scan-holdings-created-at-record-time': {
    family: 'time format',
    breaks: "v1/v2 holdings carry the creating update's record time as created_at, not its ledger effective time.",
    cites: ['R.scan.5'],
    rules: ['SCAN-HOLDINGS-CREATED-AT-EFFECTIVE', 'SCAN-HOLDINGS-V0-MATCHES-V1'],
  },
  'scan-holdings-verbose-arguments': {
    family: 'encodings',
    breaks: 'v1/v2 holdings send create_arguments in the verbose (protobuf_json) encoding instead of compact JSON.',
    cites: ['R.scan.4'],
    rules: ['SCAN-HOLDINGS-CREATE-ARGUMENTS-COMPACT', 'SCAN-HOLDINGS-V0-MATCHES-V1'],
  },
  'scan-holdings-archived-included': {
    family: 'snapshot matching',
    breaks: 'The holdings state includes contracts archived before the snapshot, as if still active.',
    cites: ['C.holdings-v1.2'],
    rules: ['SCAN-HOLDINGS-ACTIVE-AT-SNAPSHOT'],
  },
  'scan-reassignment-migration-shifted': {
    family: 'reassignments',
    breaks: "Reassignments carry the migration id after their synchronizer's (migration_id + 1).",
    cites: ['R.scan.23'],
    rules: ['SCAN-REASSIGNMENT-MIGRATION-OF-SYNCHRONIZER'],
  },
  'scan-ans-prefix-case-folded': {
    family: 'name service',
    breaks: 'name_prefix is matched regardless of letter case, so entries that do not start with it literally are listed.',
    cites: ['C.ans.2'],
    rules: ['SCAN-ANS-NAME-PREFIX'],
    generic: { operations: ['listAnsEntries'], checks: ['relations'] },
  },
  'scan-reward-weight-at-or-before': {
    family: 'reward weight',
    breaks: 'The previous SV reward weight counts a weight change effective exactly at effectiveBefore (at or before, not strictly before).',
    cites: ['C.reward-weight.2'],
    rules: ['SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE'],
  },
  'scan-reward-weight-earliest': {
    family: 'reward weight',
    breaks: 'The previous SV reward weight reports the earliest weight change before effectiveBefore instead of the latest.',
    cites: ['C.reward-weight.4'],
    rules: ['SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE'],
  },
  'scan-ans-expiry-grace-hour': {
    family: 'name service',
    breaks: 'ANS entries stay listed for an hour after they expired.',
    cites: ['C.ans.1'],
    rules: ['SCAN-ANS-NO-EXPIRED'],
  },
  'scan-protobuf-children-reversed': {
    family: 'event trees',
    breaks: 'Event items asked for in the protobuf_json encoding list child_event_ids in the reverse of the order the events occurred.',
    cites: ['R.scan.19'],
    rules: ['SCAN-EVENTS-V2-CHILDREN-IN-ORDER'],
  },
  'scan-lossless-workflow-dropped': {
    family: 'encodings',
    breaks: 'GET /v0/updates/{id}?lossless=true answers an empty workflow_id where lossless=false names the workflow.',
    cites: ['C.updates-v0.3'],
    rules: ['SCAN-UPDATES-LOSSLESS-VARIANTS'],
  },
} as const);
