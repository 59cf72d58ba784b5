// The scan interface's faults: each breaks exactly one rule of the scan description when switched on.
import type { FaultDefinition } from '../faults.ts';

/** detectedBy: the scan requirements (suites/scan) that fail on a node with the fault, and no others. */
const scan = (name: string, family: string, breaks: string, detectedBy: string[]): FaultDefinition => ({ name: `scan-${name}`, interface: 'scan', family, breaks, detectedBy });

export const SCAN_FAULTS: FaultDefinition[] = [
  // Holdings paging and filtering
  scan('holdings-lost-item', 'paging', 'Walking the holdings pages misses an active owned contract: each page silently skips its second match.', ['SCAN-HOLDINGS-PAGING-COMPLETE']),
  scan('holdings-duplicate', 'paging', 'A holding appears on two pages: the page token points one position too early.', ['SCAN-HOLDINGS-PAGING-UNIQUE']),
  scan('holdings-endless-token', 'paging', 'next_page_token is present on every page, even when no more holdings remain.', ['SCAN-HOLDINGS-PAGING-TOKEN-ENDS']),
  scan('holdings-page-too-large', 'paging', 'A holdings page carries page_size + 1 contracts.', ['SCAN-HOLDINGS-PAGE-SIZE-BOUND']),
  scan('holdings-wrong-order', 'ordering', 'The contracts of a holdings page are not in creation order (the page is reversed).', ['SCAN-HOLDINGS-CREATION-ORDER']),
  scan('holdings-owner-leak', 'ownership filter', 'A holdings page includes a contract owned by none of owner_party_ids.', ['SCAN-HOLDINGS-OWNER-FILTER']),
  scan('holdings-exact-ignored', 'snapshot matching', 'A record time that is no snapshot time is accepted with record_time_match exact (treated as at_or_before).', ['SCAN-HOLDINGS-EXACT-MATCH']),
  scan('holdings-empty-owners-accepted', 'request validation', 'An empty owner_party_ids list is accepted instead of rejected with 400.', ['SCAN-HOLDINGS-EMPTY-OWNERS-400']),
  scan('required-field-dropped', 'record shape', 'ActiveContract elements of the v1/v2 holdings are sent without the required template_id.', ['SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS']),
  scan('force-acs-time-rejected', 'snapshot matching', 'The record time returned by the force-ACS endpoint is not accepted as exact by the holdings endpoints.', ['SCAN-HOLDINGS-FORCE-ACS-EXACT']),
  // Update history trees and records
  scan('tree-dangling-root', 'event trees', 'root_event_ids names an event id that is not a key of events_by_id.', ['SCAN-UPDATES-TREE-ROOTS-KNOWN']),
  scan('tree-dangling-child', 'event trees', 'An exercised event lists a child_event_ids entry that is not a key of events_by_id.', ['SCAN-UPDATES-TREE-CHILDREN-KNOWN']),
  scan('tree-event-id-mismatch', 'event trees', "A created event's event_id differs from its key in events_by_id.", ['SCAN-UPDATES-CREATED-EVENT-ID']),
  scan('v2-unsorted', 'event trees', 'The events_by_id keys of v2 transactions and event items are not in lexicographic order.', ['SCAN-EVENTS-V2-KEYS-SORTED']),
  scan('reassignment-counter-mismatch', 'reassignments', 'An assignment carries a different reassignment_counter than its matching unassignment.', ['SCAN-REASSIGNMENT-PAIR-COUNTER']),
  scan('reassignment-counter-not-increasing', 'reassignments', 'The reassignment_counter of a contract does not strictly increase with each unassign (it repeats).', ['SCAN-REASSIGNMENT-COUNTER-INCREASES']),
  scan('record-time-format', 'time format', 'Update history record_time is not ISO 8601 (a space separates date and time, no zone).', ['SCAN-UPDATES-RECORD-TIME-MICROS']),
  scan('offsets-not-increasing', 'offsets', 'A later update carries a smaller offset than an earlier one.', ['SCAN-UPDATES-OFFSETS-INCREASING']),
  scan('external-hash-null', 'record shape', 'Transactions without an external hash carry external_transaction_hash: null instead of omitting it.', ['SCAN-UPDATES-EXTERNAL-HASH-OMITTED']),
  // Validators, traffic, parties
  scan('faucet-arithmetic', 'faucet statistics', 'numRoundsCollected + numRoundsMissed differs from lastCollectedInRound - firstCollectedInRound + 1.', ['SCAN-FAUCETS-ROUND-ARITHMETIC']),
  scan('faucet-order-dependent', 'faucet statistics', 'Faucet statistics are attached to validators by argument position, so the result depends on argument order.', ['SCAN-FAUCETS-ORDER-INDEPENDENT']),
  scan('traffic-limit-above-purchased', 'traffic status', 'total_limit exceeds total_purchased.', ['SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED']),
  scan('member-id-unchecked', 'request validation', 'A member id not of the form PAR|MED::id::fingerprint is not rejected with 400.', ['SCAN-TRAFFIC-MEMBER-ID-400']),
  scan('participant-id-format', 'identifiers', 'A participant id is returned without the PAR:: code, not of the form PAR::id::fingerprint.', ['SCAN-PARTICIPANT-ID-FORMAT']),
  // Name service
  scan('ans-prefix-ignored', 'name service', 'ANS entries whose name does not start with name_prefix are listed.', ['SCAN-ANS-NAME-PREFIX']),
  scan('ans-expired-listed', 'name service', 'Expired ANS entries are listed.', ['SCAN-ANS-NO-EXPIRED']),
  scan('ans-bad-url', 'name service', 'An ANS entry carries a url that is neither empty nor an http/https URL.', ['SCAN-ANS-URL']),
  scan('ans-too-many', 'name service', 'More ANS entries than page_size are returned.', ['SCAN-ANS-PAGE-SIZE']),
  // Not detectable from outside: an entry's creation time is no field of AnsEntry and no scan endpoint
  // reveals it, so no listing order can be proven wrong (a reversed order is as consistent as the right one).
  // Bulk history
  scan('bulk-digest-mismatch', 'bulk history', 'The digest of an object reference is not the sha256 of the downloaded bytes.', ['SCAN-BULK-DOWNLOAD-DIGEST']),
  scan('bulk-page-size-unchecked', 'request validation', 'A bulk page_size outside 1..1000 is accepted instead of rejected with 400.', ['SCAN-BULK-PAGE-SIZE-400']),
  // Errors and rewards
  scan('error-body-shape', 'error shape', 'Error bodies are {message} instead of {error}.', ['SCAN-ERRORS-SHAPE']),
  // Every rule that names 400 for a bad input breaks, as well as the general one.
  scan('bad-input-500', 'error status', 'Invalid input is answered 500 instead of 400.', ['SCAN-ERRORS-BAD-INPUT-NOT-5XX', 'SCAN-HOLDINGS-EMPTY-OWNERS-400', 'SCAN-HOLDINGS-EXACT-MATCH', 'SCAN-TRAFFIC-MEMBER-ID-400', 'SCAN-BULK-PAGE-SIZE-400']),
  scan('root-hash-round-mismatch', 'reward accounting', 'An Ok root-hash result carries a round_number other than the requested round.', ['SCAN-ROOT-HASH-ROUND-ECHOED']),
  // Holdings requests, snapshots and versions
  scan('holdings-time-not-echoed', 'record shape', 'The holdings answer echoes a record_time one microsecond after the requested one.', ['SCAN-HOLDINGS-REQUEST-ECHOED']),
  scan('holdings-at-or-before-refused', 'snapshot matching', 'record_time_match at_or_before is treated as exact, so a time between snapshots is answered 404.', ['SCAN-HOLDINGS-AT-OR-BEFORE']),
  scan('holdings-v0-event-type-missing', 'record shape', 'CreatedEvent elements of the v0 holdings are sent without the required event_type.', ['SCAN-HOLDINGS-V0-CREATED-EVENTS']),
  scan('holdings-v0-missing-contract', 'versions', 'The v0 holdings leave out some contracts that v1 returns for the same request.', ['SCAN-HOLDINGS-V0-MATCHES-V1']),
  scan('holdings-v2-missing-contract', 'versions', 'The v2 holdings leave out some contracts that v1 returns for the same request.', ['SCAN-HOLDINGS-V2-MATCHES-V1']),
  // Update history encodings and trees
  scan('tree-orphan-event', 'event trees', 'events_by_id holds an event that no root_event_ids or child_event_ids path reaches.', ['SCAN-UPDATES-TREE-ALL-REACHABLE']),
  scan('lossless-tree-differs', 'encodings', 'With lossless=true the v0 update carries an extra event, so the tree differs from the default encoding.', ['SCAN-UPDATES-LOSSLESS-VARIANTS']),
  scan('protobuf-tree-differs', 'encodings', 'With daml_value_encoding=protobuf_json the event item carries an extra event, so the tree differs from compact_json.', ['SCAN-EVENTS-ENCODING-VARIANTS']),
  scan('reassignment-update-id-mismatch', 'reassignments', 'A reassignment item carries an update_id other than the id it was looked up by.', ['SCAN-REASSIGNMENT-RECORDS']),
  // Event history items
  scan('verdict-update-id-mismatch', 'event items', 'The verdict of an event item names another update_id than the transaction it was looked up by.', ['SCAN-EVENTS-VERDICT-FIELDS']),
  scan('verdict-unknown-root-view', 'event items', 'The verdict root_views name a view id that is none of its views.', ['SCAN-EVENTS-VERDICT-VIEWS']),
  scan('traffic-envelope-unknown-view', 'event items', 'A traffic summary envelope names a view id that is none of the verdict views.', ['SCAN-EVENTS-TRAFFIC-SUMMARY']),
  scan('app-activity-weight-missing', 'event items', 'An app activity record is sent without its weight.', ['SCAN-EVENTS-APP-ACTIVITY']),
  // Validators, bulk history, rewards, errors
  scan('faucet-unknown-listed', 'faucet statistics', 'An unknown validator id is answered with a record instead of being ignored.', ['SCAN-FAUCETS-UNKNOWN-IGNORED']),
  scan('bulk-token-skips-object', 'paging', 'A bulk next_page_token resumes one object too late, so a paged walk misses objects.', ['SCAN-BULK-PAGING-COMPLETE']),
  scan('root-hash-not-hex', 'reward accounting', 'An Ok root-hash result writes root_hash with a 0x prefix, not as plain hex.', ['SCAN-ROOT-HASH-RESULT-SHAPE']),
  scan('reward-weight-number', 'reward weight', 'rewardWeight is sent as a JSON number instead of a string.', ['SCAN-REWARD-WEIGHT-STRING-OR-ABSENT']),
  scan('reward-weight-before-ignored', 'reward weight', 'effectiveBefore is ignored: the latest weight up to now is reported.', ['SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE']),
  scan('unknown-synchronizer-400', 'error status', 'An unknown synchronizer id prefix is answered 400 instead of 404.', ['SCAN-ERRORS-NOT-FOUND-404']),
  // Small reference endpoints
  scan('backfilling-flag-text', 'record shape', 'The backfilling complete flag is sent as the text "true" instead of a boolean.', ['SCAN-BACKFILLING-COMPLETE-FLAG']),
  scan('feature-flag-text', 'record shape', 'The feature-support dummy flag is sent as the text "false" instead of a boolean.', ['SCAN-FEATURE-SUPPORT']),
  scan('synchronizer-mediator-missing', 'record shape', 'Synchronizer identities are sent without the required mediator_id.', ['SCAN-SYNCHRONIZER-IDENTITIES']),
  scan('coupon-wrong-template', 'record shape', 'A development fund coupon is listed under a template other than UnclaimedDevelopmentFundCoupon.', ['SCAN-DEVELOPMENT-FUND-COUPONS']),
  scan('preapproval-created-at-text', 'time format', 'A transfer preapproval contract carries a created_at that is not an ISO 8601 timestamp.', ['SCAN-TRANSFER-PREAPPROVAL']),
  // Second faults of their families: another way a real node breaks the same rule.
  scan('bulk-download-json-type', 'bulk history', 'Bulk objects are downloaded as application/json instead of application/octet-stream.', ['SCAN-BULK-DOWNLOAD-DIGEST']),
  // A text/plain 404 is also an undocumented answer of every operation whose 404 the generic checks provoke.
  scan('not-found-plain-text', 'error shape', 'Not-found answers carry a plain-text body ("Not Found: ...") instead of {error}.', ['SCAN-ERRORS-SHAPE',
    ...['DOWNLOAD-BULK-HISTORY-OBJECT', 'GET-EVENT-BY-ID', 'GET-PARTY-TO-PARTICIPANT-V1', 'GET-REWARD-ACCOUNTING-ROOT-HASH', 'GET-SYNCHRONIZER-IDENTITIES', 'GET-TRANSFER-PREAPPROVAL-BY-PARTY', 'GET-UPDATE-BY-ID-V0', 'GET-UPDATE-BY-ID-V2'].map((op) => `GENERIC-SCAN-${op}-RESPONSES`)]),
  scan('participant-id-no-fingerprint', 'identifiers', 'Participant ids are returned without their namespace fingerprint (PAR::id), not of the form PAR::id::fingerprint.', ['SCAN-PARTICIPANT-ID-FORMAT']),
  scan('offsets-unpadded', 'offsets', 'Offsets are written as decimal numbers without zero padding, so they increase numerically but not lexicographically ("10" sorts before "9").', ['SCAN-UPDATES-OFFSETS-INCREASING']),
  scan('holdings-grouped-by-owner', 'ordering', 'The contracts of a holdings page are ordered by owner, then creation time (as an owner index returns them), not by creation time alone.', ['SCAN-HOLDINGS-CREATION-ORDER']),
  scan('holdings-cohosted-owners', 'ownership filter', 'The owner filter selects by hosting participant: holdings of every party hosted with one of owner_party_ids are returned.', ['SCAN-HOLDINGS-OWNER-FILTER']),
  scan('traffic-actual-target-swapped', 'traffic status', 'actual.total_limit and target.total_purchased are swapped, so while a purchase is pending the limit exceeds what was purchased.', ['SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED']),
  // Inputs one operation fails to validate; only the checks derived from the document send them.
  scan('event-encoding-unchecked', 'request validation', 'GET /v0/events/{update_id} treats an unknown daml_value_encoding as compact_json instead of answering 400.', ['GENERIC-SCAN-GET-EVENT-BY-ID-INVALID-INPUT']),
  scan('lossless-unchecked', 'request validation', 'GET /v0/updates/{update_id} treats a lossless value other than true or false as false instead of answering 400.', ['GENERIC-SCAN-GET-UPDATE-BY-ID-V0-INVALID-INPUT']),
  scan('ans-page-size-defaulted', 'request validation', 'GET /v0/ans-entries answers a missing or unparsable page_size with a default page of 20 instead of 400.', ['GENERIC-SCAN-LIST-ANS-ENTRIES-INVALID-INPUT']),
  scan('faucets-missing-ids-empty', 'request validation', 'GET /v0/validators/validator-faucets without validator_ids answers 200 with no records instead of 400.', ['GENERIC-SCAN-GET-VALIDATOR-FAUCETS-BY-VALIDATOR-INVALID-INPUT']),
  scan('preserialized-json-as-text', 'documented answers', 'The validator faucets, development fund coupons and force-ACS endpoints send JSON they serialized themselves, labelled text/plain instead of application/json.', [
    'GENERIC-SCAN-GET-VALIDATOR-FAUCETS-BY-VALIDATOR-RESPONSES', 'GENERIC-SCAN-LIST-UNCLAIMED-DEVELOPMENT-FUND-COUPONS-RESPONSES', 'GENERIC-SCAN-FORCE-ACS-SNAPSHOT-NOW-RESPONSES',
  ]),
  scan('reward-weight-party-unchecked', 'request validation', 'The previous SV reward weight treats a missing or non-string svParty (or a body that is no object) as an unknown SV (200 {}) instead of answering 400.', ['GENERIC-SCAN-GET-PREVIOUS-SV-REWARD-WEIGHT-INVALID-INPUT']),
];

const KNOWN = new Set(SCAN_FAULTS.map((f) => f.name));

/** Whether the scan fault `scan-${name}` is on; a name missing from the list is a programming error. */
export function faultOn(ctx: { faults: { has(name: string): boolean } }, name: string): boolean {
  const full = `scan-${name}`;
  if (!KNOWN.has(full)) throw new Error(`not a scan fault: ${full}`);
  return ctx.faults.has(full);
}
