// Blind faults, round 1 (scan, part 1 of 2): see scan-support.ts for what they share.
import { type BlindAnswer, blindRound } from '../seam.ts';
import {
  isObj,
  okBody,
  withBody,
  jsonAnswer,
  clone,
  q,
  match,
  bodyField,
  addMicros,
  toMillis,
  protobufToCompact,
  HOLDINGS,
  UPDATE_BY_ID,
  EVENT_BY_ID,
  holdings,
  eventTransaction,
  type Json,
} from './scan-support.ts';

export const ROUND_1_SCAN_1 = blindRound(1, [
  // ---------------------------------------------------------------- holdings state (v0 / v1)

  // v1: the page is cut one short of page_size while the token points past the dropped contract, so walking the
  // pages loses one holding per page boundary.
  {
    name: 'blind-r1-scan-holdings-v1-page-loses-last',
    interface: 'scan',
    breaks: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
    cites: ['C.holdings-v1.14'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v1');
      if (!h) return undefined;
      const [req, body] = h;
      const events = body.created_events as unknown[];
      if (body.next_page_token == null || events.length < 2 || events.length !== req.page_size) return undefined;
      return withBody(answer, { ...body, created_events: events.slice(0, -1) });
    },
  },
  // v0: a page that is exactly full and is the last one still carries a next_page_token ("a full page means
  // there may be more"), which leads to an empty page.
  {
    name: 'blind-r1-scan-holdings-v0-full-last-page-has-token',
    interface: 'scan',
    breaks: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
    cites: ['C.holdings-v1.14'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v0');
      if (!h) return undefined;
      const [req, body] = h;
      const events = body.created_events as unknown[];
      if (body.next_page_token != null || events.length === 0 || events.length !== req.page_size) return undefined;
      return withBody(answer, { ...body, next_page_token: 4294967296 });
    },
  },
  // v0: each page comes newest first (the v0 query sorts descending).
  {
    name: 'blind-r1-scan-holdings-v0-page-newest-first',
    interface: 'scan',
    breaks: 'Returns the active holding contracts for a migration id and record time, ordered by creation date ascending, paged.',
    cites: ['C.holdings-v1.3'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v0');
      if (!h) return undefined;
      const events = h[1].created_events as unknown[];
      if (events.length < 2) return undefined;
      return withBody(answer, { ...h[1], created_events: [...events].reverse() });
    },
  },
  // v1: only the first of several owner_party_ids is used as the filter.
  {
    name: 'blind-r1-scan-holdings-v1-first-owner-only',
    interface: 'scan',
    breaks: '`owner_party_ids` string[] required, minimum 1 item (filters to contracts owned by these parties)',
    cites: ['C.holdings-v1.11'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v1');
      if (!h) return undefined;
      const [req, body] = h;
      const owners = req.owner_party_ids;
      if (!Array.isArray(owners) || owners.length < 2) return undefined;
      const events = body.created_events as unknown[];
      const kept = events.filter((e) => !isObj(e) || !isObj(e.create_arguments) || e.create_arguments.owner === owners[0]);
      if (kept.length === events.length) return undefined;
      return withBody(answer, { ...body, created_events: kept });
    },
  },
  // v1: the page token is serialized as a string, as the v2 variant does (shared serializer).
  {
    name: 'blind-r1-scan-holdings-v1-token-as-string',
    interface: 'scan',
    breaks: 'Use the v2 variant instead; it differs only in the type of the `after`/`next_page_token` token.',
    cites: ['C.holdings-v1.1'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v1');
      if (!h || typeof h[1].next_page_token !== 'number') return undefined;
      return withBody(answer, { ...h[1], next_page_token: String(h[1].next_page_token) });
    },
  },
  // v0: an empty owner_party_ids is not validated; the node answers an empty page.
  {
    name: 'blind-r1-scan-holdings-v0-empty-owners-accepted',
    interface: 'scan',
    breaks: '`owner_party_ids` string[] required, minimum 1 item',
    cites: ['C.holdings-v1.10'],
    rewrite(request, answer) {
      if (match(request, 'POST', HOLDINGS)?.[0] !== 'v0' || answer.status !== 400) return undefined;
      const owners = bodyField(request, 'owner_party_ids');
      const migration = bodyField(request, 'migration_id');
      const time = bodyField(request, 'record_time');
      const size = bodyField(request, 'page_size');
      if (!Array.isArray(owners) || owners.length !== 0 || typeof migration !== 'number' || typeof time !== 'string' || typeof size !== 'number') {
        return undefined;
      }
      return jsonAnswer(200, { record_time: time, migration_id: migration, created_events: [] });
    },
  },
  // v1 with record_time_match=at_or_before: the record_time is echoed after a round trip through a Date
  // (millisecond precision, `.000Z` added), not as sent.
  {
    name: 'blind-r1-scan-holdings-v1-at-or-before-echo-millis',
    interface: 'scan',
    breaks: '200: `record_time` (same as request), `migration_id` (same as request)',
    cites: ['C.holdings-v1.12'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v1');
      if (h?.[0].record_time_match !== 'at_or_before' || typeof h[1].record_time !== 'string') return undefined;
      const echoed = toMillis(h[1].record_time);
      if (echoed === h[1].record_time) return undefined;
      return withBody(answer, { ...h[1], record_time: echoed });
    },
  },
  // v1: created_at is the creating update's sequencing (record) time, 250 µs after its ledger effective time.
  {
    name: 'blind-r1-scan-holdings-v1-created-at-is-record-time',
    interface: 'scan',
    breaks: '`created_at` date-time (ledger effective time of the creating transaction)',
    cites: ['R.scan.5'],
    rewrite(request, answer) {
      const h = holdings(request, answer, 'v1');
      if (!h) return undefined;
      const events = h[1].created_events as unknown[];
      if (events.length === 0) return undefined;
      const shifted = events.map((e) => (isObj(e) && typeof e.created_at === 'string' ? { ...e, created_at: addMicros(e.created_at, 250) } : e));
      return withBody(answer, { ...h[1], created_events: shifted });
    },
  },
  // ---------------------------------------------------------------- update by id (v0, deprecated)

  // Reassignments are not looked up (only the transactions table is), so their ids answer 404.
  {
    name: 'blind-r1-scan-updates-reassignment-not-found',
    interface: 'scan',
    breaks: '200: a single UpdateHistoryItem which is either UpdateHistoryTransaction or UpdateHistoryReassignment.',
    cites: ['C.updates-v0.4'],
    rewrite(request, answer) {
      const m = match(request, 'GET', UPDATE_BY_ID);
      const body = okBody(answer);
      if (!m || !body || !isObj(body.event)) return undefined;
      return jsonAnswer(404, { error: `Update ${m[0]} not found` });
    },
  },
  // The offset loses its zero padding, so offsets no longer increase lexicographically ("9" > "10").
  {
    name: 'blind-r1-scan-updates-offset-unpadded',
    interface: 'scan',
    breaks:
      '`offset` string (absolute offset; may differ across nodes and must not be compared between nodes; within one node monotonically, lexicographically increasing)',
    cites: ['R.scan.12'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', UPDATE_BY_ID) || !body || typeof body.offset !== 'string' || !/^0+\d/.test(body.offset)) return undefined;
      return withBody(answer, { ...body, offset: body.offset.replace(/^0+(?=\d)/, '') });
    },
  },
  // The record time is rendered with millisecond resolution, unlike the same update elsewhere.
  {
    name: 'blind-r1-scan-updates-record-time-millis',
    interface: 'scan',
    breaks: '`record_time` string (sequencing time, microsecond resolution, ISO 8601)',
    cites: ['R.scan.9'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', UPDATE_BY_ID) || !body || typeof body.record_time !== 'string') return undefined;
      const ms = toMillis(body.record_time);
      return ms === body.record_time ? undefined : withBody(answer, { ...body, record_time: ms });
    },
  },
  // lossless=true: root_event_ids carry the `#` prefix of the ACS event-id format, so they are not keys of
  // events_by_id.
  {
    name: 'blind-r1-scan-updates-lossless-root-ids-hashed',
    interface: 'scan',
    breaks: '`root_event_ids` string[] (each guaranteed to be a key of `events_by_id`)',
    cites: ['R.scan.13'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', UPDATE_BY_ID) || q(request, 'lossless') !== 'true' || !body || !Array.isArray(body.root_event_ids)) return undefined;
      if (body.root_event_ids.length === 0) return undefined;
      return withBody(answer, { ...body, root_event_ids: body.root_event_ids.map((id) => (typeof id === 'string' && !id.startsWith('#') ? `#${id}` : id)) });
    },
  },
  // ---------------------------------------------------------------- event by id

  // An unknown update id gives 200 with an empty item (every field of the item is optional) instead of 404.
  {
    name: 'blind-r1-scan-events-unknown-id-empty-item',
    interface: 'scan',
    breaks: '200: event history item `{update?, verdict?, traffic_summary?, app_activity_records?}`. Errors 400, 404, 500.',
    cites: ['C.events.5'],
    rewrite(request, answer) {
      if (!match(request, 'GET', EVENT_BY_ID) || answer.status !== 404) return undefined;
      return jsonAnswer(200, {});
    },
  },
  // events_by_id comes in reverse id order (the tree is collected depth-first from a stack).
  {
    name: 'blind-r1-scan-events-tree-reverse-order',
    interface: 'scan',
    breaks: '`events_by_id` is sorted lexicographically by id',
    cites: ['R.scan.18'],
    rewrite(request, answer) {
      const body = okBody(answer);
      const tx = body && match(request, 'GET', EVENT_BY_ID) ? eventTransaction(body) : undefined;
      if (!body || !tx) return undefined;
      const entries = Object.entries(tx.events_by_id as Json);
      if (entries.length < 2) return undefined;
      return withBody(answer, { ...body, update: { ...tx, events_by_id: Object.fromEntries(entries.reverse()) } });
    },
  },
  // protobuf_json only: child_event_ids of exercised events are listed last-first.
  {
    name: 'blind-r1-scan-events-protobuf-children-reversed',
    interface: 'scan',
    breaks: '`child_event_ids` are in the order events occurred',
    cites: ['R.scan.19'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', EVENT_BY_ID) || q(request, 'daml_value_encoding') !== 'protobuf_json' || !body) return undefined;
      const tx = eventTransaction(body);
      if (!tx) return undefined;
      let changed = false;
      const events: Json = {};
      for (const [id, e] of Object.entries(tx.events_by_id as Json)) {
        if (isObj(e) && Array.isArray(e.child_event_ids) && e.child_event_ids.length >= 2) {
          events[id] = { ...e, child_event_ids: [...e.child_event_ids].reverse() };
          changed = true;
        } else events[id] = e;
      }
      return changed ? withBody(answer, { ...body, update: { ...tx, events_by_id: events } }) : undefined;
    },
  },
  // The transaction's effective_at is filled from its record time (the created events keep the real ledger time).
  {
    name: 'blind-r1-scan-events-effective-at-is-record-time',
    interface: 'scan',
    breaks: '`effective_at` string (ledger effective time, ISO 8601)',
    cites: ['R.scan.10'],
    rewrite(request, answer) {
      const body = okBody(answer);
      const tx = body && match(request, 'GET', EVENT_BY_ID) ? eventTransaction(body) : undefined;
      if (!body || !tx || typeof tx.record_time !== 'string' || tx.effective_at === tx.record_time) return undefined;
      return withBody(answer, { ...body, update: { ...tx, effective_at: tx.record_time } });
    },
  },
  // Assignments report the counter the contract will have after its next unassignment (off by one).
  {
    name: 'blind-r1-scan-events-assignment-counter-off-by-one',
    interface: 'scan',
    breaks:
      '`reassignment_counter` is equal on a matching assign and unassign, strictly increases with each unassign command for the same contract, and is 0 at contract creation.',
    cites: ['R.scan.25'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', EVENT_BY_ID) || !body || !isObj(body.update)) return undefined;
      const ev = body.update.event;
      if (!isObj(ev) || !isObj(ev.created_event) || typeof ev.reassignment_counter !== 'number') return undefined;
      return withBody(answer, { ...body, update: { ...body.update, event: { ...ev, reassignment_counter: ev.reassignment_counter + 1 } } });
    },
  },
  // protobuf_json: exercised events' choice_argument and exercise_result come in the compact encoding (the
  // verbose encoder is applied to create arguments only).
  {
    name: 'blind-r1-scan-events-protobuf-exercise-compact',
    interface: 'scan',
    breaks: '`protobuf_json` (verbose, carries type information, losslessly parsable)',
    cites: ['C.events.3'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', EVENT_BY_ID) || q(request, 'daml_value_encoding') !== 'protobuf_json' || !body) return undefined;
      const tx = eventTransaction(body);
      if (!tx) return undefined;
      let changed = false;
      const events: Json = {};
      for (const [id, e] of Object.entries(tx.events_by_id as Json)) {
        if (isObj(e) && e.event_type === 'exercised_event') {
          const c: Json = { ...e };
          if ('choice_argument' in e) c.choice_argument = protobufToCompact(e.choice_argument);
          if ('exercise_result' in e) c.exercise_result = protobufToCompact(e.exercise_result);
          events[id] = c;
          changed = true;
        } else events[id] = e;
      }
      return changed ? withBody(answer, { ...body, update: { ...tx, events_by_id: events } }) : undefined;
    },
  },
  // A response cache keyed by the encoding and the first 10 characters of the update id: with random ids this
  // never collides, but ids sharing a prefix get the item of the first one asked.
  {
    name: 'blind-r1-scan-events-cache-truncated-key',
    interface: 'scan',
    breaks: 'GET /v0/events/{update_id}: Path `update_id` string. 200: event history item `{update?, verdict?, traffic_summary?, app_activity_records?}`.',
    cites: ['C.events.4'],
    rewrite(request, answer, memory) {
      const m = match(request, 'GET', EVENT_BY_ID);
      if (!m || answer.status !== 200) return undefined;
      const id = m[0]!;
      const key = `${q(request, 'daml_value_encoding') ?? 'compact_json'}|${id.slice(0, 10)}`;
      const cached = memory.get(key) as { id: string; answer: BlindAnswer } | undefined;
      if (!cached) {
        memory.set(key, { id, answer: clone(answer) });
        return undefined;
      }
      return cached.id === id ? undefined : clone(cached.answer);
    },
  },
  // ---------------------------------------------------------------- bulk history

  // The upper bound of page_size is checked exclusively: 1000 is refused.
  {
    name: 'blind-r1-scan-bulk-page-size-1000-refused',
    interface: 'scan',
    breaks: '`page_size` int32 required, 1 to 1000',
    cites: ['C.bulk-updates.5'],
    rewrite(request, answer) {
      if (!match(request, 'POST', /^\/v0\/history\/bulk\/updates$/) || answer.status !== 200 || bodyField(request, 'page_size') !== 1000) return undefined;
      return jsonAnswer(400, { error: 'Invalid request: page_size must be between 1 and 999' });
    },
  },
]);
