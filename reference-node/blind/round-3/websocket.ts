// Round-3 blind faults of the ledger's WebSocket channels (/v2/updates, /v2/commands/completions,
// /v2/commands/command-completions, /v2/state/active-contracts), written from the description and the facts alone.
// Each is a bug of a vendor's WebSocket transport: the HTTP endpoints answer as before (`rewrite` leaves them alone,
// one fault only reads them), only what the channels send changes.
import type { BlindChannel } from '../seam.ts';
import { blindRound } from '../seam.ts';
import {
  ACTIVE_CONTRACTS,
  beginExclusive,
  bump,
  COMPLETIONS,
  channelBody,
  checkpoint,
  clone,
  endInclusive,
  eventRecord,
  isCantonError,
  isDescending,
  isHttpUpdates,
  isLegacy,
  isObject,
  isUpdatesChannel,
  itemKind,
  itemOffset,
  itemRecord,
  itemsMemory,
  type Json,
  readKey,
  requestedParties,
  synchronizerTimesOf,
} from './websocket-support.ts';

/** The per-channel key of a fault's memory. */
function ck(channel: BlindChannel, what: string): string {
  return `ch${channel.id}:${what}`;
}

/** An update item of the update stream (not an error, not something else). */
function isUpdateItem(m: unknown): m is Json {
  return itemKind(m) !== undefined;
}

/** An entry of the active-contracts stream (`{contractEntry: {...}}`). */
function isAcsEntry(m: unknown): m is Json {
  return isObject(m) && isObject(m.contractEntry);
}

/** The completion record of a completions message (`completionResponse.Completion.value`). */
function completionOf(m: unknown): Json | undefined {
  if (!isObject(m) || !isObject(m.completionResponse)) return undefined;
  const c = m.completionResponse.Completion;
  return isObject(c) && isObject(c.value) ? c.value : undefined;
}

const MAX_REMEMBERED = 20000;

function remember(memory: Map<string, unknown>, key: string, items: readonly unknown[]): void {
  const seen = itemsMemory(memory, key);
  for (const it of items) {
    const o = itemOffset(it);
    if (o !== undefined && isObject(it) && seen.size < MAX_REMEMBERED && !seen.has(o)) seen.set(o, clone(it));
  }
}

export const ROUND_3_WEBSOCKET = blindRound(3, [
  {
    // The WebSocket encoder fills witnessParties from the contract's stakeholders instead of intersecting them with
    // the requesting parties (the HTTP encoder does it right): a created event names parties nobody asked for.
    name: 'blind-r3-ledger-ws-witness-parties-all-stakeholders',
    interface: 'ledger',
    breaks: '`witnessParties` of an event in a filtered stream is the subset of the requesting parties that see it.',
    cites: ['X.events.4'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (!isUpdatesChannel(channel) || event.kind !== 'message' || itemKind(event.message) !== 'Transaction') return undefined;
      const parties = requestedParties(channelBody(channel));
      if (!parties) return undefined;
      const out = clone(event.message);
      const r = itemRecord(out);
      if (!r || !Array.isArray(r.events)) return undefined;
      let changed = false;
      for (const e of r.events) {
        const er = eventRecord(e);
        const c = er?.[0] === 'CreatedEvent' ? er[1] : undefined;
        if (!c) continue;
        const stakeholders = [...(Array.isArray(c.signatories) ? c.signatories : []), ...(Array.isArray(c.observers) ? c.observers : [])].filter(
          (p): p is string => typeof p === 'string',
        );
        if (!Array.isArray(c.witnessParties) || !stakeholders.some((p) => !parties.has(p))) continue;
        c.witnessParties = [...new Set([...c.witnessParties, ...stakeholders])];
        changed = true;
      }
      if (!changed) return undefined;
      // Every third such transaction of the channel, the first included.
      return bump(memory, ck(channel, 'widened')) % 3 === 0 ? [out] : undefined;
    },
  },
  {
    // The stream opens with a checkpoint of the position the client resumes from, i.e. AT beginExclusive (the
    // node's "you are here" marker), before the first element after it.
    name: 'blind-r3-ledger-ws-checkpoint-at-begin',
    interface: 'ledger',
    breaks: 'Only updates with offset strictly greater are returned.',
    cites: ['R.ledger.3'],
    rewrite: () => undefined,
    rewriteChannel(channel, event) {
      if (!isUpdatesChannel(channel) || event.kind !== 'message' || event.n !== 0 || !isUpdateItem(event.message)) return undefined;
      const body = channelBody(channel);
      const begin = beginExclusive(body);
      if (begin === undefined || begin <= 0 || isDescending(body) || itemOffset(event.message) === begin) return undefined;
      return [checkpoint(begin, synchronizerTimesOf(event.message)), event.message];
    },
  },
  {
    // The bounded read's pump sends the last batch it fetched whole: one element after endInclusive goes out before
    // the close (the next item of the same read when the node served it before, else the checkpoint that follows).
    name: 'blind-r3-ledger-ws-bounded-overshoots-end',
    interface: 'ledger',
    breaks: 'Only updates with offset <= this are returned.',
    cites: ['R.ledger.7'],
    rewrite(request, answer, memory) {
      if (isHttpUpdates(request) && answer.status === 200 && Array.isArray(answer.body) && isObject(request.body)) {
        remember(memory, readKey(request.body), answer.body);
      }
      return undefined;
    },
    rewriteChannel(channel, event, memory) {
      if (!isUpdatesChannel(channel)) return undefined;
      const body = channelBody(channel);
      if (event.kind === 'message') {
        if (isCantonError(event.message)) memory.set(ck(channel, 'errored'), true);
        else if (isUpdateItem(event.message)) {
          remember(memory, readKey(body), [event.message]);
          memory.set(ck(channel, 'last'), event.message);
        }
        return undefined;
      }
      const end = endInclusive(body);
      const last = memory.get(ck(channel, 'last'));
      if (end === undefined || isDescending(body) || event.code !== 1000 || last === undefined || memory.get(ck(channel, 'errored')) === true) return undefined;
      let next: Json | undefined;
      for (const [o, it] of itemsMemory(memory, readKey(body))) if (o > end && (next === undefined || o < (itemOffset(next) ?? Infinity))) next = it;
      return [next ? clone(next) : checkpoint(end + 1, synchronizerTimesOf(last))];
    },
  },
  {
    // The WebSocket reader takes the order flag from the query string only (the HTTP one reads the body): a
    // descending read by request message comes out ascending.
    name: 'blind-r3-ledger-ws-descending-ignored',
    interface: 'ledger',
    breaks: 'If set, elements are returned in descending order.',
    cites: ['R.ledger.19'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (!isUpdatesChannel(channel)) return undefined;
      const body = channelBody(channel);
      if (!isDescending(body) || endInclusive(body) === undefined) return undefined;
      const key = ck(channel, 'held');
      const held = (memory.get(key) as unknown[] | undefined) ?? [];
      if (event.kind === 'message' && isUpdateItem(event.message)) {
        memory.set(key, [...held, event.message]);
        return [];
      }
      if (held.length === 0) return undefined;
      memory.delete(key);
      const ascending = [...held].reverse();
      return event.kind === 'message' ? [...ascending, event.message] : ascending;
    },
  },
  {
    // Two writers share the socket (one for transactions, one for the rest) and race: every sixth item overtakes
    // the one before it.
    name: 'blind-r3-ledger-ws-adjacent-updates-swapped',
    interface: 'ledger',
    breaks:
      "Offsets of one participant are positive and strictly increasing along the stream; every event's `offset` equals the offset of the update that carries it.",
    cites: ['R.ledger.19'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (!isUpdatesChannel(channel)) return undefined;
      const key = ck(channel, 'held');
      const held = memory.get(key);
      if (event.kind === 'close') {
        if (held === undefined) return undefined;
        memory.delete(key);
        return [held];
      }
      if (!isUpdateItem(event.message)) {
        if (held === undefined) return undefined;
        memory.delete(key);
        return [held, event.message];
      }
      if (held !== undefined) {
        memory.delete(key);
        return itemOffset(held) === itemOffset(event.message) ? [held, event.message] : [event.message, held];
      }
      if (bump(memory, ck(channel, 'items')) % 6 === 1) {
        memory.set(key, event.message);
        return [];
      }
      return undefined;
    },
  },
  {
    // Frames are capped by event count: a transaction with several events goes out as two messages, each a
    // transaction with the same id and offset and half of the events (every third such transaction, the first too).
    name: 'blind-r3-ledger-ws-transaction-split',
    interface: 'ledger',
    breaks:
      'The HTTP stream and the WebSocket stream of one node read the same ledger: for the same request and the same bounded range they deliver the same update items in the same order; the WebSocket stream has no list limit (that is its purpose), and an open-ended WebSocket stream delivers updates committed after it opened.',
    cites: ['X.errors.2'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (!isUpdatesChannel(channel) || event.kind !== 'message' || itemKind(event.message) !== 'Transaction') return undefined;
      const r = itemRecord(event.message);
      if (!r || !Array.isArray(r.events) || r.events.length < 2) return undefined;
      if (bump(memory, ck(channel, 'multi')) % 3 !== 0) return undefined;
      const half = Math.ceil(r.events.length / 2);
      const first = clone(event.message);
      const second = clone(event.message);
      const r1 = itemRecord(first);
      const r2 = itemRecord(second);
      if (!r1 || !r2 || !Array.isArray(r1.events) || !Array.isArray(r2.events)) return undefined;
      r1.events = r1.events.slice(0, half);
      r2.events = r2.events.slice(half);
      return [first, second];
    },
  },
  {
    // The snapshot's first database page goes out as one frame: the first four active-contract responses arrive
    // as a single message holding a JSON array of them; the rest go one per message.
    name: 'blind-r3-ledger-ws-acs-first-entries-batched',
    interface: 'ledger',
    breaks:
      'The client sends the request as one JSON text message right after the connection opens, then reads one JSON text message per element until the server closes (a bounded request, `endInclusive` set) or forever (open-ended).',
    cites: ['S.service.11'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (channel.path !== ACTIVE_CONTRACTS) return undefined;
      const key = ck(channel, 'batch');
      const batch = (memory.get(key) as unknown[] | undefined) ?? [];
      if (event.kind === 'message' && isAcsEntry(event.message)) {
        const c = bump(memory, ck(channel, 'entries'));
        if (c > 3) return undefined;
        if (c < 3) {
          memory.set(key, [...batch, event.message]);
          return [];
        }
        memory.delete(key);
        return [[...batch, event.message]];
      }
      if (batch.length === 0) return undefined;
      memory.delete(key);
      return event.kind === 'message' ? [batch, event.message] : [batch];
    },
  },
  {
    // The snapshot is read in pages of five and the page cursor restarts after the last row read instead of after
    // the last row sent: the fifth active contract of each page never goes out.
    name: 'blind-r3-ledger-ws-acs-page-tail-lost',
    interface: 'ledger',
    breaks: 'Returns a stream of the snapshot of the active contracts and incomplete (un)assignments at a ledger offset.',
    cites: ['S.service.11'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (channel.path !== ACTIVE_CONTRACTS || event.kind !== 'message' || !isAcsEntry(event.message)) return undefined;
      const entry = event.message.contractEntry;
      if (!isObject(entry) || !isObject(entry.JsActiveContract)) return undefined;
      return bump(memory, ck(channel, 'active')) % 5 === 4 ? [] : undefined;
    },
  },
  {
    // The channel's error encoder goes through a string map: errorCategory and grpcCodeValue arrive as strings.
    name: 'blind-r3-ledger-ws-error-category-string',
    interface: 'ledger',
    breaks:
      '**JsCantonError** (default error body): `code` string (required), `cause` string (required), `correlationId` string, `traceId` string, `context` map string to string (required), `resources` array of 2-element string arrays, `errorCategory` int32 (required), `grpcCodeValue` int32, `retryInfo` string, `definiteAnswer` boolean.',
    cites: ['R.ledger.42'],
    rewrite: () => undefined,
    rewriteChannel(_channel, event) {
      if (event.kind !== 'message' || !isCantonError(event.message) || typeof event.message.errorCategory !== 'number') return undefined;
      const out = clone(event.message);
      out.errorCategory = String(out.errorCategory);
      if (typeof out.grpcCodeValue === 'number') out.grpcCodeValue = String(out.grpcCodeValue);
      return [out];
    },
  },
  {
    // A failed channel is closed with the error code as its close reason, and the JsCantonError message that should
    // come before the close is never written.
    name: 'blind-r3-ledger-ws-error-only-in-close-reason',
    interface: 'ledger',
    breaks:
      'Each channel: the client publishes the request record (the same record as the HTTP body, e.g. `GetUpdatesRequest`) and subscribes to messages that are each either the response record (`JsGetUpdatesResponse`, one update item per message) or a `JsCantonError` (`Either_JsCantonError_...`).',
    cites: ['X.errors.3'],
    rewrite: () => undefined,
    rewriteChannel(_channel, event) {
      return event.kind === 'message' && isCantonError(event.message) ? [] : undefined;
    },
  },
  {
    // The completion encoder on the channel maps the wrong column: the completion's commandId carries the
    // submission id (every other completion of a channel, the first included).
    name: 'blind-r3-ledger-ws-completion-command-id-is-submission-id',
    interface: 'ledger',
    breaks: 'The ID of the succeeded or failed command.',
    cites: ['A.overview.17'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (!COMPLETIONS.includes(channel.path) || event.kind !== 'message') return undefined;
      const c = completionOf(event.message);
      if (!c || typeof c.commandId !== 'string' || typeof c.submissionId !== 'string' || c.submissionId === c.commandId) return undefined;
      if (bump(memory, ck(channel, 'completions')) % 2 !== 0) return undefined;
      const out = clone(event.message);
      const oc = completionOf(out);
      if (!oc) return undefined;
      oc.commandId = oc.submissionId;
      return [out];
    },
  },
  {
    // The WebSocket endpoint's mapping of the legacy request form (`filter`, no `updateFormat`) builds the
    // transaction and reassignment formats but forgets the topology format: no topology transaction goes out.
    name: 'blind-r3-ledger-ws-legacy-no-topology',
    interface: 'ledger',
    breaks:
      "If unset for this request, it defaults to: transactions with event format taking filtersByParty, filtersForAnyParty and verbose from the request, shape TRANSACTION_SHAPE_ACS_DELTA; reassignments with the request's filter and verbose; participant-authorization topology events for all parties named in filter.",
    cites: ['R.ledger.16'],
    rewrite: () => undefined,
    rewriteChannel(channel, event) {
      if (!isUpdatesChannel(channel) || event.kind !== 'message' || !isLegacy(channelBody(channel))) return undefined;
      return itemKind(event.message) === 'TopologyTransaction' ? [] : undefined;
    },
  },
  {
    // The event encoder caches the offset of the previous update it wrote: in every fourth transaction of a channel
    // that follows another item (the first of them included) the events carry the offset of the update sent before it.
    name: 'blind-r3-ledger-ws-event-offset-stale',
    interface: 'ledger',
    breaks:
      "Offsets of one participant are positive and strictly increasing along the stream; every event's `offset` equals the offset of the update that carries it.",
    cites: ['R.ledger.40'],
    rewrite: () => undefined,
    rewriteChannel(channel, event, memory) {
      if (!isUpdatesChannel(channel) || event.kind !== 'message' || !isUpdateItem(event.message)) return undefined;
      const key = ck(channel, 'lastOffset');
      const prev = memory.get(key);
      const offset = itemOffset(event.message);
      if (offset !== undefined) memory.set(key, offset);
      if (itemKind(event.message) !== 'Transaction' || typeof prev !== 'number' || prev === offset) return undefined;
      if (bump(memory, ck(channel, 'transactions')) % 4 !== 0) return undefined;
      const out = clone(event.message);
      const r = itemRecord(out);
      if (!r || !Array.isArray(r.events)) return undefined;
      let changed = false;
      for (const e of r.events) {
        const er = eventRecord(e);
        if (er && typeof er[1].offset === 'number') {
          er[1].offset = prev;
          changed = true;
        }
      }
      return changed ? [out] : undefined;
    },
  },
  {
    // Offset checkpoints on the channel go through the protobuf JSON codec, which writes int64 as a string.
    name: 'blind-r3-ledger-ws-checkpoint-offset-string',
    interface: 'ledger',
    breaks: 'Types `int64`/`int32` are JSON integers.',
    cites: ['R.ledger.38'],
    rewrite: () => undefined,
    rewriteChannel(channel, event) {
      if (!isUpdatesChannel(channel) || event.kind !== 'message' || itemKind(event.message) !== 'OffsetCheckpoint') return undefined;
      const out = clone(event.message);
      const r = itemRecord(out);
      if (!r || typeof r.offset !== 'number') return undefined;
      r.offset = String(r.offset);
      return [out];
    },
  },
]);
