// Round 1 of blind faults on the scan interface (`{scan_base_url}/api/scan`). Written from the description's
// scan section and the node's answers only: each fault rewrites what a client would receive for one endpoint
// (often one variant of it, or one bound) so that exactly one stated rule no longer holds.
import { type BlindAnswer, type BlindRequest, blindRound } from '../seam.ts';

const SCAN = '/api/scan';

type Json = Record<string, unknown>;

function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The answer's JSON object body when it is a 200 JSON answer, else undefined. */
function okBody(answer: BlindAnswer): Json | undefined {
  if (answer.status !== 200 || !isObj(answer.body)) return undefined;
  return answer.body;
}

function withBody(answer: BlindAnswer, body: unknown): BlindAnswer {
  return { ...answer, body };
}

function jsonAnswer(status: number, body: unknown): BlindAnswer {
  return { status, contentType: 'application/json', body };
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** The first value of a query parameter. */
function q(request: BlindRequest, name: string): string | undefined {
  const v = request.query[name];
  return Array.isArray(v) ? v[0] : v;
}

function qAll(request: BlindRequest, name: string): string[] {
  const v = request.query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The path segments after `/api/scan`, URL-decoded, when the request is `method` on a path matching `re`. */
function match(request: BlindRequest, method: string, re: RegExp): string[] | undefined {
  if (request.method.toUpperCase() !== method || !request.path.startsWith(SCAN)) return undefined;
  const m = re.exec(request.path.slice(SCAN.length));
  if (!m) return undefined;
  return m.slice(1).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

function bodyField(request: BlindRequest, name: string): unknown {
  return isObj(request.body) ? request.body[name] : undefined;
}

/** Adds `micros` microseconds to an ISO 8601 UTC timestamp, keeping six fractional digits. */
function addMicros(iso: string, micros: number): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (!m) return iso;
  const total = Date.parse(`${m[1]}Z`) * 1000 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6)) + micros;
  const secs = Math.floor(total / 1_000_000);
  return `${new Date(secs * 1000).toISOString().slice(0, 19)}.${String(total - secs * 1_000_000).padStart(6, '0')}Z`;
}

/** The timestamp as JavaScript's Date renders it: millisecond precision. */
function toMillis(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString();
}

/** A Daml value in the protobuf-JSON encoding, rendered in the compact encoding. */
function protobufToCompact(v: unknown): unknown {
  if (!isObj(v)) return v;
  if (isObj(v.record)) {
    const out: Json = {};
    const fields = Array.isArray(v.record.fields) ? v.record.fields : [];
    for (const f of fields) if (isObj(f) && typeof f.label === 'string') out[f.label] = protobufToCompact(f.value);
    return out;
  }
  if (isObj(v.list) && Array.isArray(v.list.elements)) return v.list.elements.map(protobufToCompact);
  const keys = Object.keys(v);
  if (keys.length === 1) {
    const inner = v[keys[0]!];
    if (typeof inner === 'string' || typeof inner === 'boolean' || typeof inner === 'number') return inner;
    if (isObj(inner) && isObj(inner.Some)) return protobufToCompact(inner.Some);
  }
  return v;
}

const HOLDINGS = /^\/(v0|v1)\/holdings\/state$/;
const UPDATE_BY_ID = /^\/v0\/updates\/([^/]+)$/;
const EVENT_BY_ID = /^\/v0\/events\/([^/]+)$/;

/** A holdings-state request of version `version` with a 200 answer: [request body, answer body]. */
function holdings(request: BlindRequest, answer: BlindAnswer, version: 'v0' | 'v1'): [Json, Json] | undefined {
  const m = match(request, 'POST', HOLDINGS);
  if (!m || m[0] !== version || !isObj(request.body)) return undefined;
  const body = okBody(answer);
  if (!body || !Array.isArray(body.created_events)) return undefined;
  return [request.body, body];
}

/** The transaction of a `/v0/events/{id}` 200 answer (an update with `events_by_id`). */
function eventTransaction(body: Json): Json | undefined {
  const u = body.update;
  return isObj(u) && isObj(u.events_by_id) ? u : undefined;
}

export const ROUND_1_SCAN = blindRound(1, [
  // ---------------------------------------------------------------- holdings state (v0 / v1)

  // v1: the page is cut one short of page_size while the token points past the dropped contract, so walking the
  // pages loses one holding per page boundary.
  {
    name: 'blind-r1-scan-holdings-v1-page-loses-last',
    interface: 'scan',
    breaks: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
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
    rewrite(request, answer) {
      if (!match(request, 'POST', /^\/v0\/history\/bulk\/updates$/) || answer.status !== 200 || bodyField(request, 'page_size') !== 1000) return undefined;
      return jsonAnswer(400, { error: 'Invalid request: page_size must be between 1 and 999' });
    },
  },

  // A continued listing resumes one object too far: the first object of every later page is skipped.
  {
    name: 'blind-r1-scan-bulk-token-skips-object',
    interface: 'scan',
    breaks:
      'Returns references to bulk storage objects covering a record-time range; objects may contain updates outside the range but include all updates inside it.',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'POST', /^\/v0\/history\/bulk\/updates$/) || !body || typeof bodyField(request, 'next_page_token') !== 'string') return undefined;
      if (!Array.isArray(body.object_refs) || body.object_refs.length === 0) return undefined;
      return withBody(answer, { ...body, object_refs: body.object_refs.slice(1) });
    },
  },

  // The download trims the object's final newline, so its bytes no longer match the listed digest.
  {
    name: 'blind-r1-scan-bulk-download-trimmed',
    interface: 'scan',
    breaks: '`digest` string (sha256 digest of the object for integrity and cross-node consistency)',
    rewrite(request, answer) {
      if (!match(request, 'GET', /^\/v0\/history\/bulk\/download\/(.+)$/) || answer.status !== 200) return undefined;
      if (typeof answer.body === 'string' && answer.body.endsWith('\n')) return withBody(answer, answer.body.replace(/\n+$/, ''));
      if (Buffer.isBuffer(answer.body) && answer.body.length > 0) return withBody(answer, answer.body.subarray(0, answer.body.length - 1));
      return undefined;
    },
  },

  // An unknown object key reads as an empty object (200, no bytes) instead of 404.
  {
    name: 'blind-r1-scan-bulk-download-missing-empty',
    interface: 'scan',
    breaks: 'GET /v0/history/bulk/download/{object_key}: 200: binary body, `application/octet-stream`. 404 `{error}`.',
    rewrite(request, answer) {
      if (!match(request, 'GET', /^\/v0\/history\/bulk\/download\/(.+)$/) || answer.status !== 404) return undefined;
      return { status: 200, contentType: 'application/octet-stream', body: '' };
    },
  },

  // ---------------------------------------------------------------- by-key lookups

  // A miss returns the preapproval of the last party found (a reused response object).
  {
    name: 'blind-r1-scan-preapproval-miss-returns-previous',
    interface: 'scan',
    breaks:
      'GET /v0/transfer-preapprovals/by-party/{party}: Path `party` string (receiver party). 200 `{transfer_preapproval: ContractWithState}`. 404 `{error}`.',
    rewrite(request, answer, memory) {
      if (!match(request, 'GET', /^\/v0\/transfer-preapprovals\/by-party\/([^/]+)$/)) return undefined;
      if (answer.status === 200) {
        memory.set('last', clone(answer));
        return undefined;
      }
      const last = memory.get('last') as BlindAnswer | undefined;
      return answer.status === 404 && last ? clone(last) : undefined;
    },
  },

  // v1: a party hosted on several participants reports only the first one (the v0 lookup is reused).
  {
    name: 'blind-r1-scan-participant-v1-first-host-only',
    interface: 'scan',
    breaks: 'Supports parties hosted on several participants (unlike v0). 200 `{participant_ids: string[]}`',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v1\/domains\/([^/]+)\/parties\/([^/]+)\/participant-id$/) || !body) return undefined;
      if (!Array.isArray(body.participant_ids) || body.participant_ids.length < 2) return undefined;
      return withBody(answer, { ...body, participant_ids: body.participant_ids.slice(0, 1) });
    },
  },

  // A full synchronizer id (`name::fingerprint`) is not accepted as its own prefix: 404.
  {
    name: 'blind-r1-scan-sync-identities-full-id-not-found',
    interface: 'scan',
    breaks: 'GET /v0/synchronizer-identities/{domain_id_prefix}: Path `domain_id_prefix` string. 200 `{sequencer_id: string, ...}`. 404 `{error}`.',
    rewrite(request, answer) {
      const m = match(request, 'GET', /^\/v0\/synchronizer-identities\/([^/]+)$/);
      if (!m || answer.status !== 200 || !m[0]!.includes('::')) return undefined;
      return jsonAnswer(404, { error: `No synchronizer found for prefix ${m[0]}` });
    },
  },

  // Reward weight answers are cached per svParty, ignoring effectiveBefore: the first answer for a party is
  // returned for every later cutoff.
  {
    name: 'blind-r1-scan-reward-weight-cache-ignores-cutoff',
    interface: 'scan',
    breaks: '`effectiveBefore` string optional (only weight changes effective strictly before it are considered)',
    rewrite(request, answer, memory) {
      if (!match(request, 'POST', /^\/v0\/admin\/sv\/previous-sv-reward-weight$/) || answer.status !== 200) return undefined;
      const party = bodyField(request, 'svParty');
      if (typeof party !== 'string') return undefined;
      const cached = memory.get(party) as BlindAnswer | undefined;
      if (!cached) {
        memory.set(party, clone(answer));
        return undefined;
      }
      return clone(cached);
    },
  },

  // ---------------------------------------------------------------- traffic, faucets

  // actual.total_limit and target.total_purchased are read from each other's column.
  {
    name: 'blind-r1-scan-traffic-limit-purchased-swapped',
    interface: 'scan',
    breaks: 'A top-up is complete when total_limit equals total_purchased; total_purchased may exceed total_limit while purchases are incorporated.',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/domains\/([^/]+)\/members\/([^/]+)\/traffic-status$/) || !body || !isObj(body.traffic_status)) return undefined;
      const { actual, target } = body.traffic_status;
      if (!isObj(actual) || !isObj(target) || actual.total_limit === target.total_purchased) return undefined;
      return withBody(answer, {
        ...body,
        traffic_status: {
          ...body.traffic_status,
          actual: { ...actual, total_limit: target.total_purchased },
          target: { ...target, total_purchased: actual.total_limit },
        },
      });
    },
  },

  // A member id that is not `PAR::…`/`MED::…` is looked up anyway and answers 404 instead of 400.
  {
    name: 'blind-r1-scan-traffic-bad-member-not-found',
    interface: 'scan',
    breaks: '`member_id` string, format `code::id::fingerprint` with `code` being `PAR` (participant) or `MED` (mediator). ... Errors 400, 404, 500.',
    rewrite(request, answer) {
      const m = match(request, 'GET', /^\/v0\/domains\/([^/]+)\/members\/([^/]+)\/traffic-status$/);
      if (!m || answer.status !== 400) return undefined;
      return jsonAnswer(404, { error: `No traffic state found for member ${m[1]}` });
    },
  },

  // A validator that collected in a single round reports lastCollectedInRound one past its first round.
  {
    name: 'blind-r1-scan-faucets-single-round-last-off-by-one',
    interface: 'scan',
    breaks: 'Invariant: collected + missed = last - first + 1; last equals first when collected in a single round.',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/validators\/validator-faucets$/) || !body || !Array.isArray(body.validatorsReceivedFaucets)) return undefined;
      let changed = false;
      const list = body.validatorsReceivedFaucets.map((v) => {
        if (!isObj(v) || v.numRoundsCollected !== 1 || typeof v.firstCollectedInRound !== 'number' || v.lastCollectedInRound !== v.firstCollectedInRound)
          return v;
        changed = true;
        return { ...v, lastCollectedInRound: v.firstCollectedInRound + 1 };
      });
      return changed ? withBody(answer, { ...body, validatorsReceivedFaucets: list }) : undefined;
    },
  },

  // Only the first occurrence of validator_ids is read (the query parser's single-value getter).
  {
    name: 'blind-r1-scan-faucets-first-id-only',
    interface: 'scan',
    breaks: 'Query `validator_ids` string[] required, one occurrence of the parameter per party id',
    rewrite(request, answer) {
      const body = okBody(answer);
      const ids = qAll(request, 'validator_ids');
      if (!match(request, 'GET', /^\/v0\/validators\/validator-faucets$/) || !body || ids.length < 2 || !Array.isArray(body.validatorsReceivedFaucets)) {
        return undefined;
      }
      const kept = body.validatorsReceivedFaucets.filter((v) => isObj(v) && v.validator === ids[0]);
      return kept.length === body.validatorsReceivedFaucets.length ? undefined : withBody(answer, { ...body, validatorsReceivedFaucets: kept });
    },
  },

  // Requested ids that are not onboarded validators get an all-zero entry instead of being ignored.
  {
    name: 'blind-r1-scan-faucets-unknown-ids-listed',
    interface: 'scan',
    breaks: 'ids not matching onboarded validators are ignored',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/validators\/validator-faucets$/) || !body || !Array.isArray(body.validatorsReceivedFaucets)) return undefined;
      const known = new Set(body.validatorsReceivedFaucets.map((v) => (isObj(v) ? v.validator : undefined)));
      const extra = [...new Set(qAll(request, 'validator_ids'))]
        .filter((id) => !known.has(id))
        .map((validator) => ({ validator, numRoundsCollected: 0, numRoundsMissed: 0, firstCollectedInRound: 0, lastCollectedInRound: 0 }));
      return extra.length === 0 ? undefined : withBody(answer, { ...body, validatorsReceivedFaucets: [...body.validatorsReceivedFaucets, ...extra] });
    },
  },

  // ---------------------------------------------------------------- small state endpoints

  // The coupon list is keyed with underscores (the generated model's field name) instead of dashes.
  {
    name: 'blind-r1-scan-coupons-key-underscored',
    interface: 'scan',
    breaks: '200 `{"unclaimed-development-fund-coupons": ContractWithState[]}`',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/unclaimed-development-fund-coupons$/) || !body || !('unclaimed-development-fund-coupons' in body)) return undefined;
      return withBody(answer, { unclaimed_development_fund_coupons: body['unclaimed-development-fund-coupons'] });
    },
  },

  // The feature flag is rendered as a string.
  {
    name: 'blind-r1-scan-feature-support-flag-string',
    interface: 'scan',
    breaks: '200 `{dummy?: boolean}`',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/feature-support$/) || !body || typeof body.dummy !== 'boolean') return undefined;
      return withBody(answer, { ...body, dummy: String(body.dummy) });
    },
  },

  // The forced snapshot's record time is reported at millisecond precision, so it is not a snapshot time that
  // `record_time_match=exact` accepts.
  {
    name: 'blind-r1-scan-acs-force-time-millis',
    interface: 'scan',
    breaks: 'Takes an ACS snapshot at the current time; the result is usable as parameters for the ACS state endpoint.',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'POST', /^\/v0\/state\/acs\/force$/) || !body || typeof body.record_time !== 'string') return undefined;
      const ms = toMillis(body.record_time);
      return ms === body.record_time ? undefined : withBody(answer, { ...body, record_time: ms });
    },
  },

  // ---------------------------------------------------------------- name service

  // With a non-empty name_prefix the entries come newest first (the prefix query sorts descending).
  {
    name: 'blind-r1-scan-ans-prefix-newest-first',
    interface: 'scan',
    breaks: '`page_size` int32 required (maximum results; older non-expired entries first)',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/ans-entries$/) || !body || !q(request, 'name_prefix') || !Array.isArray(body.entries) || body.entries.length < 2) {
        return undefined;
      }
      return withBody(answer, { ...body, entries: [...body.entries].reverse() });
    },
  },

  // Entries without expiry get the epoch as expires_at (a default timestamp), i.e. they read as long expired.
  {
    name: 'blind-r1-scan-ans-no-expiry-as-epoch',
    interface: 'scan',
    breaks: '`expires_at` date-time (optional or null: no expiry, only for special entries; ...)',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/ans-entries$/) || !body || !Array.isArray(body.entries)) return undefined;
      let changed = false;
      const entries = body.entries.map((e) => {
        if (!isObj(e) || e.expires_at != null) return e;
        changed = true;
        return { ...e, expires_at: '1970-01-01T00:00:00Z' };
      });
      return changed ? withBody(answer, { ...body, entries }) : undefined;
    },
  },

  // An explicitly empty name_prefix matches nothing.
  {
    name: 'blind-r1-scan-ans-empty-prefix-lists-nothing',
    interface: 'scan',
    breaks: '`name_prefix` string optional (every result name starts with this substring; empty or absent lists all; any substring accepted)',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (
        !match(request, 'GET', /^\/v0\/ans-entries$/) ||
        !body ||
        q(request, 'name_prefix') !== '' ||
        !Array.isArray(body.entries) ||
        body.entries.length === 0
      ) {
        return undefined;
      }
      return withBody(answer, { ...body, entries: [] });
    },
  },

  // ---------------------------------------------------------------- reward accounting root hash

  // An Ok answer names the round before the one asked (the hash is the right round's).
  {
    name: 'blind-r1-scan-root-hash-round-off-by-one',
    interface: 'scan',
    breaks: 'Path `round_number` int64. 200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}`',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/internal\/reward-accounting-process\/rounds\/([^/]+)\/root-hash$/) || !body) return undefined;
      if (typeof body.round_number !== 'number') return undefined;
      return withBody(answer, { ...body, round_number: body.round_number - 1 });
    },
  },

  // The root hash is base64-encoded instead of hex for Ok answers.
  {
    name: 'blind-r1-scan-root-hash-base64',
    interface: 'scan',
    breaks: '`root_hash: string (hex-encoded)`',
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/internal\/reward-accounting-process\/rounds\/([^/]+)\/root-hash$/) || !body) return undefined;
      if (typeof body.root_hash !== 'string' || !/^[0-9a-fA-F]+$/.test(body.root_hash) || body.root_hash.length % 2 !== 0) return undefined;
      return withBody(answer, { ...body, root_hash: Buffer.from(body.root_hash, 'hex').toString('base64') });
    },
  },
]);
