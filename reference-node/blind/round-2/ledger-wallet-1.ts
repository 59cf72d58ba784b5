// Round-2 blind faults of the ledger update stream (POST /v2/updates), written from the description alone.
// Each breaks one rule the description states; see ledger-wallet-2.ts for the other ledger endpoints and the wallet.
import type { BlindAnswer, BlindRequest } from '../seam.ts';
import { blindRound } from '../seam.ts';
import {
  beginExclusive,
  checkpoint,
  clone,
  endInclusive,
  filtersOf,
  header,
  isDescending,
  isJsonAnswer,
  isLegacy,
  isObject,
  isUpdates,
  itemKind,
  itemOffset,
  itemRecord,
  type Json,
  json,
  limitOf,
  partiesNamed,
  queryOne,
  requestBody,
  stableKey,
  synchronizerTimesOf,
  text,
  transactionShape,
  updateFormat,
  updateItems,
  wantsReassignments,
  withoutParties,
} from './ledger-wallet-support.ts';

/** The key of "the same read" apart from its window: who asks, and the body without begin, end and order. */
function readKey(request: BlindRequest): string {
  const { beginExclusive: _b, endInclusive: _e, descendingOrder: _d, ...rest } = requestBody(request);
  return `${header(request, 'authorization') ?? ''}|${stableKey(rest)}`;
}

function itemsMemory(memory: Map<string, unknown>, key: string): Map<number, Json> {
  let m = memory.get(key) as Map<number, Json> | undefined;
  if (!m) memory.set(key, (m = new Map()));
  return m;
}

export const ROUND_2_LEDGER_WALLET_1 = blindRound(2, [
  {
    // Paging off-by-one: the node keeps the items it served per reader and filter, and when a read starts at an
    // offset it served before (the next page, beginExclusive = the last offset of the previous page) it starts its
    // cursor AT that offset instead of after it: the boundary item comes again at the head of the next page.
    name: 'blind-r2-ledger-updates-page-repeats-boundary',
    interface: 'ledger',
    breaks: '`beginExclusive`: Only updates with offset strictly greater are returned.',
    cites: ['R.ledger.3'],
    rewrite(request, answer, memory) {
      if (!isUpdates(request)) return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      const seen = itemsMemory(memory, readKey(request));
      const begin = beginExclusive(requestBody(request));
      const boundary = begin !== undefined && begin > 0 ? seen.get(begin) : undefined;
      for (const it of items) {
        const o = itemOffset(it);
        if (o !== undefined) seen.set(o, it);
      }
      if (!boundary || items.some((it) => itemOffset(it) === begin)) return undefined;
      const out = clone(items);
      const limit = limitOf(request);
      const descending = isDescending(requestBody(request));
      if (limit !== undefined && out.length >= limit) out.pop();
      if (descending) out.push(clone(boundary));
      else out.unshift(clone(boundary));
      return json(200, out);
    },
  },
  {
    // The node closes a bounded read with a checkpoint of the position it stopped at, one past the window's end
    // (it reports the position its cursor reached, not the last offset it was allowed to read).
    name: 'blind-r2-ledger-updates-checkpoint-past-end',
    interface: 'ledger',
    breaks: '`endInclusive`: Only updates with offset <= this are returned.',
    cites: ['R.ledger.7'],
    rewrite(request, answer) {
      if (!isUpdates(request)) return undefined;
      const items = updateItems(answer);
      const body = requestBody(request);
      const end = endInclusive(body);
      if (!items || items.length === 0 || end === undefined || isDescending(body)) return undefined;
      const limit = limitOf(request);
      if (limit !== undefined && items.length >= limit) return undefined;
      const last = items[items.length - 1]!;
      return json(200, [...clone(items), checkpoint(end + 1, synchronizerTimesOf(last))]);
    },
  },
  {
    // The order flag is parsed but never handed to the reader: a descending read comes back ascending.
    name: 'blind-r2-ledger-updates-descending-ignored',
    interface: 'ledger',
    breaks: '`descendingOrder`: If set, elements are returned in descending order.',
    cites: ['R.ledger.19'],
    rewrite(request, answer) {
      if (!isUpdates(request) || !isDescending(requestBody(request))) return undefined;
      const items = updateItems(answer);
      if (!items || items.length < 2) return undefined;
      return json(200, clone(items).reverse());
    },
  },
  {
    // The node validates `limit` against its list limit (200) and refuses a bigger one instead of ignoring it.
    name: 'blind-r2-ledger-updates-big-limit-refused',
    interface: 'ledger',
    breaks: '`limit` ...: ignored if bigger than the server setting.',
    cites: ['A.updates.3'],
    rewrite(request) {
      if (!isUpdates(request)) return undefined;
      const limit = limitOf(request);
      if (limit === undefined || limit <= 200) return undefined;
      return text(400, `Invalid value for: query parameter limit (must not exceed the server setting 200, got ${limit})`);
    },
  },
  {
    // `limit` is counted on transactions, reassignments and topology transactions only: a full page gets one more
    // element, an offset checkpoint of the position after its last item.
    name: 'blind-r2-ledger-updates-limit-skips-checkpoints',
    interface: 'ledger',
    breaks: 'Query `limit` int64 optional: maximum elements to return',
    cites: ['A.updates.2'],
    rewrite(request, answer) {
      if (!isUpdates(request)) return undefined;
      const items = updateItems(answer);
      const limit = limitOf(request);
      const body = requestBody(request);
      if (!items || limit === undefined || limit === 0 || items.length !== limit || isDescending(body)) return undefined;
      const last = items[items.length - 1]!;
      const lastOffset = itemOffset(last);
      if (lastOffset === undefined) return undefined;
      const end = endInclusive(body);
      if (end !== undefined && lastOffset + 1 > end) return undefined;
      return json(200, [...clone(items), checkpoint(lastOffset + 1, synchronizerTimesOf(last))]);
    },
  },
  {
    // A response cache keyed on the request without its parties: an ACS-delta read of a window answered for some
    // parties is served again to a read of the same window and format for other parties.
    name: 'blind-r2-ledger-updates-cache-ignores-parties',
    interface: 'ledger',
    breaks: 'Transaction shapes: ACS delta (an event is included only if a requesting party is a stakeholder of it)',
    cites: ['S.service.5'],
    rewrite(request, answer, memory) {
      if (!isUpdates(request) || answer.status !== 200) return undefined;
      const body = requestBody(request);
      if (transactionShape(body) !== 'TRANSACTION_SHAPE_ACS_DELTA') return undefined;
      const key = `${stableKey(request.query)}|${stableKey(withoutParties(body))}`;
      const parties = partiesNamed(body).join(',');
      const cached = memory.get(key) as { parties: string; body: unknown } | undefined;
      if (!cached) {
        memory.set(key, { parties, body: clone(answer.body) });
        return undefined;
      }
      if (cached.parties === parties || stableKey(cached.body) === stableKey(answer.body)) return undefined;
      return json(200, clone(cached.body));
    },
  },
  {
    // The ledger-effects renderer reuses the ACS-delta path for consuming exercises: a consuming exercise comes out
    // as an archive event, so the ledger-effects transaction carries no exercise for it.
    name: 'blind-r2-ledger-updates-effects-archives',
    interface: 'ledger',
    breaks: 'in the ledger-effects shape, create and exercise events are emitted where a requesting party is a witness.',
    cites: ['X.events.4'],
    rewrite(request, answer) {
      if (!isUpdates(request) || transactionShape(requestBody(request)) !== 'TRANSACTION_SHAPE_LEDGER_EFFECTS') return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      let changed = false;
      const out = clone(items);
      for (const it of out) {
        if (itemKind(it) !== 'Transaction') continue;
        const r = itemRecord(it);
        if (!r || !Array.isArray(r.events)) continue;
        r.events = r.events.map((e: unknown) => {
          if (!isObject(e) || !isObject(e.ExercisedEvent) || e.ExercisedEvent.consuming !== true) return e;
          const x = e.ExercisedEvent;
          changed = true;
          return {
            ArchivedEvent: {
              offset: x.offset,
              nodeId: x.nodeId,
              contractId: x.contractId,
              templateId: x.templateId,
              witnessParties: x.witnessParties,
              packageName: x.packageName,
              ...(x.implementedInterfaces === undefined ? {} : { implementedInterfaces: x.implementedInterfaces }),
            },
          };
        });
      }
      return changed ? json(200, out) : undefined;
    },
  },
  {
    // With no cumulative filter the node falls back to a wildcard filter built with the blob flag on: every created
    // event carries its created-event blob although none was asked for.
    name: 'blind-r2-ledger-updates-default-filter-blob',
    interface: 'ledger',
    breaks: 'Filters: When no cumulative filter is defined, a single wildcard filter without created-event blob is used.',
    cites: ['R.ledger.29'],
    rewrite(request, answer) {
      if (!isUpdates(request)) return undefined;
      const filters = filtersOf(requestBody(request));
      if (filters.length === 0 || filters.some((f) => Array.isArray(f.cumulative) && f.cumulative.length > 0)) return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      let changed = false;
      const out = clone(items);
      for (const it of out) {
        if (itemKind(it) !== 'Transaction') continue;
        const r = itemRecord(it);
        if (!r || !Array.isArray(r.events)) continue;
        for (const e of r.events) {
          if (!isObject(e) || !isObject(e.CreatedEvent)) continue;
          const c = e.CreatedEvent;
          if (typeof c.createdEventBlob === 'string' && c.createdEventBlob !== '') continue;
          c.createdEventBlob = Buffer.from(`blob:${String(c.contractId)}`).toString('base64');
          changed = true;
        }
      }
      return changed ? json(200, out) : undefined;
    },
  },
  {
    // The topology reader is switched on by the reader's earlier topology reads (a flag left set per user): once a
    // user has read topology events, its reads with an updateFormat that omits includeTopologyEvents get them too.
    name: 'blind-r2-ledger-updates-topology-unrequested',
    interface: 'ledger',
    breaks: 'UpdateFormat: `includeTopologyEvents` (TopologyFormat; if unset none emitted).',
    cites: ['R.ledger.32'],
    rewrite(request, answer, memory) {
      if (!isUpdates(request)) return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      const who = header(request, 'authorization') ?? '';
      const topo = itemsMemory(memory, who);
      for (const it of items) {
        const o = itemOffset(it);
        if (itemKind(it) === 'TopologyTransaction' && o !== undefined) topo.set(o, it);
      }
      const body = requestBody(request);
      const uf = updateFormat(body);
      const begin = beginExclusive(body);
      const end = endInclusive(body);
      if (!uf || uf.includeTopologyEvents !== undefined || begin === undefined || end === undefined || limitOf(request) !== undefined) return undefined;
      const present = new Set(items.map(itemOffset));
      const extra = [...topo.entries()].filter(([o]) => o > begin && o <= end && !present.has(o)).map(([, it]) => clone(it));
      if (extra.length === 0) return undefined;
      const all = [...clone(items), ...extra].sort((a, b) => (itemOffset(a) ?? 0) - (itemOffset(b) ?? 0));
      return json(200, isDescending(body) ? all.reverse() : all);
    },
  },
  {
    // The legacy form (filter without updateFormat) is translated into an update format without the topology part.
    name: 'blind-r2-ledger-updates-legacy-drops-topology',
    interface: 'ledger',
    breaks:
      "`updateFormat`: If unset for this request, it defaults to: transactions with event format taking filtersByParty, filtersForAnyParty and verbose from the request, shape TRANSACTION_SHAPE_ACS_DELTA; reassignments with the request's filter and verbose; participant-authorization topology events for all parties named in filter.",
    cites: ['R.ledger.16'],
    rewrite(request, answer) {
      if (!isUpdates(request) || !isLegacy(requestBody(request))) return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      const kept = items.filter((it) => itemKind(it) !== 'TopologyTransaction');
      return kept.length === items.length ? undefined : json(200, clone(kept));
    },
  },
  {
    // The reassignment reader only knows assignments: unassignments (and the reassignment updates made of them) are
    // dropped from the stream.
    name: 'blind-r2-ledger-updates-unassignments-dropped',
    interface: 'ledger',
    breaks: 'UpdateFormat: `includeReassignments` (EventFormat; assignments and unassignments, shape ACS delta; if unset none emitted)',
    cites: ['R.ledger.31'],
    rewrite(request, answer) {
      if (!isUpdates(request) || !wantsReassignments(requestBody(request))) return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      let changed = false;
      const out: Json[] = [];
      for (const it of clone(items)) {
        const r = itemRecord(it);
        if (itemKind(it) !== 'Reassignment' || !r || !Array.isArray(r.events)) {
          out.push(it);
          continue;
        }
        const events = r.events.filter((e: unknown) => !(isObject(e) && 'JsUnassignedEvent' in e));
        if (events.length === r.events.length) {
          out.push(it);
          continue;
        }
        changed = true;
        if (events.length > 0) {
          r.events = events;
          out.push(it);
        }
      }
      return changed ? json(200, out) : undefined;
    },
  },
  {
    // An offset checkpoint is folded into the update before it: that element's `update` has two keys.
    name: 'blind-r2-ledger-updates-checkpoint-folded',
    interface: 'ledger',
    breaks: 'Update is a one-of object with exactly one key: `OffsetCheckpoint`, `Reassignment`, `TopologyTransaction` or `Transaction`.',
    cites: ['R.ledger.39'],
    rewrite(request, answer) {
      if (!isUpdates(request)) return undefined;
      const items = updateItems(answer);
      if (!items) return undefined;
      const out: Json[] = [];
      let changed = false;
      for (const it of clone(items)) {
        const prev = out[out.length - 1];
        if (itemKind(it) === 'OffsetCheckpoint' && prev && isObject(prev.update) && isObject(it.update) && itemKind(prev) !== 'OffsetCheckpoint') {
          prev.update.OffsetCheckpoint = it.update.OffsetCheckpoint;
          changed = true;
        } else out.push(it);
      }
      return changed ? json(200, out) : undefined;
    },
  },
  {
    // The decoding layer answers in the wallet's error style: a body or query parameter that cannot be decoded gets
    // a JSON `{error}` instead of the plain-text message.
    name: 'blind-r2-ledger-updates-decode-error-json',
    interface: 'ledger',
    breaks: '400 | `text/plain` string',
    cites: ['A.updates.8'],
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 400 || isJsonAnswer(answer)) return undefined;
      const b = request.body;
      const undecodable = !isObject(b) || typeof b.beginExclusive !== 'number';
      const badQuery = ['limit', 'stream_idle_timeout_ms'].some((q) => {
        const v = queryOne(request, q);
        return v !== undefined && !/^\d+$/.test(v);
      });
      if (!undecodable && !badQuery) return undefined;
      return json(400, { error: typeof answer.body === 'string' ? answer.body : 'Invalid request' });
    },
  },
  {
    // Over the list limit the node stops collecting and answers what it has gathered, nothing, with 200.
    name: 'blind-r2-ledger-updates-over-limit-empty',
    interface: 'ledger',
    breaks: "413 Content Too Large when the result count exceeds the node's list limit",
    cites: ['A.updates.10'],
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 413) return undefined;
      return json(200, []);
    },
  },
  {
    // `stream_idle_timeout_ms` is parsed leniently: a value that is not a non-negative integer reads as 0, and the
    // read is completed at once with no elements.
    name: 'blind-r2-ledger-updates-idle-timeout-lenient',
    interface: 'ledger',
    breaks: '400 | ... (invalid body, invalid `limit`, invalid `stream_idle_timeout_ms`)',
    cites: ['A.updates.7'],
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 400) return undefined;
      const v = queryOne(request, 'stream_idle_timeout_ms');
      if (v === undefined || /^\d+$/.test(v)) return undefined;
      const limit = queryOne(request, 'limit');
      if (limit !== undefined && !/^\d+$/.test(limit)) return undefined;
      const b = request.body;
      if (!isObject(b) || typeof b.beginExclusive !== 'number' || b.beginExclusive < 0) return undefined;
      return json(200, []);
    },
  },
  {
    // A request without credentials is read as a user with no rights: 200 with nothing visible instead of a refusal.
    name: 'blind-r2-ledger-updates-anonymous-served',
    interface: 'ledger',
    breaks: 'Security: either bearer HTTP authentication or API-key authentication.',
    cites: ['A.updates.11'],
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 401) return undefined;
      if (header(request, 'authorization') !== undefined) return undefined;
      return json(200, []);
    },
  },
  {
    // The error renderer copies the category from the context map, where it is a string.
    name: 'blind-r2-ledger-updates-error-category-string',
    interface: 'ledger',
    breaks:
      'JsCantonError: `code` string (required), `cause` string (required), `correlationId` string, `traceId` string, `context` map string to string (required), `resources` array of 2-element string arrays, `errorCategory` int32 (required), `grpcCodeValue` int32, `retryInfo` string, `definiteAnswer` boolean.',
    cites: ['R.ledger.42'],
    rewrite(request, answer: BlindAnswer) {
      if (!isUpdates(request) || answer.status <= 400 || !isObject(answer.body) || typeof answer.body.errorCategory !== 'number') return undefined;
      return json(answer.status, { ...clone(answer.body), errorCategory: String(answer.body.errorCategory) });
    },
  },
]);
