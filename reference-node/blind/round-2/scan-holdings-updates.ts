// Round-2 blind faults of the scan interface: holdings state (v0, v1; both match modes) and update history by id.
// Written from the description, the facts and the reference node's answers only.
import { blindRound } from '../seam.ts';
import { bodyOf, clone, compactify, errorAnswer, isObject, isScan, type Json, okBody, queryOne, toSeconds, treeEvents, withBody } from './scan-support.ts';

const HOLDINGS_V1 = '/v1/holdings/state';
const HOLDINGS_V0 = '/v0/holdings/state';
const UPDATE_V0 = /^\/v0\/updates\/[^/]+$/;

/** Record times the node reported as ACS snapshots (snapshot-timestamp and force answers), per fault memory. */
function rememberSnapshotTimes(request: Parameters<typeof isScan>[0], answer: { status: number; body: unknown }, memory: Map<string, unknown>): void {
  const known = (memory.get('snapshots') as Set<string> | undefined) ?? new Set<string>();
  memory.set('snapshots', known);
  if (answer.status !== 200 || !isObject(answer.body)) return;
  if (isScan(request, 'GET', '/v0/state/acs/snapshot-timestamp') || isScan(request, 'POST', '/v0/state/acs/force')) {
    if (typeof answer.body.record_time === 'string') known.add(answer.body.record_time);
  }
}

export const ROUND_2_SCAN_HOLDINGS_UPDATES = blindRound(2, [
  {
    // The v1 handler parses record_time into a second-precision timestamp and renders that back: the answer's
    // record_time loses its fractional seconds, so it is no longer the request's time.
    name: 'blind-r2-scan-holdings-v1-record-time-truncated',
    interface: 'scan',
    breaks: '200: `record_time` (same as request), `migration_id` (same as request)',
    cites: ['C.holdings-v1.12'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V1)) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.record_time !== 'string') return undefined;
      const truncated = toSeconds(body.record_time);
      if (truncated === body.record_time) return undefined;
      return withBody(answer, { ...body, record_time: truncated });
    },
  },
  {
    // The deprecated v0 route was wired to the v1 serializer: its created_events are ActiveContract records
    // (no event_type, no event_id; created_in_update_id where known) instead of CreatedEvent records.
    name: 'blind-r2-scan-holdings-v0-active-contract-elements',
    interface: 'scan',
    breaks: '`created_events` elements are CreatedEvent (with `event_type` and `event_id`).',
    cites: ['C.holdings-v0.2'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V0)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.created_events) || body.created_events.length === 0) return undefined;
      body.created_events = body.created_events.map((e) => {
        if (!isObject(e)) return e;
        const { event_type: _t, event_id, ...rest } = e;
        const update = typeof event_id === 'string' ? event_id.replace(/^#/, '').split(':')[0] : undefined;
        return update ? { created_in_update_id: update, ...rest } : rest;
      });
      return withBody(answer, body);
    },
  },
  {
    // v0 emits a page token whenever the page is not empty, also on the last page: the token points past the
    // end and the client is sent for one more, empty, page.
    name: 'blind-r2-scan-holdings-v0-token-on-last-page',
    interface: 'scan',
    breaks: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
    cites: ['C.holdings-v1.14'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V0)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.created_events) || body.created_events.length === 0) return undefined;
      if (body.next_page_token !== undefined && body.next_page_token !== null) return undefined;
      return withBody(answer, { ...body, next_page_token: 9_007_199_254_740_991 });
    },
  },
  {
    // owner_party_ids is bound as a single value: with several owners only the first one's holdings come back,
    // the other parties' holdings are lost.
    name: 'blind-r2-scan-holdings-v1-first-owner-only',
    interface: 'scan',
    breaks: '`owner_party_ids` string[] required, minimum 1 item (filters to contracts owned by these parties)',
    cites: ['C.holdings-v1.11'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V1)) return undefined;
      const owners = bodyOf(request).owner_party_ids;
      if (!Array.isArray(owners) || owners.length < 2) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.created_events)) return undefined;
      const kept = body.created_events.filter((e) => !isObject(e) || !isObject(e.create_arguments) || e.create_arguments.owner === owners[0]);
      if (kept.length === body.created_events.length) return undefined;
      return withBody(answer, { ...body, created_events: kept });
    },
  },
  {
    // The v0 query sorts its page by creation date descending (a flipped ORDER BY): newest holdings first.
    name: 'blind-r2-scan-holdings-v0-newest-first',
    interface: 'scan',
    breaks: 'Returns the active holding contracts for a migration id and record time, ordered by creation date ascending, paged.',
    cites: ['C.holdings-v1.3', 'C.holdings-v0.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V0)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.created_events) || body.created_events.length < 2) return undefined;
      const times = body.created_events.map((e) => (isObject(e) ? String(e.created_at) : ''));
      if (new Set(times).size < 2) return undefined;
      return withBody(answer, { ...body, created_events: [...body.created_events].reverse() });
    },
  },
  {
    // record_time_match is parsed but never used: at_or_before behaves as exact, so a time that is not itself a
    // snapshot time is refused with 400, as in exact mode (only times the node reported as snapshots still work).
    name: 'blind-r2-scan-holdings-at-or-before-as-exact',
    interface: 'scan',
    breaks: 'with `at_or_before` any timestamp is accepted and the latest snapshot at or before it is used',
    cites: ['C.holdings-v1.6'],
    rewrite(request, answer, memory) {
      rememberSnapshotTimes(request, answer, memory);
      if (!isScan(request, 'POST', HOLDINGS_V1) && !isScan(request, 'POST', HOLDINGS_V0)) return undefined;
      const req = bodyOf(request);
      if (req.record_time_match !== 'at_or_before' || answer.status !== 200 || typeof req.record_time !== 'string') return undefined;
      const known = memory.get('snapshots') as Set<string>;
      if (known.has(req.record_time)) return undefined;
      return errorAnswer(400, `${req.record_time} is not the record time of an ACS snapshot of migration ${String(req.migration_id)}`);
    },
  },
  {
    // When record_time_match is left out, the lookup falls through to a plain "contracts at this time" query
    // that finds no snapshot rows and answers an empty page instead of refusing the non-snapshot time.
    name: 'blind-r2-scan-holdings-default-match-lenient',
    interface: 'scan',
    breaks: '(with `record_time_match` = `exact`, the default, it must equal a timestamp reported by the ACS snapshot-timestamp endpoint',
    cites: ['C.holdings-v1.5'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V1)) return undefined;
      const req = bodyOf(request);
      if (req.record_time_match !== undefined || (answer.status !== 400 && answer.status !== 404) || !isObject(answer.body)) return undefined;
      if (!String(answer.body.error).includes('is not the record time')) return undefined;
      return { status: 200, contentType: 'application/json', body: { record_time: req.record_time, migration_id: req.migration_id, created_events: [] } };
    },
  },
  {
    // v1 shares the v2 page-token encoder: next_page_token comes as a JSON string, the v2 token type, not int64.
    name: 'blind-r2-scan-holdings-v1-token-as-string',
    interface: 'scan',
    breaks: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
    cites: ['C.holdings-v1.14'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V1)) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.next_page_token !== 'number') return undefined;
      return withBody(answer, { ...body, next_page_token: String(body.next_page_token) });
    },
  },
  {
    // The v1 validation layer renders its 400s with its own error class: `{message}` instead of `{error}`.
    name: 'blind-r2-scan-holdings-v1-error-message-key',
    interface: 'scan',
    breaks: 'Wallet and scan error bodies are `{error: string}`.',
    cites: ['X.errors.13'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', HOLDINGS_V1) || answer.status !== 400 || !isObject(answer.body) || !('error' in answer.body)) return undefined;
      return withBody(answer, { message: answer.body.error });
    },
  },
  {
    // `lossless=true` is dropped by the v0 route's parameter binding: the answer is in the default compact encoding.
    name: 'blind-r2-scan-updates-v0-lossless-ignored',
    interface: 'scan',
    breaks: 'Query `lossless` boolean optional, default false: lossless but hard-to-process payload encoding, mostly for backend calls.',
    cites: ['C.updates-v0.3'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', UPDATE_V0) || queryOne(request, 'lossless') !== 'true') return undefined;
      const body = okBody(answer);
      if (!body) return undefined;
      let changed = false;
      const events = [...treeEvents(body)];
      if (isObject(body.event) && isObject(body.event.created_event)) events.push(body.event.created_event);
      for (const e of events) {
        for (const k of ['create_arguments', 'choice_argument', 'exercise_result']) {
          if (k in e) {
            const c = compactify(e[k]);
            if (JSON.stringify(c) !== JSON.stringify(e[k])) changed = true;
            e[k] = c;
          }
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // The v0 item renders the offset as a plain decimal number string without its zero padding: "10" sorts
    // before "9", so offsets no longer increase lexicographically along the history.
    name: 'blind-r2-scan-updates-v0-offset-unpadded',
    interface: 'scan',
    breaks:
      '`offset` string (absolute offset; may differ across nodes and must not be compared between nodes; within one node monotonically, lexicographically increasing)',
    cites: ['R.scan.12'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', UPDATE_V0)) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.offset !== 'string' || !/^0+\d/.test(body.offset)) return undefined;
      return withBody(answer, { ...body, offset: String(Number.parseInt(body.offset, 10)) });
    },
  },
  {
    // root_event_ids are taken from the ACS-style event id form (leading `#`), while events_by_id keys use the
    // history form: no root id is a key of the tree.
    name: 'blind-r2-scan-updates-v0-root-ids-hash-prefixed',
    interface: 'scan',
    breaks: '`root_event_ids` string[] (each guaranteed to be a key of `events_by_id`)',
    cites: ['R.scan.13'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', UPDATE_V0)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.root_event_ids) || body.root_event_ids.length === 0) return undefined;
      return withBody(answer, { ...body, root_event_ids: body.root_event_ids.map((id) => (typeof id === 'string' && !id.startsWith('#') ? `#${id}` : id)) });
    },
  },
  {
    // The v0 serializer writes every optional field, so transactions that were not externally signed carry
    // `"external_transaction_hash": null`.
    name: 'blind-r2-scan-updates-v0-external-hash-null',
    interface: 'scan',
    breaks:
      '`external_transaction_hash` string (optional; for externally signed transactions, the hash signed by the external party; omitted from JSON when null)',
    cites: ['R.scan.16'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', UPDATE_V0)) return undefined;
      const body = okBody(answer);
      if (!body || !isObject(body.events_by_id) || 'external_transaction_hash' in body) return undefined;
      return withBody(answer, { ...body, external_transaction_hash: null });
    },
  },
  {
    // Empty strings are dropped by the v0 JSON writer: a transaction without a workflow has no workflow_id at all.
    name: 'blind-r2-scan-updates-v0-workflow-id-dropped',
    interface: 'scan',
    breaks: '`workflow_id` string (empty means none set) ... All required except the last.',
    cites: ['R.scan.8'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', UPDATE_V0)) return undefined;
      const body = okBody(answer);
      if (body?.workflow_id !== '') return undefined;
      const { workflow_id: _w, ...rest } = body;
      return withBody(answer, rest);
    },
  },
  {
    // Created events of a transaction take their created_at from the transaction's record (sequencing) time
    // instead of its ledger effective time.
    name: 'blind-r2-scan-updates-v0-created-at-record-time',
    interface: 'scan',
    breaks: '`created_at` date-time (ledger effective time of the creating transaction)',
    cites: ['R.scan.5'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', UPDATE_V0)) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.record_time !== 'string' || body.record_time === body.effective_at) return undefined;
      let changed = false;
      for (const e of treeEvents(body)) {
        if (e.event_type === 'created_event' && typeof e.created_at === 'string') {
          e.created_at = body.record_time;
          changed = true;
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // Unassignments report the contract's counter from before the unassign command (an off-by-one), so it no
    // longer equals the counter of the matching assignment. Everywhere an unassignment is rendered.
    name: 'blind-r2-scan-unassign-counter-before-command',
    interface: 'scan',
    breaks:
      '`reassignment_counter` is equal on a matching assign and unassign, strictly increases with each unassign command for the same contract, and is 0 at contract creation.',
    cites: ['R.scan.25'],
    rewrite(request, answer) {
      if (!request.path.startsWith('/api/scan/')) return undefined;
      const body = okBody(answer);
      if (!body) return undefined;
      let changed = false;
      const fix = (item: unknown): void => {
        if (!isObject(item)) return;
        const ev = item.event;
        if (isObject(ev) && 'contract_id' in ev && !('created_event' in ev) && typeof ev.reassignment_counter === 'number' && ev.reassignment_counter > 0) {
          ev.reassignment_counter -= 1;
          changed = true;
        }
      };
      for (const key of ['transactions', 'events']) {
        const list = body[key];
        if (Array.isArray(list)) for (const it of list) fix(key === 'events' && isObject(it) ? it.update : it);
      }
      fix(body);
      fix(body.update);
      return changed ? withBody(answer, clone(body as Json)) : undefined;
    },
  },
]);
