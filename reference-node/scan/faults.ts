// The scan interface's faults: each breaks exactly one rule of the scan description when switched on.
import type { FaultDefinition } from '../faults.ts';

const scan = (name: string, family: string, breaks: string): FaultDefinition => ({ name: `scan-${name}`, interface: 'scan', family, breaks });

export const SCAN_FAULTS: FaultDefinition[] = [
  // Holdings paging and filtering
  scan('holdings-lost-item', 'paging', 'Walking the holdings pages misses an active owned contract: each page silently skips its second match.'),
  scan('holdings-duplicate', 'paging', 'A holding appears on two pages: the page token points one position too early.'),
  scan('holdings-endless-token', 'paging', 'next_page_token is present on every page, even when no more holdings remain.'),
  scan('holdings-page-too-large', 'paging', 'A holdings page carries page_size + 1 contracts.'),
  scan('holdings-wrong-order', 'ordering', 'The contracts of a holdings page are not in creation order (the page is reversed).'),
  scan('holdings-owner-leak', 'ownership filter', 'A holdings page includes a contract owned by none of owner_party_ids.'),
  scan('holdings-exact-ignored', 'snapshot matching', 'A record time that is no snapshot time is accepted with record_time_match exact (treated as at_or_before).'),
  scan('holdings-empty-owners-accepted', 'request validation', 'An empty owner_party_ids list is accepted instead of rejected with 400.'),
  scan('required-field-dropped', 'record shape', 'ActiveContract elements of the v1/v2 holdings are sent without the required template_id.'),
  scan('force-acs-time-rejected', 'snapshot matching', 'The record time returned by the force-ACS endpoint is not accepted as exact by the holdings endpoints.'),
  // Update history trees and records
  scan('tree-dangling-root', 'event trees', 'root_event_ids names an event id that is not a key of events_by_id.'),
  scan('tree-dangling-child', 'event trees', 'An exercised event lists a child_event_ids entry that is not a key of events_by_id.'),
  scan('tree-event-id-mismatch', 'event trees', "A created event's event_id differs from its key in events_by_id."),
  scan('v2-unsorted', 'event trees', 'The events_by_id keys of v2 transactions and event items are not in lexicographic order.'),
  scan('reassignment-counter-mismatch', 'reassignments', 'An assignment carries a different reassignment_counter than its matching unassignment.'),
  scan('reassignment-counter-not-increasing', 'reassignments', 'The reassignment_counter of a contract does not strictly increase with each unassign (it repeats).'),
  scan('record-time-format', 'time format', 'Update history record_time is written with millisecond instead of microsecond resolution.'),
  scan('offsets-not-increasing', 'offsets', 'A later update carries a smaller offset than an earlier one.'),
  scan('external-hash-null', 'record shape', 'Transactions without an external hash carry external_transaction_hash: null instead of omitting it.'),
  // Validators, traffic, parties
  scan('faucet-arithmetic', 'faucet statistics', 'numRoundsCollected + numRoundsMissed differs from lastCollectedInRound - firstCollectedInRound + 1.'),
  scan('faucet-order-dependent', 'faucet statistics', 'Faucet statistics are attached to validators by argument position, so the result depends on argument order.'),
  scan('traffic-limit-above-purchased', 'traffic status', 'total_limit exceeds total_purchased.'),
  scan('member-id-unchecked', 'request validation', 'A member id not of the form PAR|MED::id::fingerprint is not rejected with 400.'),
  scan('participant-id-format', 'identifiers', 'A participant id is returned without the PAR:: code, not of the form PAR::id::fingerprint.'),
  // Name service
  scan('ans-prefix-ignored', 'name service', 'ANS entries whose name does not start with name_prefix are listed.'),
  scan('ans-expired-listed', 'name service', 'Expired ANS entries are listed.'),
  scan('ans-bad-url', 'name service', 'An ANS entry carries a url that is neither empty nor an http/https URL.'),
  scan('ans-too-many', 'name service', 'More ANS entries than page_size are returned.'),
  scan('ans-wrong-order', 'name service', 'ANS entries are not listed oldest first.'),
  // Bulk history
  scan('bulk-digest-mismatch', 'bulk history', 'The digest of an object reference is not the sha256 of the downloaded bytes.'),
  scan('bulk-page-size-unchecked', 'request validation', 'A bulk page_size outside 1..1000 is accepted instead of rejected with 400.'),
  // Errors and rewards
  scan('error-body-shape', 'error shape', 'Error bodies are {message} instead of {error}.'),
  scan('bad-input-500', 'error status', 'Invalid input is answered 500 instead of 400.'),
  scan('root-hash-round-mismatch', 'reward accounting', 'An Ok root-hash result carries a round_number other than the requested round.'),
];

const KNOWN = new Set(SCAN_FAULTS.map((f) => f.name));

/** Whether the scan fault `scan-${name}` is on; a name missing from the list is a programming error. */
export function faultOn(ctx: { faults: { has(name: string): boolean } }, name: string): boolean {
  const full = `scan-${name}`;
  if (!KNOWN.has(full)) throw new Error(`not a scan fault: ${full}`);
  return ctx.faults.has(full);
}
