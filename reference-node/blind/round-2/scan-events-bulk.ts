// Round-2 blind faults of the scan interface: event history items (updates with verdicts) and bulk history.
// Written from the description, the facts and the reference node's answers only.
import { blindRound } from '../seam.ts';
import { bodyOf, compactify, errorAnswer, isObject, isScan, type Json, okBody, queryOne, sha256Hex, toMillis, treeEvents, withBody } from './scan-support.ts';

const EVENT_BY_ID = /^\/v0\/events\/[^/]+$/;
const EVENT_LIST = '/v0/events';

/** The event history items of an answer of `/v0/events/{id}` or of the `/v0/events` list, else undefined. */
function eventItems(request: Parameters<typeof isScan>[0], body: Json): Json[] | undefined {
  if (isScan(request, 'GET', EVENT_BY_ID)) return [body];
  if (isScan(request, 'POST', EVENT_LIST) && Array.isArray(body.events)) return body.events.filter(isObject);
  return undefined;
}

/** The encoding a request of the event endpoints asked for. */
function encodingOf(request: Parameters<typeof isScan>[0]): unknown {
  return request.method.toUpperCase() === 'GET' ? queryOne(request, 'daml_value_encoding') : bodyOf(request).daml_value_encoding;
}

export const ROUND_2_SCAN_EVENTS_BULK = blindRound(2, [
  {
    // The verdict's update id is written from the mediator's raw transaction hash, without the `1220` multihash
    // prefix the update ids carry: it no longer names the associated transaction update.
    name: 'blind-r2-scan-events-verdict-update-id-bare-hash',
    interface: 'scan',
    breaks: 'verdict | `update_id` string (the associated transaction update)',
    cites: ['R.scan.28'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!body) return undefined;
      const items = eventItems(request, body);
      if (!items) return undefined;
      let changed = false;
      for (const it of items) {
        if (isObject(it.verdict) && typeof it.verdict.update_id === 'string' && it.verdict.update_id.startsWith('1220')) {
          it.verdict.update_id = it.verdict.update_id.slice(4);
          changed = true;
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // The V2 tree is rebuilt with a stack, so each exercised event lists its children last-first.
    name: 'blind-r2-scan-events-children-reversed',
    interface: 'scan',
    breaks: '`events_by_id` is sorted lexicographically by id, and `child_event_ids` are in the order events occurred.',
    cites: ['R.scan.19'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!body) return undefined;
      const items = eventItems(request, body);
      if (!items) return undefined;
      let changed = false;
      for (const it of items) {
        for (const e of treeEvents(it.update)) {
          if (Array.isArray(e.child_event_ids) && e.child_event_ids.length > 1) {
            e.child_event_ids = [...e.child_event_ids].reverse();
            changed = true;
          }
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // The V2 tree map is filled from two queries, created events first and exercised events after, and is not
    // sorted again: its keys are out of lexicographic order whenever an exercise precedes a create.
    name: 'blind-r2-scan-events-tree-grouped-by-kind',
    interface: 'scan',
    breaks:
      'UpdateHistoryTransactionV2 (`update` in `/v0/events/{update_id}`): the same as above without `offset`; `events_by_id` is sorted lexicographically by id',
    cites: ['R.scan.18'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!body) return undefined;
      const items = eventItems(request, body);
      if (!items) return undefined;
      let changed = false;
      for (const it of items) {
        const u = it.update;
        if (!isObject(u) || !isObject(u.events_by_id)) continue;
        const entries = Object.entries(u.events_by_id);
        const created = entries.filter(([, e]) => isObject(e) && e.event_type === 'created_event');
        const others = entries.filter(([, e]) => !(isObject(e) && e.event_type === 'created_event'));
        const regrouped = [...created, ...others];
        if (regrouped.some(([k], i) => k !== entries[i]?.[0])) {
          u.events_by_id = Object.fromEntries(regrouped);
          changed = true;
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // An item that carries only a verdict gets a default-constructed, empty update object: an update that is
    // neither a transaction nor a reassignment.
    name: 'blind-r2-scan-events-verdict-only-empty-update',
    interface: 'scan',
    breaks: 'Event history item (`/v0/events/{update_id}`): `update` (UpdateHistoryItemV2: transaction or reassignment)',
    cites: ['R.scan.27'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!body) return undefined;
      const items = eventItems(request, body);
      if (!items) return undefined;
      let changed = false;
      for (const it of items) {
        if (isObject(it.verdict) && (it.update === undefined || it.update === null)) {
          it.update = {};
          changed = true;
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // protobuf_json is applied to transaction trees only; the created event inside an assignment is still
    // rendered in the compact encoding.
    name: 'blind-r2-scan-events-protobuf-skips-assignments',
    interface: 'scan',
    breaks: '`protobuf_json` (verbose, carries type information, losslessly parsable)',
    cites: ['C.events.3'],
    rewrite(request, answer) {
      if (encodingOf(request) !== 'protobuf_json') return undefined;
      const body = okBody(answer);
      if (!body) return undefined;
      const items = eventItems(request, body);
      if (!items) return undefined;
      let changed = false;
      for (const it of items) {
        const ev = isObject(it.update) ? it.update.event : undefined;
        if (isObject(ev) && isObject(ev.created_event) && 'create_arguments' in ev.created_event) {
          const c = compactify(ev.created_event.create_arguments);
          if (JSON.stringify(c) !== JSON.stringify(ev.created_event.create_arguments)) {
            ev.created_event.create_arguments = c;
            changed = true;
          }
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // The by-id event lookup reads the update's record time through a millisecond clock type: the microseconds
    // are lost (`…:04.000148Z` becomes `…:04.000Z`).
    name: 'blind-r2-scan-events-update-record-time-millis',
    interface: 'scan',
    breaks: '`record_time` string (sequencing time, microsecond resolution, ISO 8601)',
    cites: ['R.scan.9', 'R.scan.17'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', EVENT_BY_ID)) return undefined;
      const body = okBody(answer);
      if (!body || !isObject(body.update) || typeof body.update.record_time !== 'string') return undefined;
      const ms = toMillis(body.update.record_time);
      if (ms === body.update.record_time) return undefined;
      body.update.record_time = ms;
      return withBody(answer, body);
    },
  },
  {
    // An unknown daml_value_encoding reaches the encoder unchecked and fails there: 500 instead of 400.
    name: 'blind-r2-scan-events-bad-encoding-500',
    interface: 'scan',
    breaks: 'Query `daml_value_encoding` optional, allowed `compact_json` ... and `protobuf_json` ... Errors 400, 404, 500.',
    cites: ['C.events.1', 'X.errors.9'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', EVENT_BY_ID) || answer.status !== 400) return undefined;
      const enc = queryOne(request, 'daml_value_encoding');
      if (enc === undefined || enc === 'compact_json' || enc === 'protobuf_json') return undefined;
      return errorAnswer(500, `Internal error: no encoder for ${enc}`);
    },
  },
  {
    // A lookup that finds neither an update nor a verdict answers an empty item (all four parts are optional)
    // instead of 404.
    name: 'blind-r2-scan-events-unknown-id-empty-item',
    interface: 'scan',
    breaks: 'Scan (general) | 404 | Not found',
    cites: ['X.errors.10', 'C.events.5'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', EVENT_BY_ID) || answer.status !== 404) return undefined;
      return { status: 200, contentType: 'application/json', body: {} };
    },
  },
  {
    // The page_size bound is checked with `< 1000`: the documented maximum itself is refused with 400.
    name: 'blind-r2-scan-bulk-page-size-max-refused',
    interface: 'scan',
    breaks: '`page_size` int32 required, 1 to 1000.',
    cites: ['C.bulk-updates.5'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', '/v0/history/bulk/updates') || answer.status !== 200) return undefined;
      if (bodyOf(request).page_size !== 1000) return undefined;
      return errorAnswer(400, 'Invalid request: page_size must be between 1 and 999');
    },
  },
  {
    // The digest is computed over the object's download URL (its key), not over the object's bytes.
    name: 'blind-r2-scan-bulk-digest-of-url',
    interface: 'scan',
    breaks: '`digest` string (sha256 digest of the object for integrity and cross-node consistency)',
    cites: ['R.scan.45'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', '/v0/history/bulk/updates')) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.object_refs) || body.object_refs.length === 0) return undefined;
      body.object_refs = body.object_refs.map((r) => (isObject(r) && typeof r.url === 'string' ? { ...r, digest: sha256Hex(r.url) } : r));
      return withBody(answer, body);
    },
  },
  {
    // The download handler picks its content type from the object key's `.jsonl` extension.
    name: 'blind-r2-scan-bulk-download-ndjson-type',
    interface: 'scan',
    breaks: 'Path `object_key` string. 200: binary body, `application/octet-stream`.',
    cites: ['C.bulk-download.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', /^\/v0\/history\/bulk\/download\/.+$/) || answer.status !== 200) return undefined;
      return { ...answer, contentType: 'application/x-ndjson' };
    },
  },
]);
