// Round 1 blind faults on the ledger interface (POST /v2/updates above all, and the events-by-contract-id
// lookup) and on the wallet interface (buy-traffic requests, transfer offer status, dso party id). Written from
// the description and the node's answers alone: each rewrites what a client would receive, for one
// endpoint and one condition, the way a real implementation could get it wrong.
import { createHash } from 'node:crypto';
import { type BlindAnswer, type BlindRequest, blindRound } from '../seam.ts';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const clone = <T>(v: T): T => structuredClone(v);

// ---------------------------------------------------------------- requests

const isUpdates = (r: BlindRequest): boolean => r.method === 'POST' && r.path === '/v2/updates';
const isEventsByContractId = (r: BlindRequest): boolean => r.method === 'POST' && r.path === '/v2/events/events-by-contract-id';

function authOf(r: BlindRequest): string {
  const h = r.headers.authorization ?? r.headers.Authorization;
  return Array.isArray(h) ? h.join(',') : (h ?? '');
}

function queryInt(r: BlindRequest, name: string): number | undefined {
  const v = r.query[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined;
}

const body = (r: BlindRequest): Obj => obj(r.body);
const beginOf = (b: Obj): number | undefined => (typeof b.beginExclusive === 'number' ? b.beginExclusive : undefined);
const endOf = (b: Obj): number | undefined => (typeof b.endInclusive === 'number' ? b.endInclusive : undefined);
const isDescending = (b: Obj): boolean => b.descendingOrder === true;

/** The transaction format the request selects: its own, or the legacy default built from `filter`. */
function txFormat(b: Obj): { eventFormat: Obj; shape: 'acs' | 'le' | 'other' } | undefined {
  if (b.updateFormat !== undefined) {
    const tf = obj(b.updateFormat).includeTransactions;
    if (!isObj(tf)) return undefined;
    const s = tf.transactionShape;
    const shape = s === 'TRANSACTION_SHAPE_ACS_DELTA' ? 'acs' : s === 'TRANSACTION_SHAPE_LEDGER_EFFECTS' ? 'le' : 'other';
    return { eventFormat: obj(tf.eventFormat), shape };
  }
  if (isObj(b.filter)) return { eventFormat: b.filter, shape: 'acs' };
  return undefined;
}

const partiesOf = (eventFormat: Obj): string[] => Object.keys(obj(eventFormat.filtersByParty));
const readsAnyParty = (eventFormat: Obj): boolean => eventFormat.filtersForAnyParty !== undefined;

/** What the answer depends on besides the offset window: who asks, and the format. */
const streamSignature = (r: BlindRequest): string => {
  const b = body(r);
  return JSON.stringify([authOf(r), b.updateFormat ?? null, b.filter ?? null, b.verbose ?? null]);
};

// ---------------------------------------------------------------- answers

const okList = (a: BlindAnswer): a is BlindAnswer & { body: unknown[] } => a.status === 200 && Array.isArray(a.body);
const withBody = (a: BlindAnswer, b: unknown): BlindAnswer => ({ ...a, body: b });
const json = (status: number, b: unknown): BlindAnswer => ({ status, contentType: 'application/json', body: b });

function cantonError(status: number, code: string, cause: string, errorCategory: number, grpcCodeValue: number): BlindAnswer {
  return json(status, { code, cause, context: {}, resources: [], errorCategory, grpcCodeValue, definiteAnswer: false });
}

/** The key of an update item (`Transaction`, `OffsetCheckpoint`, ...). */
const kindOf = (item: unknown): string | undefined => Object.keys(obj(obj(item).update))[0];
const recordOf = (item: unknown): Obj => {
  const k = kindOf(item);
  return k === undefined ? {} : obj(obj(obj(obj(item).update)[k]).value);
};
const offsetOf = (item: unknown): number | undefined => {
  const o = recordOf(item).offset;
  return typeof o === 'number' ? o : undefined;
};

const eventKind = (e: unknown): string | undefined => Object.keys(obj(e))[0];
const eventRec = (e: unknown): Obj => {
  const k = eventKind(e);
  return k === undefined ? {} : obj(obj(e)[k]);
};
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

function sortByOffset(items: unknown[], descending: boolean): unknown[] {
  return [...items].sort((x, y) => ((offsetOf(x) ?? 0) - (offsetOf(y) ?? 0)) * (descending ? -1 : 1));
}

/** Remembers every update item of a stream answer by offset, under the request's signature. */
function rememberItems(memory: Map<string, unknown>, key: string, items: readonly unknown[]): Map<number, unknown> {
  let seen = memory.get(key) as Map<number, unknown> | undefined;
  if (!seen) memory.set(key, (seen = new Map()));
  for (const item of items) {
    const o = offsetOf(item);
    if (o !== undefined && !seen.has(o)) seen.set(o, clone(item));
  }
  return seen;
}

/** Whether an event's template is the one a TemplateFilter names (by package id or by `#package-name`). */
function templateMatches(filterTemplate: string, event: Obj): boolean {
  const tid = typeof event.templateId === 'string' ? event.templateId : '';
  if (filterTemplate === tid) return true;
  const i = tid.indexOf(':');
  return filterTemplate.startsWith('#') && i >= 0 && filterTemplate === `#${String(event.packageName)}${tid.slice(i)}`;
}

const NODE_LIST_LIMIT = 200;

// ---------------------------------------------------------------- wallet

const WALLET = '/api/validator';
const BUY_TRAFFIC = `${WALLET}/v0/wallet/buy-traffic-requests`;
const STATUS_PATH = /^\/api\/validator\/v0\/wallet\/transfer-offers\/([^/]+)\/status$/;

function statusTrackingId(r: BlindRequest): string | undefined {
  if (r.method !== 'POST') return undefined;
  const m = STATUS_PATH.exec(r.path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}

const isBuyTraffic = (r: BlindRequest): boolean => r.method === 'POST' && r.path === BUY_TRAFFIC;
const buyTrackingId = (r: BlindRequest): string | undefined => {
  const t = body(r).tracking_id;
  return typeof t === 'string' ? t : undefined;
};
const errorText = (a: BlindAnswer): string => {
  const e = obj(a.body).error;
  return typeof e === 'string' ? e : typeof a.body === 'string' ? a.body : '';
};

export const ROUND_1_LEDGER_WALLET = blindRound(1, [
  // ============================================================ ledger: offset window
  {
    name: 'blind-r1-ledger-begin-inclusive',
    interface: 'ledger',
    breaks: 'beginExclusive: Only updates with offset strictly greater are returned.',
    // `>=` instead of `>`: the update sitting exactly at beginExclusive comes back again (a client paging on
    // with the last offset it saw receives that update twice). Needs the item, so it is taken from earlier answers.
    rewrite(request, answer, memory) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const b = body(request);
      const seen = rememberItems(memory, streamSignature(request), answer.body);
      const begin = beginOf(b);
      if (begin === undefined || begin <= 0 || isDescending(b)) return undefined;
      const end = endOf(b);
      if (end !== undefined && end < begin) return undefined;
      const atBegin = seen.get(begin);
      if (atBegin === undefined || answer.body.some((x) => offsetOf(x) === begin)) return undefined;
      let items = [clone(atBegin), ...answer.body];
      const limit = queryInt(request, 'limit');
      if (limit !== undefined && items.length > limit) items = items.slice(0, limit);
      return withBody(answer, items);
    },
  },
  {
    name: 'blind-r1-ledger-end-exclusive',
    interface: 'ledger',
    breaks: 'endInclusive: Only updates with offset <= this are returned.',
    // `<` instead of `<=`: the update exactly at endInclusive is left out, in either order.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const end = endOf(body(request));
      if (end === undefined) return undefined;
      const kept = answer.body.filter((x) => offsetOf(x) !== end);
      return kept.length === answer.body.length ? undefined : withBody(answer, kept);
    },
  },
  {
    name: 'blind-r1-ledger-begin-zero-skips-first',
    interface: 'ledger',
    breaks: 'beginExclusive: Zero means start of ledger.',
    // Zero is resolved to the participant's first offset and then applied exclusively: the very first update of
    // the ledger (the lowest offset in the answer) is never returned when reading from the start.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || beginOf(body(request)) !== 0 || answer.body.length === 0) return undefined;
      const offsets = answer.body.map((x) => offsetOf(x) ?? Number.POSITIVE_INFINITY);
      const lowest = Math.min(...offsets);
      return withBody(
        answer,
        answer.body.filter((x) => offsetOf(x) !== lowest),
      );
    },
  },
  // ============================================================ ledger: limits
  {
    name: 'blind-r1-ledger-limit-plus-one',
    interface: 'ledger',
    breaks: '`limit` int64 optional: maximum elements to return; ignored if bigger than the server setting.',
    // The page is cut after the element following the limit (`<= limit` in the loop): one element more than asked.
    // The extra element is the next one the node returned for the same format in an earlier answer.
    rewrite(request, answer, memory) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const b = body(request);
      const seen = rememberItems(memory, streamSignature(request), answer.body);
      const limit = queryInt(request, 'limit');
      if (limit === undefined || limit <= 0 || answer.body.length !== limit || isDescending(b)) return undefined;
      const last = offsetOf(answer.body[answer.body.length - 1]);
      if (last === undefined) return undefined;
      const end = endOf(b) ?? Number.POSITIVE_INFINITY;
      let next: number | undefined;
      for (const o of seen.keys()) if (o > last && o <= end && (next === undefined || o < next)) next = o;
      if (next === undefined) return undefined;
      return withBody(answer, [...answer.body, clone(seen.get(next))]);
    },
  },
  {
    name: 'blind-r1-ledger-list-limit-at-bound',
    interface: 'ledger',
    breaks: "413 Content Too Large when the result count exceeds the node's list limit",
    // `>=` instead of `>`: a result of exactly the node's list limit (200 on this node) is refused with 413.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || answer.body.length !== NODE_LIST_LIMIT) return undefined;
      return cantonError(
        413,
        'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
        `The number of matching elements is greater than the node limit (${NODE_LIST_LIMIT}); narrow the read, pass a limit, or use the WebSocket stream.`,
        9,
        9,
      );
    },
  },
  // ============================================================ ledger: order
  {
    name: 'blind-r1-ledger-desc-ignored-with-limit',
    interface: 'ledger',
    breaks: 'descendingOrder: If set, elements are returned in descending order.',
    // With a `limit`, the page is taken from the right end but re-sorted ascending before it is sent.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || !isDescending(body(request)) || queryInt(request, 'limit') === undefined) return undefined;
      if (answer.body.length < 2) return undefined;
      return withBody(answer, sortByOffset(answer.body, false));
    },
  },
  {
    name: 'blind-r1-ledger-desc-checkpoints-appended',
    interface: 'ledger',
    breaks: 'descendingOrder: If set, elements are returned in descending order.',
    // Offset checkpoints are merged into the stream after the sort: in a descending answer they all come last.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || !isDescending(body(request))) return undefined;
      const checkpoints = answer.body.filter((x) => kindOf(x) === 'OffsetCheckpoint');
      const others = answer.body.filter((x) => kindOf(x) !== 'OffsetCheckpoint');
      if (checkpoints.length === 0 || others.length === 0) return undefined;
      const moved = [...others, ...checkpoints];
      return moved.every((x, i) => x === answer.body[i]) ? undefined : withBody(answer, moved);
    },
  },
  // ============================================================ ledger: shapes and filters
  {
    name: 'blind-r1-ledger-acs-delta-exercise-for-archive',
    interface: 'ledger',
    breaks:
      'In the ACS delta shape, create and archive events are emitted for contracts where a requesting party is a stakeholder; in the ledger-effects shape, create and exercise events are emitted where a requesting party is a witness.',
    // The ACS-delta writer reuses the ledger-effects event for a consuming choice: an archive goes out as a
    // consuming ExercisedEvent (choice Archive) instead of an ArchivedEvent.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || txFormat(body(request))?.shape !== 'acs') return undefined;
      let changed = false;
      const items = answer.body.map((item) => {
        if (kindOf(item) !== 'Transaction') return item;
        const copy = clone(item);
        const v = recordOf(copy);
        v.events = arr(v.events).map((e) => {
          if (eventKind(e) !== 'ArchivedEvent') return e;
          changed = true;
          const a = eventRec(e);
          const witnesses = strings(a.witnessParties);
          return {
            ExercisedEvent: {
              offset: a.offset,
              nodeId: a.nodeId,
              contractId: a.contractId,
              templateId: a.templateId,
              choice: 'Archive',
              choiceArgument: {},
              actingParties: witnesses,
              consuming: true,
              witnessParties: witnesses,
              lastDescendantNodeId: a.nodeId,
              exerciseResult: {},
              packageName: a.packageName,
              implementedInterfaces: a.implementedInterfaces ?? [],
              acsDelta: true,
            },
          };
        });
        return copy;
      });
      return changed ? withBody(answer, items) : undefined;
    },
  },
  {
    name: 'blind-r1-ledger-ledger-effects-archive-emitted',
    interface: 'ledger',
    breaks:
      'In the ACS delta shape, create and archive events are emitted for contracts where a requesting party is a stakeholder; in the ledger-effects shape, create and exercise events are emitted where a requesting party is a witness.',
    // The ledger-effects writer also emits the ACS bookkeeping: each consuming exercise is followed by an
    // ArchivedEvent of the same contract.
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || txFormat(body(request))?.shape !== 'le') return undefined;
      let changed = false;
      const items = answer.body.map((item) => {
        if (kindOf(item) !== 'Transaction') return item;
        const copy = clone(item);
        const v = recordOf(copy);
        v.events = arr(v.events).flatMap((e) => {
          const x = eventRec(e);
          if (eventKind(e) !== 'ExercisedEvent' || x.consuming !== true) return [e];
          changed = true;
          const archived: Obj = {
            offset: x.offset,
            nodeId: x.nodeId,
            contractId: x.contractId,
            templateId: x.templateId,
            witnessParties: x.witnessParties,
            packageName: x.packageName,
          };
          if (x.implementedInterfaces !== undefined) archived.implementedInterfaces = x.implementedInterfaces;
          return [e, { ArchivedEvent: archived }];
        });
        return copy;
      });
      return changed ? withBody(answer, items) : undefined;
    },
  },
  {
    name: 'blind-r1-ledger-ledger-effects-first-party-only',
    interface: 'ledger',
    breaks: 'for ledger effects, create and exercise events whose witnesses include a listed party and match the per-party filter',
    // In the ledger-effects shape only the first key of filtersByParty is used: with several parties, events
    // witnessed only by the others are missing (transactions left without events are dropped).
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const tf = txFormat(body(request));
      if (tf?.shape !== 'le' || readsAnyParty(tf.eventFormat)) return undefined;
      const parties = partiesOf(tf.eventFormat);
      if (parties.length < 2) return undefined;
      const first = parties[0]!;
      let changed = false;
      const items: unknown[] = [];
      for (const item of answer.body) {
        if (kindOf(item) !== 'Transaction') {
          items.push(item);
          continue;
        }
        const events = arr(recordOf(item).events);
        const kept = events.filter((e) => strings(eventRec(e).witnessParties).includes(first));
        if (kept.length === events.length) {
          items.push(item);
          continue;
        }
        changed = true;
        if (kept.length === 0) continue;
        const copy = clone(item);
        recordOf(copy).events = clone(kept);
        items.push(copy);
      }
      return changed ? withBody(answer, items) : undefined;
    },
  },
  {
    name: 'blind-r1-ledger-cumulative-first-template-only',
    interface: 'ledger',
    breaks: 'Filters: `cumulative` (array of CumulativeFilter, optional, may be empty). Each entry widens the result',
    // Only cumulative[0] of a party's filter is applied: with two template filters, events of the second template
    // are missing. (Requests naming one party, or filtersForAnyParty alone.)
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const tf = txFormat(body(request));
      if (!tf) return undefined;
      const byParty = obj(tf.eventFormat.filtersByParty);
      const filters = Object.values(byParty);
      if (tf.eventFormat.filtersForAnyParty !== undefined) filters.push(tf.eventFormat.filtersForAnyParty);
      if (filters.length !== 1) return undefined;
      const templates = arr(obj(filters[0]).cumulative).map((c) => {
        const idf = obj(obj(c).identifierFilter);
        const t = obj(obj(idf.TemplateFilter).value).templateId;
        return typeof t === 'string' ? t : undefined;
      });
      if (templates.length < 2 || templates.some((t) => t === undefined)) return undefined;
      const [firstT, ...laterT] = templates as string[];
      const dropped = (e: unknown): boolean => {
        const r = eventRec(e);
        return !templateMatches(firstT!, r) && laterT.some((t) => templateMatches(t, r));
      };
      let changed = false;
      const items: unknown[] = [];
      for (const item of answer.body) {
        if (kindOf(item) !== 'Transaction') {
          items.push(item);
          continue;
        }
        const events = arr(recordOf(item).events);
        const kept = events.filter((e) => !dropped(e));
        if (kept.length === events.length) {
          items.push(item);
          continue;
        }
        changed = true;
        if (kept.length === 0) continue;
        const copy = clone(item);
        recordOf(copy).events = clone(kept);
        items.push(copy);
      }
      return changed ? withBody(answer, items) : undefined;
    },
  },
  {
    name: 'blind-r1-ledger-acs-delta-witness-creates',
    interface: 'ledger',
    breaks: 'ACS delta (an event is included only if a requesting party is a stakeholder of it)',
    // The ACS-delta selection reuses the witness check: creates the requesting parties only witnessed (not
    // stakeholders) appear. Those create events are the ones the node gave the same parties in ledger-effects
    // answers for the same transaction.
    rewrite(request, answer, memory) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const tf = txFormat(body(request));
      if (!tf || readsAnyParty(tf.eventFormat)) return undefined;
      const key = JSON.stringify([authOf(request), tf.eventFormat.filtersByParty ?? null]);
      let witnessed = memory.get(key) as Map<string, unknown[]> | undefined;
      if (!witnessed) memory.set(key, (witnessed = new Map()));
      if (tf.shape === 'le') {
        for (const item of answer.body) {
          if (kindOf(item) !== 'Transaction') continue;
          const v = recordOf(item);
          if (typeof v.updateId !== 'string') continue;
          witnessed.set(v.updateId, clone(arr(v.events).filter((e) => eventKind(e) === 'CreatedEvent')));
        }
        return undefined;
      }
      if (tf.shape !== 'acs') return undefined;
      const parties = new Set(partiesOf(tf.eventFormat));
      let changed = false;
      const items = answer.body.map((item) => {
        if (kindOf(item) !== 'Transaction') return item;
        const v = recordOf(item);
        const creates = typeof v.updateId === 'string' ? witnessed.get(v.updateId) : undefined;
        if (!creates) return item;
        const present = new Set(arr(v.events).map((e) => eventRec(e).nodeId));
        const extra = creates.filter((e) => {
          const r = eventRec(e);
          const stakeholders = [...strings(r.signatories), ...strings(r.observers)];
          return !present.has(r.nodeId) && !stakeholders.some((p) => parties.has(p));
        });
        if (extra.length === 0) return item;
        changed = true;
        const copy = clone(item);
        const cv = recordOf(copy);
        cv.events = [...arr(cv.events), ...clone(extra)].sort((x, y) => Number(eventRec(x).nodeId) - Number(eventRec(y).nodeId));
        return copy;
      });
      return changed ? withBody(answer, items) : undefined;
    },
  },
  {
    name: 'blind-r1-ledger-reassignments-unrequested',
    interface: 'ledger',
    breaks: 'reassignments only if `includeReassignments`',
    // The update format's reassignment part falls back to the transaction filter when it is unset (as the legacy
    // default does): reassignments of the requesting parties come along with their transactions. The
    // reassignments are the ones the node gave the same user in earlier answers.
    rewrite(request, answer, memory) {
      if (!isUpdates(request) || !okList(answer)) return undefined;
      const b = body(request);
      let seen = memory.get(authOf(request)) as Map<number, unknown> | undefined;
      if (!seen) memory.set(authOf(request), (seen = new Map()));
      for (const item of answer.body) {
        const o = offsetOf(item);
        if (kindOf(item) === 'Reassignment' && o !== undefined) seen.set(o, clone(item));
      }
      const uf = b.updateFormat;
      if (!isObj(uf) || uf.includeReassignments !== undefined) return undefined;
      const tf = txFormat(b);
      if (!tf) return undefined;
      const any = readsAnyParty(tf.eventFormat);
      const parties = new Set(partiesOf(tf.eventFormat));
      const begin = beginOf(b) ?? 0;
      const end = endOf(b) ?? Number.POSITIVE_INFINITY;
      const present = new Set(answer.body.map(offsetOf));
      const extra: unknown[] = [];
      for (const [o, item] of seen) {
        if (o <= begin || o > end || present.has(o)) continue;
        const witnesses = arr(recordOf(item).events).flatMap((e) => {
          const r = eventRec(e);
          return strings(obj(r.createdEvent).witnessParties).concat(strings(obj(r.value).witnessParties), strings(r.witnessParties));
        });
        if (any || witnesses.some((p) => parties.has(p))) extra.push(clone(item));
      }
      if (extra.length === 0) return undefined;
      let items = sortByOffset([...answer.body, ...extra], isDescending(b));
      const limit = queryInt(request, 'limit');
      if (limit !== undefined && items.length > limit) items = items.slice(0, limit);
      return withBody(answer, items);
    },
  },
  // ============================================================ ledger: errors
  {
    name: 'blind-r1-ledger-invalid-limit-json-error',
    interface: 'ledger',
    breaks: '400 | `text/plain` string (invalid body, invalid `limit`, invalid `stream_idle_timeout_ms`)',
    // The query-parameter validator of `limit` goes through the gRPC error mapper: its 400 is a JsCantonError JSON
    // body instead of text/plain (invalid bodies and idle timeouts stay text/plain).
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 400 || typeof answer.body !== 'string' || !/query parameter limit/.test(answer.body)) return undefined;
      return cantonError(400, 'INVALID_ARGUMENT', answer.body, 8, 3);
    },
  },
  {
    name: 'blind-r1-ledger-unauthenticated-wallet-error-body',
    interface: 'ledger',
    breaks: 'other statuses | JsCantonError',
    // The authentication middleware in front of the stream is the one of the wallet: its 401 body is {error}
    // instead of a JsCantonError.
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 401) return undefined;
      const cause = obj(answer.body).cause;
      return json(401, { error: typeof cause === 'string' ? cause : 'Unauthorized' });
    },
  },
  // ============================================================ ledger: events by contract id
  {
    name: 'blind-r1-ledger-events-by-contract-id-stale-cache',
    interface: 'ledger',
    breaks: 'POST /v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
    // The lookup cache is keyed by the request's event format only (the contract id was left out of the key): a
    // lookup after the first, with the same format by the same user, answers with the events of the earlier contract.
    rewrite(request, answer, memory) {
      if (!isEventsByContractId(request) || answer.status !== 200) return undefined;
      const b = body(request);
      const key = JSON.stringify([authOf(request), b.eventFormat ?? null, b.requestingParties ?? null]);
      const cached = memory.get(key) as { contractId: unknown; body: unknown } | undefined;
      if (!cached) {
        memory.set(key, { contractId: b.contractId, body: clone(answer.body) });
        return undefined;
      }
      return cached.contractId === b.contractId ? undefined : withBody(answer, clone(cached.body));
    },
  },
  {
    name: 'blind-r1-ledger-events-by-contract-id-created-offset',
    interface: 'ledger',
    breaks: 'POST /v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
    // For an archived contract the created event carries the offset of the archiving transaction (taken from the
    // contract's latest event), so it no longer is the create event the update stream shows.
    rewrite(request, answer) {
      if (!isEventsByContractId(request) || answer.status !== 200) return undefined;
      const created = obj(obj(obj(answer.body).created).createdEvent);
      const archivedWrap = obj(obj(answer.body).archived);
      const archived = obj(archivedWrap.archivedEvent ?? archivedWrap.exercisedEvent);
      if (typeof created.offset !== 'number' || typeof archived.offset !== 'number' || created.offset === archived.offset) return undefined;
      const copy = clone(obj(answer.body));
      obj(obj(copy.created).createdEvent).offset = archived.offset;
      return withBody(answer, copy);
    },
  },

  // ============================================================ wallet: transfer offer status
  {
    name: 'blind-r1-wallet-status-unknown-falls-back',
    interface: 'wallet',
    breaks:
      '404 `{error}`: no offer with this tracking id is known (not yet submitted or processed, or submitted before the start of the wallet transaction log).',
    // A miss in the tracking-id lookup falls back to the last offer the user looked up: an unknown tracking id is
    // answered 200 with the status of another offer.
    rewrite(request, answer, memory) {
      const tid = statusTrackingId(request);
      if (tid === undefined) return undefined;
      const key = authOf(request);
      if (answer.status === 200) {
        memory.set(key, { tid, body: clone(answer.body) });
        return undefined;
      }
      const last = memory.get(key) as { tid: string; body: unknown } | undefined;
      if (answer.status !== 404 || !last || last.tid === tid) return undefined;
      return json(200, clone(last.body));
    },
  },
  {
    name: 'blind-r1-wallet-status-other-users-offer',
    interface: 'wallet',
    breaks: 'The token subject must be the ledger user of the user whose wallet the endpoint affects.',
    // Status answers are cached by tracking id across users: a user asking for a tracking id of another user's
    // offer gets that user's offer status instead of 404.
    rewrite(request, answer, memory) {
      const tid = statusTrackingId(request);
      if (tid === undefined) return undefined;
      const auth = authOf(request);
      if (answer.status === 200) {
        memory.set(tid, { auth, body: clone(answer.body) });
        return undefined;
      }
      const cached = memory.get(tid) as { auth: string; body: unknown } | undefined;
      if (answer.status !== 404 || !cached || cached.auth === auth) return undefined;
      return json(200, clone(cached.body));
    },
  },
  {
    name: 'blind-r1-wallet-status-withdrawn-kind-case',
    interface: 'wallet',
    breaks: '`failure_kind` (expired, rejected or withdrawn)',
    // The failure kind is written with the name of the server's enum case: a withdrawn offer reports "Withdrawn".
    rewrite(request, answer) {
      if (statusTrackingId(request) === undefined || answer.status !== 200) return undefined;
      const b = obj(answer.body);
      if (b.status !== 'failed' || b.failure_kind !== 'withdrawn') return undefined;
      return withBody(answer, { ...b, failure_kind: 'Withdrawn' });
    },
  },
  {
    name: 'blind-r1-wallet-status-accepted-no-contract',
    interface: 'wallet',
    breaks:
      'accepted | Receiver accepted; wallet automation still has to deliver the amount | `status`, `transaction_id` (accepting transaction), `contract_id` (accepted offer)',
    // The accepted state is built from the accepting exercise only: its `contract_id` (the accepted offer) is missing.
    rewrite(request, answer) {
      if (statusTrackingId(request) === undefined || answer.status !== 200) return undefined;
      const b = obj(answer.body);
      if (b.status !== 'accepted' || !('contract_id' in b)) return undefined;
      const { contract_id: _dropped, ...rest } = b;
      return withBody(answer, rest);
    },
  },
  {
    name: 'blind-r1-wallet-status-404-error-object',
    interface: 'wallet',
    breaks: 'Wallet and scan error bodies are `{error: string}`.',
    // The status endpoint's not-found answer nests its message: {error: {code, message}} instead of a string.
    rewrite(request, answer) {
      if (statusTrackingId(request) === undefined || answer.status !== 404) return undefined;
      return json(404, { error: { code: 'NOT_FOUND', message: errorText(answer) || 'transfer offer not found' } });
    },
  },
  // ============================================================ wallet: buy traffic
  {
    name: 'blind-r1-wallet-buy-traffic-duplicate-accepted',
    interface: 'wallet',
    breaks:
      'after a first submission, later calls with the same tracking id are rejected with 409 (request already created) or 429 (currently being processed)',
    // Resubmission is made idempotent: a repeated tracking id is answered 200 with the request contract created the
    // first time, instead of 409.
    rewrite(request, answer, memory) {
      if (!isBuyTraffic(request)) return undefined;
      const tid = buyTrackingId(request);
      if (tid === undefined) return undefined;
      const key = JSON.stringify([authOf(request), tid]);
      if (answer.status === 200) {
        if (!memory.has(key)) memory.set(key, clone(answer.body));
        return undefined;
      }
      const first = memory.get(key);
      if (answer.status !== 409 || first === undefined) return undefined;
      return json(200, clone(first));
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-retry-after-failure-conflict',
    interface: 'wallet',
    breaks:
      'later calls with the same tracking id are rejected with 409 (request already created) or 429 (currently being processed), unless the command failed and no traffic was purchased.',
    // The tracking id is recorded before the command runs: after a submission that failed (nothing created, nothing
    // purchased), a retry with the same tracking id is refused with 409.
    rewrite(request, answer, memory) {
      if (!isBuyTraffic(request)) return undefined;
      const tid = buyTrackingId(request);
      if (tid === undefined) return undefined;
      const key = JSON.stringify([authOf(request), tid]);
      if (answer.status === 400 || answer.status === 500) {
        if (!memory.has(key)) memory.set(key, 'failed');
        return undefined;
      }
      if (answer.status !== 200 || memory.get(key) !== 'failed') return undefined;
      memory.set(key, 'created');
      return json(409, { error: `A buy traffic request with tracking id ${tid} was already created; check its status instead of resubmitting` });
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-multi-hosted-500',
    interface: 'wallet',
    breaks:
      'receiving_validator_party_id: Traffic is bought for the validator hosting this party; if the party is hosted on multiple participants the request fails with 400',
    // The hosting lookup expects a single participant and throws: a party hosted on several participants gives 500.
    rewrite(request, answer) {
      if (!isBuyTraffic(request) || answer.status !== 400 || !/multiple participants/.test(errorText(answer))) return undefined;
      return json(500, { error: 'Internal error: expected exactly one hosting participant for the receiving validator party' });
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-missing-expiry-accepted',
    interface: 'wallet',
    breaks: 'Body (all required): ... expires_at | int64 | Expiry as unix timestamp in microseconds',
    // expires_at is decoded as optional (no expiry): a body without it creates a request (200) instead of 400.
    rewrite(request, answer) {
      if (!isBuyTraffic(request) || answer.status !== 400) return undefined;
      const b = body(request);
      if (b.expires_at !== undefined || !/expires_at/.test(errorText(answer))) return undefined;
      for (const f of ['receiving_validator_party_id', 'domain_id', 'tracking_id']) if (typeof b[f] !== 'string') return undefined;
      if (typeof b.traffic_amount !== 'number' || !(b.traffic_amount > 0)) return undefined;
      const digest = createHash('sha256')
        .update(`buy-traffic:${String(b.tracking_id)}`)
        .digest('hex');
      return json(200, { request_contract_id: `00${digest}` });
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-201-created',
    interface: 'wallet',
    breaks: 'Responses: 200 `{request_contract_id: string}`',
    // The creation endpoint answers 201 Created (with the same body) instead of 200.
    rewrite(request, answer) {
      if (!isBuyTraffic(request) || answer.status !== 200) return undefined;
      return { ...answer, status: 201 };
    },
  },
  // ============================================================ wallet: dso party id
  {
    name: 'blind-r1-wallet-dso-party-id-camel-case',
    interface: 'wallet',
    breaks: 'GET /v0/scan-proxy/dso-party-id: No parameters. 200 `{dso_party_id: string}`.',
    // The scan-proxy serializer uses camelCase here: {dsoPartyId} instead of {dso_party_id}.
    rewrite(request, answer) {
      if (request.method !== 'GET' || request.path !== `${WALLET}/v0/scan-proxy/dso-party-id` || answer.status !== 200) return undefined;
      const b = obj(answer.body);
      if (typeof b.dso_party_id !== 'string') return undefined;
      return withBody(answer, { dsoPartyId: b.dso_party_id });
    },
  },
]);
