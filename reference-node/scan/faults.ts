// Faults of the scan interface: each breaks exactly one rule of the scan description when switched on.
// Code switches them with `ctx.faults.has('scan-...')`.
import { declareFaults } from '../fault-definition.ts';
import { EDGE_FAULTS } from './edge-faults.ts';
import { EFFECT_FAULTS } from './effect-faults.ts';
import { HISTORY_FAULTS, HOLDINGS_OPERATIONS } from './history-faults.ts';

const RULE_FAULTS = declareFaults('scan', {
  // Holdings paging and filtering
  'scan-holdings-lost-item': {
    family: 'paging',
    breaks: 'Walking the holdings pages misses an active owned contract: each page silently skips its second match.',
    cites: ['C.holdings-v1.14'],
    rules: ['SCAN-HOLDINGS-PAGING-COMPLETE', 'SCAN-HOLDINGS-OWNERS-UNION', 'SCAN-HOLDINGS-PAGING-LAST-PAGE'],
  },
  'scan-holdings-duplicate': {
    family: 'paging',
    breaks: 'A holding appears on two pages: the page token points one position too early.',
    cites: ['C.holdings-v1.14'],
    rules: ['SCAN-HOLDINGS-PAGING-UNIQUE'],
  },
  'scan-holdings-endless-token': {
    family: 'paging',
    breaks: 'next_page_token is present on every page, even when no more holdings remain.',
    cites: ['C.holdings-v1.14'],
    rules: ['SCAN-HOLDINGS-PAGING-TOKEN-ENDS', 'SCAN-HOLDINGS-PAGING-LAST-PAGE'],
  },
  'scan-holdings-page-too-large': {
    family: 'paging',
    breaks: 'A holdings page carries page_size + 1 contracts.',
    cites: ['C.holdings-v1.13'],
    rules: ['SCAN-HOLDINGS-PAGE-SIZE-BOUND', 'SCAN-HOLDINGS-PAGING-LAST-PAGE'],
    generic: { operations: HOLDINGS_OPERATIONS, checks: ['relations'] },
  },
  'scan-holdings-wrong-order': {
    family: 'ordering',
    breaks: 'The contracts of a holdings page are not in creation order (the page is reversed).',
    cites: ['C.holdings-v1.3'],
    rules: ['SCAN-HOLDINGS-CREATION-ORDER'],
  },
  'scan-holdings-owner-leak': {
    family: 'ownership filter',
    breaks: 'A holdings page includes a contract owned by none of owner_party_ids.',
    cites: ['C.holdings-v1.11'],
    rules: ['SCAN-HOLDINGS-OWNER-FILTER'],
  },
  'scan-holdings-exact-ignored': {
    family: 'snapshot matching',
    breaks: 'A record time that is no snapshot time is accepted with record_time_match exact (treated as at_or_before).',
    cites: ['C.holdings-v1.5'],
    rules: ['SCAN-HOLDINGS-EXACT-MATCH'],
  },
  'scan-holdings-empty-owners-accepted': {
    family: 'request validation',
    breaks: 'An empty owner_party_ids list is accepted instead of rejected with 400.',
    cites: ['C.holdings-v1.10', 'X.limits.5'],
    rules: ['SCAN-HOLDINGS-EMPTY-OWNERS-400'],
  },
  'scan-required-field-dropped': {
    family: 'record shape',
    breaks: 'ActiveContract elements of the v1/v2 holdings are sent without the required template_id.',
    cites: ['R.scan.1'],
    rules: ['SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS', 'SCAN-HOLDINGS-V0-MATCHES-V1', 'SCAN-HOLDINGS-V1-OF-OWNERS', 'SCAN-HOLDINGS-V2-OF-OWNERS'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['getHoldingsStateV1', 'getHoldingsStateV2'], checks: ['responses'] },
  },
  'scan-force-acs-time-rejected': {
    family: 'snapshot matching',
    breaks: 'The record time returned by the force-ACS endpoint is not accepted as exact by the holdings endpoints.',
    cites: ['C.acs-force.1'],
    rules: ['SCAN-HOLDINGS-FORCE-ACS-EXACT'],
  },
  // Update history trees and records
  'scan-tree-dangling-root': {
    family: 'event trees',
    breaks: 'root_event_ids names an event id that is not a key of events_by_id, on every history endpoint.',
    cites: ['R.scan.13'],
    rules: [
      'SCAN-UPDATES-TREE-ROOTS-KNOWN',
      'SCAN-UPDATES-V2-TREE-ROOTS-KNOWN',
      'SCAN-EVENTS-UPDATE-TREE-ROOTS-KNOWN',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  'scan-tree-dangling-child': {
    family: 'event trees',
    breaks: 'An exercised event lists a child_event_ids entry that is not a key of events_by_id, on every history endpoint.',
    cites: ['R.scan.14'],
    rules: [
      'SCAN-UPDATES-TREE-CHILDREN-KNOWN',
      'SCAN-UPDATES-V2-TREE-CHILDREN-KNOWN',
      'SCAN-EVENTS-UPDATE-TREE-CHILDREN-KNOWN',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  'scan-tree-event-id-mismatch': {
    family: 'event trees',
    breaks: "A created event's event_id differs from its key in events_by_id, on every history endpoint.",
    cites: ['R.scan.7'],
    rules: [
      'SCAN-UPDATES-CREATED-EVENT-ID',
      'SCAN-UPDATES-V2-CREATED-EVENT-ID',
      'SCAN-EVENTS-UPDATE-CREATED-EVENT-ID',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  'scan-v2-unsorted': {
    family: 'event trees',
    breaks: 'The events_by_id keys of v2 transactions (/v2/updates and event items) are not in lexicographic order.',
    cites: ['R.scan.18'],
    rules: ['SCAN-EVENTS-V2-KEYS-SORTED', 'SCAN-UPDATES-V2-KEYS-SORTED'],
  },
  'scan-reassignment-counter-mismatch': {
    family: 'reassignments',
    breaks: 'An assignment carries a different reassignment_counter than its matching unassignment.',
    cites: ['R.scan.25', 'X.events.8'],
    rules: ['SCAN-REASSIGNMENT-PAIR-COUNTER'],
  },
  'scan-reassignment-counter-not-increasing': {
    family: 'reassignments',
    breaks: 'The reassignment_counter of a contract does not strictly increase with each unassign (it repeats).',
    cites: ['R.scan.26'],
    rules: ['SCAN-REASSIGNMENT-COUNTER-INCREASES'],
  },
  'scan-record-time-format': {
    family: 'time format',
    breaks: 'Update history record_time is not ISO 8601 (a space separates date and time, no zone), on every history endpoint.',
    cites: ['R.scan.9'],
    rules: [
      'SCAN-UPDATES-RECORD-TIME-MICROS',
      'SCAN-UPDATES-V2-RECORD-TIME-MICROS',
      'SCAN-EVENTS-UPDATE-RECORD-TIME-MICROS',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  'scan-offsets-not-increasing': {
    family: 'offsets',
    breaks: 'A later update carries a smaller offset than an earlier one.',
    cites: ['R.scan.12'],
    rules: ['SCAN-UPDATES-OFFSETS-INCREASING'],
  },
  'scan-external-hash-null': {
    family: 'record shape',
    breaks: 'Transactions without an external hash carry external_transaction_hash: null instead of omitting it, on every history endpoint.',
    cites: ['R.scan.16'],
    // The description says "omitted from JSON when null": a rule of its own, and a record fact, so the null is a
    // break of the answer (positive lookups fail with it), not a tolerated null for an absent value.
    rules: [
      'SCAN-UPDATES-EXTERNAL-HASH-OMITTED',
      'SCAN-UPDATES-V2-EXTERNAL-HASH-OMITTED',
      'SCAN-EVENTS-UPDATE-EXTERNAL-HASH-OMITTED',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  // Validators, traffic, parties
  'scan-faucet-arithmetic': {
    family: 'faucet statistics',
    breaks: 'numRoundsCollected + numRoundsMissed differs from lastCollectedInRound - firstCollectedInRound + 1.',
    cites: ['R.scan.38'],
    rules: ['SCAN-FAUCETS-ROUND-ARITHMETIC'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getValidatorFaucetsByValidator'], checks: ['responses'] },
  },
  'scan-faucet-order-dependent': {
    family: 'faucet statistics',
    breaks: 'Faucet statistics are attached to validators by argument position, so the result depends on argument order.',
    cites: ['C.faucets.4'],
    rules: ['SCAN-FAUCETS-ORDER-INDEPENDENT'],
  },
  'scan-traffic-limit-above-purchased': {
    family: 'traffic status',
    breaks: 'total_limit exceeds total_purchased.',
    cites: ['R.scan.36'],
    rules: ['SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED'],
  },
  'scan-member-id-unchecked': {
    family: 'request validation',
    breaks: 'A member id not of the form PAR|MED::id::fingerprint is not rejected with 400.',
    cites: ['C.traffic.1'],
    rules: ['SCAN-TRAFFIC-MEMBER-ID-400'],
  },
  'scan-participant-id-format': {
    family: 'identifiers',
    breaks: 'A participant id is returned without the PAR:: code, not of the form PAR::id::fingerprint.',
    cites: ['C.participant-id.2'],
    rules: ['SCAN-PARTICIPANT-ID-FORMAT', 'SCAN-PARTICIPANT-ID-HOSTS-SEEN'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getPartyToParticipantV1'], checks: ['responses'] },
  },
  // Name service
  'scan-ans-prefix-ignored': {
    family: 'name service',
    breaks: 'ANS entries whose name does not start with name_prefix are listed.',
    cites: ['C.ans.2'],
    rules: ['SCAN-ANS-NAME-PREFIX'],
    generic: { operations: ['listAnsEntries'], checks: ['relations'] },
  },
  'scan-ans-expired-listed': { family: 'name service', breaks: 'Expired ANS entries are listed.', cites: ['C.ans.1'], rules: ['SCAN-ANS-NO-EXPIRED'] },
  'scan-ans-bad-url': {
    family: 'name service',
    breaks: 'An ANS entry carries a url that is neither empty nor an http/https URL.',
    cites: ['R.scan.41'],
    rules: ['SCAN-ANS-URL', 'SCAN-ANS-LOOKUP-BY-NAME'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['listAnsEntries'], checks: ['responses'] },
  },
  // A record fact broken on a carrier other than the one its own rule reads: every answer that carries the
  // record is judged against it (x-cn-record-facts).
  'scan-ans-prefixed-bad-url': {
    family: 'name service',
    breaks: 'With a name_prefix, the last ANS entry listed carries a url that is neither empty nor http/https (the list without a prefix is right).',
    cites: ['R.scan.41'],
    // SCAN-ANS-URL judges the listing with a name_prefix too (a filter of the same listing, C.ans.2).
    rules: ['SCAN-ANS-URL'],
    generic: { operations: ['listAnsEntries'], checks: ['responses'] },
  },
  'scan-events-protobuf-dangling-child': {
    family: 'event trees',
    breaks: 'With daml_value_encoding=protobuf_json only, an exercised event of a /v0/events update lists a child id that is not a key of events_by_id.',
    cites: ['R.scan.14'],
    // The event history's rules judge both encodings (history.ts RENDERINGS); the V2 record is then not v0's.
    rules: ['SCAN-EVENTS-UPDATE-TREE-CHILDREN-KNOWN', 'SCAN-EVENTS-BY-ID', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE'],
    generic: { operations: ['getEventById'], checks: ['responses'] },
  },
  'scan-ans-too-many': {
    family: 'name service',
    breaks: 'More ANS entries than page_size are returned.',
    cites: ['C.ans.4'],
    rules: ['SCAN-ANS-PAGE-SIZE'],
    generic: { operations: ['listAnsEntries'], checks: ['relations'] },
  },
  // Not detectable from outside: an entry's creation time is no field of AnsEntry and no scan endpoint
  // reveals it, so no listing order can be proven wrong (a reversed order is as consistent as the right one).
  // Bulk history
  'scan-bulk-digest-mismatch': {
    family: 'bulk history',
    breaks: 'The digest of an object reference is not the sha256 of the downloaded bytes.',
    cites: ['R.scan.45'],
    rules: ['SCAN-BULK-DOWNLOAD-DIGEST'],
  },
  'scan-bulk-page-size-unchecked': {
    family: 'request validation',
    breaks: 'A bulk page_size outside 1..1000 is accepted instead of rejected with 400.',
    cites: ['C.bulk-updates.5', 'X.limits.4'],
    rules: ['SCAN-BULK-PAGE-SIZE-400'],
  },
  'scan-bulk-page-max-refused': {
    family: 'request validation',
    breaks: 'A bulk page_size of exactly 1000, the upper bound of 1..1000, is refused with 400.',
    cites: ['C.bulk-updates.5', 'X.limits.4'],
    rules: ['SCAN-BULK-PAGE-SIZE-400', 'SCAN-BULK-PAGING-COMPLETE'],
  },
  // The exactly full last page (description/bounds.ts): a token after it is what real scans hand out, and the
  // page it opens must be answered (empty), not refused. (Holdings have no such fault: the reference node's 200
  // holdings of the fixture owners end the shared page_size 100 walk on a full page, so one breaks every rule.)
  'scan-bulk-full-last-page-token-refused': {
    family: 'paging',
    breaks: 'A bulk page that is exactly full and the last carries a next_page_token, and the page it opens is refused with 400.',
    cites: ['C.bulk-updates.7'],
    rules: ['SCAN-BULK-PAGING-COMPLETE'],
  },
  'scan-bulk-token-on-last-page': {
    family: 'paging',
    breaks: 'The last bulk page carries a next_page_token, and the page it opens lists no object.',
    cites: ['C.bulk-updates.7'],
    rules: ['SCAN-BULK-PAGING-COMPLETE'],
  },
  // Errors and rewards
  'scan-error-body-shape': {
    family: 'error shape',
    breaks: 'Error bodies are {message} instead of {error}.',
    cites: ['X.errors.13'],
    rules: ['SCAN-ERRORS-SHAPE'],
    generic: {},
  },
  'scan-error-message-nested': {
    family: 'error shape',
    breaks: 'Error bodies nest the message, {error: {message}}, instead of {error: string}.',
    cites: ['X.errors.13'],
    rules: ['SCAN-ERRORS-SHAPE'],
    generic: {},
  },
  // Every rule that names 400 for a bad input breaks, as well as the general one.
  'scan-bad-input-500': {
    family: 'error status',
    breaks: 'Invalid input is answered 500 instead of 400.',
    cites: ['X.errors.9'],
    rules: [
      'SCAN-ERRORS-BAD-INPUT-NOT-5XX',
      'SCAN-HOLDINGS-EMPTY-OWNERS-400',
      'SCAN-HOLDINGS-EXACT-MATCH',
      'SCAN-TRAFFIC-MEMBER-ID-400',
      'SCAN-BULK-PAGE-SIZE-400',
    ],
    generic: { checks: ['invalid-input'] },
  },
  'scan-root-hash-round-mismatch': {
    family: 'reward accounting',
    breaks: 'An Ok root-hash result carries a round_number other than the requested round.',
    cites: ['C.root-hash.1'],
    rules: ['SCAN-ROOT-HASH-ROUND-ECHOED'],
    generic: { operations: ['getRewardAccountingRootHash'], checks: ['relations'] },
  },
  // Event history items
  'scan-verdict-update-id-mismatch': {
    family: 'event items',
    breaks: 'The verdict of an event item names another update_id than the transaction it was looked up by.',
    cites: ['R.scan.28'],
    rules: ['SCAN-EVENTS-VERDICT-FIELDS', 'SCAN-EVENTS-BY-ID'],
    generic: { operations: ['getEventById'], checks: ['relations'] },
  },
  'scan-verdict-unknown-root-view': {
    family: 'event items',
    breaks: 'The verdict root_views name a view id that is none of its views.',
    cites: ['R.scan.29'],
    rules: ['SCAN-EVENTS-VERDICT-VIEWS'],
  },
  'scan-traffic-envelope-unknown-view': {
    family: 'event items',
    breaks: 'A traffic summary envelope names a view id that is none of the verdict views.',
    cites: ['R.scan.31'],
    rules: ['SCAN-EVENTS-TRAFFIC-SUMMARY'],
  },
  'scan-app-activity-weight-missing': {
    family: 'event items',
    breaks: 'An app activity record is sent without its weight.',
    cites: ['R.scan.32'],
    rules: ['SCAN-EVENTS-APP-ACTIVITY'],
  },
  // Validators, bulk history, rewards, errors
  'scan-faucet-unknown-listed': {
    family: 'faucet statistics',
    breaks: 'An unknown validator id is answered with a record instead of being ignored.',
    cites: ['C.faucets.2'],
    rules: ['SCAN-FAUCETS-UNKNOWN-IGNORED'],
  },
  'scan-bulk-token-skips-object': {
    family: 'paging',
    breaks: 'A bulk next_page_token resumes one object too late, so a paged walk misses objects.',
    cites: ['C.bulk-updates.4'],
    rules: ['SCAN-BULK-PAGING-COMPLETE'],
  },
  'scan-root-hash-not-hex': {
    family: 'reward accounting',
    breaks: 'An Ok root-hash result writes root_hash with a 0x prefix, not as plain hex.',
    cites: ['C.root-hash.2'],
    rules: ['SCAN-ROOT-HASH-RESULT-SHAPE'],
  },
  'scan-reward-weight-number': {
    family: 'reward weight',
    breaks: 'rewardWeight is sent as a JSON number instead of a string.',
    cites: ['C.reward-weight.3'],
    rules: ['SCAN-REWARD-WEIGHT-STRING-OR-ABSENT'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['getPreviousSvRewardWeight'], checks: ['responses'] },
  },
  'scan-reward-weight-before-ignored': {
    family: 'reward weight',
    breaks: 'effectiveBefore is ignored: the latest weight up to now is reported.',
    cites: ['C.reward-weight.2'],
    rules: ['SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE', 'SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE'],
  },
  'scan-unknown-synchronizer-400': {
    family: 'error status',
    breaks: 'An unknown synchronizer id prefix is answered 400 instead of 404.',
    cites: ['C.sync-identities.3'],
    rules: ['SCAN-ERRORS-NOT-FOUND-404'],
  },
  'scan-v2-unknown-update-500': {
    family: 'error status',
    breaks: 'An update id no node knows is answered 500 on /v2/updates instead of 404.',
    cites: ['X.errors.10'],
    rules: ['SCAN-ERRORS-NOT-FOUND-404'],
  },
  // Small reference endpoints
  'scan-backfilling-flag-text': {
    family: 'record shape',
    breaks: 'The backfilling complete flag is sent as the text "true" instead of a boolean.',
    cites: ['C.backfilling.1'],
    rules: ['SCAN-BACKFILLING-COMPLETE-FLAG'],
    generic: { operations: ['getBackfillingStatus'], checks: ['responses'] },
  },
  'scan-feature-flag-text': {
    family: 'record shape',
    breaks: 'The feature-support dummy flag is sent as the text "false" instead of a boolean.',
    cites: ['C.feature-support.1'],
    rules: ['SCAN-FEATURE-SUPPORT'],
    generic: { operations: ['getFeatureSupport'], checks: ['responses'] },
  },
  'scan-synchronizer-mediator-missing': {
    family: 'record shape',
    breaks: 'Synchronizer identities are sent without the required mediator_id.',
    cites: ['C.sync-identities.2'],
    rules: ['SCAN-SYNCHRONIZER-IDENTITIES'],
    generic: { operations: ['getSynchronizerIdentities'], checks: ['responses'] },
  },
  'scan-coupon-wrong-template': {
    family: 'record shape',
    breaks: 'A development fund coupon is listed under a template other than UnclaimedDevelopmentFundCoupon.',
    cites: ['C.dev-fund.1'],
    rules: ['SCAN-DEVELOPMENT-FUND-COUPONS'],
  },
  'scan-preapproval-created-at-text': {
    family: 'time format',
    breaks: 'A transfer preapproval contract carries a created_at that is not an ISO 8601 timestamp.',
    cites: ['R.scan.33'],
    rules: ['SCAN-TRANSFER-PREAPPROVAL'],
  },
  // Second faults of their families: another way a real node breaks the same rule.
  'scan-bulk-download-json-type': {
    family: 'bulk history',
    breaks: 'Bulk objects are downloaded as application/json instead of application/octet-stream.',
    cites: ['C.bulk-download.1'],
    rules: ['SCAN-BULK-DOWNLOAD-DIGEST'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['downloadBulkHistoryObject'], checks: ['responses'] },
  },
  'scan-participant-id-no-fingerprint': {
    family: 'identifiers',
    breaks: 'Participant ids are returned without their namespace fingerprint (PAR::id), not of the form PAR::id::fingerprint.',
    cites: ['C.participant-id.2'],
    rules: ['SCAN-PARTICIPANT-ID-FORMAT', 'SCAN-PARTICIPANT-ID-HOSTS-SEEN'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getPartyToParticipantV1'], checks: ['responses'] },
  },
  'scan-offsets-unpadded': {
    family: 'offsets',
    breaks: 'Offsets are written as decimal numbers without zero padding, so they increase numerically but not lexicographically ("10" sorts before "9").',
    cites: ['R.scan.12'],
    rules: ['SCAN-UPDATES-OFFSETS-INCREASING'],
  },
  'scan-holdings-grouped-by-owner': {
    family: 'ordering',
    breaks: 'The contracts of a holdings page are ordered by owner, then creation time (as an owner index returns them), not by creation time alone.',
    cites: ['C.holdings-v1.3'],
    rules: ['SCAN-HOLDINGS-CREATION-ORDER'],
  },
  'scan-holdings-cohosted-owners': {
    family: 'ownership filter',
    breaks: 'The owner filter selects by hosting participant: holdings of every party hosted with one of owner_party_ids are returned.',
    cites: ['C.holdings-v1.11'],
    rules: ['SCAN-HOLDINGS-OWNER-FILTER'],
  },
  'scan-holdings-first-owner-only': {
    family: 'ownership filter',
    breaks: 'The owner filter uses only the first of several owner_party_ids: the holdings of the others are left out.',
    cites: ['C.holdings-v1.11'],
    rules: ['SCAN-HOLDINGS-OWNERS-UNION'],
  },
  'scan-traffic-actual-target-swapped': {
    family: 'traffic status',
    breaks: 'actual.total_limit and target.total_purchased are swapped, so while a purchase is pending the limit exceeds what was purchased.',
    cites: ['R.scan.36'],
    rules: ['SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED'],
  },
  // Inputs one operation fails to validate; only the checks derived from the document send them.
  'scan-event-encoding-unchecked': {
    family: 'request validation',
    breaks: 'GET /v0/events/{update_id} treats an unknown daml_value_encoding as compact_json instead of answering 400.',
    cites: ['C.events.1'],
    rules: [],
    generic: { operations: ['getEventById'], checks: ['invalid-input'] },
  },
  'scan-lossless-unchecked': {
    family: 'request validation',
    breaks: 'GET /v0/updates/{update_id} treats a lossless value other than true or false as false instead of answering 400.',
    cites: ['C.updates-v0.1'],
    rules: [],
    generic: { operations: ['getUpdateByIdV0'], checks: ['invalid-input'] },
  },
  'scan-ans-page-size-defaulted': {
    family: 'request validation',
    breaks: 'GET /v0/ans-entries answers a missing or unparsable page_size with a default page of 20 instead of 400.',
    cites: ['C.ans.4'],
    rules: [],
    generic: { operations: ['listAnsEntries'], checks: ['invalid-input'] },
  },
  'scan-faucets-missing-ids-empty': {
    family: 'request validation',
    breaks: 'GET /v0/validators/validator-faucets without validator_ids answers 200 with no records instead of 400.',
    cites: ['C.faucets.1'],
    rules: [],
    generic: { operations: ['getValidatorFaucetsByValidator'], checks: ['invalid-input'] },
  },
  'scan-preserialized-json-as-text': {
    family: 'documented answers',
    breaks:
      'The validator faucets, development fund coupons and force-ACS endpoints send JSON they serialized themselves, labelled text/plain instead of application/json.',
    cites: ['C.faucets.3', 'C.dev-fund.1', 'C.acs-force.3'],
    rules: ['SCAN-FAUCETS-ROUND-ARITHMETIC', 'SCAN-DEVELOPMENT-FUND-COUPONS', 'SCAN-HOLDINGS-FORCE-ACS-MIGRATION'],
    generic: { operations: ['getValidatorFaucetsByValidator', 'listUnclaimedDevelopmentFundCoupons', 'forceAcsSnapshotNow'], checks: ['responses'] },
  },
  'scan-ans-entries-as-text': {
    family: 'documented answers',
    breaks: 'GET /v0/ans-entries sends its JSON labelled text/plain instead of application/json.',
    cites: ['C.ans.6'],
    rules: ['SCAN-ANS-LOOKUP-BY-NAME'],
    generic: { operations: ['listAnsEntries'], checks: ['responses'] },
  },
  'scan-reward-weight-party-unchecked': {
    family: 'request validation',
    breaks:
      'The previous SV reward weight treats a missing or non-string svParty (or a body that is no object) as an unknown SV (200 {}) instead of answering 400.',
    cites: ['C.reward-weight.1'],
    rules: [],
    generic: { operations: ['getPreviousSvRewardWeight'], checks: ['invalid-input'] },
  },
  'scan-bulk-end-exclusive': {
    family: 'bulk history',
    breaks: 'The bulk listing treats end_record_time as exclusive: an update recorded exactly at it is in none of the listed objects.',
    cites: ['C.bulk-updates.3'],
    rules: ['SCAN-BULK-COVERS-RANGE'],
  },
  'scan-v2-children-reversed': {
    family: 'event trees',
    breaks: 'The V2 renderings (/v2/updates, the update of /v0/events) list child_event_ids in the reverse of the order the events occurred.',
    cites: ['R.scan.19'],
    rules: ['SCAN-UPDATES-V2-CHILDREN-IN-ORDER', 'SCAN-EVENTS-V2-CHILDREN-IN-ORDER'],
  },
  'scan-protobuf-compact': {
    family: 'encodings',
    breaks: 'GET /v0/events/{update_id} answers daml_value_encoding=protobuf_json in the compact encoding, without type information.',
    cites: ['C.events.3'],
    rules: ['SCAN-EVENTS-ENCODING-VARIANTS'],
  },
  'scan-protobuf-value-differs': {
    family: 'encodings',
    breaks: 'With daml_value_encoding=protobuf_json a created event carries other arguments than with compact_json (a text value differs).',
    cites: ['C.events.3'],
    rules: ['SCAN-EVENTS-ENCODING-VARIANTS'],
  },
  'scan-v0-update-record-time-shifted': {
    family: 'versions',
    breaks: 'GET /v0/updates/{update_id} shows a transaction one millisecond later than /v2/updates and /v0/events show the same update.',
    cites: ['R.scan.17'],
    rules: ['SCAN-UPDATES-VARIANTS-SAME-UPDATE'],
  },
  'scan-previous-reward-weight-unserved': {
    family: 'versions',
    breaks: 'GET /api/scan/version states 0.7.5, yet POST /v0/admin/sv/previous-sv-reward-weight (since 0.6.9) is not served: it answers as an unknown path.',
    cites: ['X.versioning.9'],
    // The checks that take the 404 for the operation's own answer fail too; the others report it unsupported.
    rules: ['SCAN-RELEASE-SERVES-DATED-OPERATIONS', 'SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE', 'SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE'],
  },
  'scan-root-hash-old-path': {
    family: 'versions',
    breaks:
      'GET /api/scan/version states 0.7.5, yet the reward-accounting root hash is served at its path before 0.6.5 only (/v0/reward-accounting-process/...), not at /v0/internal/reward-accounting-process/...',
    cites: ['X.versioning.7'],
    rules: ['SCAN-RELEASE-SERVES-DATED-OPERATIONS'],
  },
  'scan-ans-page-newest': {
    family: 'paging',
    breaks: 'GET /v0/ans-entries with a page_size below the number of entries answers the newest entries instead of the oldest.',
    cites: ['C.ans.5'],
    rules: ['SCAN-ANS-OLDEST-FIRST'],
  },
} as const);

export const SCAN_FAULTS = [...RULE_FAULTS, ...HISTORY_FAULTS, ...EDGE_FAULTS, ...EFFECT_FAULTS];

export type ScanFaultName = (typeof SCAN_FAULTS)[number]['name'];
