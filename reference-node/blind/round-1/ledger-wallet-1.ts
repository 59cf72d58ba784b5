// Blind faults, round 1 (ledger-wallet, part 1 of 2): see ledger-wallet-support.ts for what they share.
import { blindRound } from '../seam.ts';
import {
  isObj,
  obj,
  arr,
  clone,
  isUpdates,
  authOf,
  queryInt,
  body,
  beginOf,
  endOf,
  isDescending,
  txFormat,
  partiesOf,
  readsAnyParty,
  streamSignature,
  okList,
  withBody,
  cantonError,
  kindOf,
  recordOf,
  offsetOf,
  eventKind,
  eventRec,
  strings,
  sortByOffset,
  rememberItems,
  templateMatches,
  NODE_LIST_LIMIT,
  type Obj,
} from './ledger-wallet-support.ts';

export const ROUND_1_LEDGER_WALLET_1 = blindRound(1, [
  // ============================================================ ledger: offset window
  {
    name: 'blind-r1-ledger-begin-inclusive',
    interface: 'ledger',
    breaks: 'beginExclusive: Only updates with offset strictly greater are returned.',
    // `>=` instead of `>`: the update sitting exactly at beginExclusive comes back again (a client paging on
    // with the last offset it saw receives that update twice). Needs the item, so it is taken from earlier answers.
    cites: ['R.ledger.3'],
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
    cites: ['R.ledger.7'],
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
    cites: ['R.ledger.4'],
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || beginOf(body(request)) !== 0 || answer.body.length === 0) return undefined;
      const offsets = answer.body.map((x) => offsetOf(x) ?? Number.POSITIVE_INFINITY);
      const lowest = Math.min(...offsets);
      return withBody(
        answer,
        answer.body.filter((x) => offsetOf(x) !== lowest),
      );
    },
  }, // ============================================================ ledger: limits
  {
    name: 'blind-r1-ledger-limit-plus-one',
    interface: 'ledger',
    breaks: '`limit` int64 optional: maximum elements to return; ignored if bigger than the server setting.',
    // The page is cut after the element following the limit (`<= limit` in the loop): one element more than asked.
    // The extra element is the next one the node returned for the same format in an earlier answer.
    cites: ['A.updates.2'],
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
    cites: ['A.updates.10'],
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
  }, // ============================================================ ledger: order
  {
    name: 'blind-r1-ledger-desc-ignored-with-limit',
    interface: 'ledger',
    breaks: 'descendingOrder: If set, elements are returned in descending order.',
    // With a `limit`, the page is taken from the right end but re-sorted ascending before it is sent.
    cites: ['R.ledger.19'],
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
    cites: ['R.ledger.19'],
    rewrite(request, answer) {
      if (!isUpdates(request) || !okList(answer) || !isDescending(body(request))) return undefined;
      const checkpoints = answer.body.filter((x) => kindOf(x) === 'OffsetCheckpoint');
      const others = answer.body.filter((x) => kindOf(x) !== 'OffsetCheckpoint');
      if (checkpoints.length === 0 || others.length === 0) return undefined;
      const moved = [...others, ...checkpoints];
      return moved.every((x, i) => x === answer.body[i]) ? undefined : withBody(answer, moved);
    },
  }, // ============================================================ ledger: shapes and filters
  {
    name: 'blind-r1-ledger-acs-delta-exercise-for-archive',
    interface: 'ledger',
    breaks:
      'In the ACS delta shape, create and archive events are emitted for contracts where a requesting party is a stakeholder; in the ledger-effects shape, create and exercise events are emitted where a requesting party is a witness.',
    // The ACS-delta writer reuses the ledger-effects event for a consuming choice: an archive goes out as a
    // consuming ExercisedEvent (choice Archive) instead of an ArchivedEvent.
    cites: ['X.events.3'],
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
    cites: ['X.events.4'],
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
    cites: ['R.ledger.23'],
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
    cites: ['R.ledger.26'],
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
    cites: ['S.service.5'],
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
    cites: ['X.events.2'],
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
  }, // ============================================================ ledger: errors
  {
    name: 'blind-r1-ledger-invalid-limit-json-error',
    interface: 'ledger',
    breaks: '400 | `text/plain` string (invalid body, invalid `limit`, invalid `stream_idle_timeout_ms`)',
    // The query-parameter validator of `limit` goes through the gRPC error mapper: its 400 is a JsCantonError JSON
    // body instead of text/plain (invalid bodies and idle timeouts stay text/plain).
    cites: ['A.updates.8'],
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 400 || typeof answer.body !== 'string' || !/query parameter limit/.test(answer.body)) return undefined;
      return cantonError(400, 'INVALID_ARGUMENT', answer.body, 8, 3);
    },
  },
]);
