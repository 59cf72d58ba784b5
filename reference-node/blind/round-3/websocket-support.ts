// Helpers of the round-3 blind faults of the ledger's WebSocket channels (websocket.ts). They read a channel's
// request and messages as a client sees them (seam.ts) and build altered messages; no property is trusted.
import type { BlindChannel, BlindRequest } from '../seam.ts';

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** A JSON text with object keys sorted, so that equal values give equal keys. */
export function stableKey(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableKey).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

// ---- channels -----------------------------------------------------------------------------------------------------

export const UPDATES = '/v2/updates';
export const ACTIVE_CONTRACTS = '/v2/state/active-contracts';
export const COMPLETIONS = ['/v2/commands/completions', '/v2/commands/command-completions'];

export function channelBody(channel: BlindChannel): Json {
  return isObject(channel.request) ? channel.request : {};
}

export function isUpdatesChannel(channel: BlindChannel): boolean {
  return channel.path === UPDATES;
}

/** A JsCantonError as the node sends it on a channel (code and cause strings, a category). */
export function isCantonError(m: unknown): m is Json {
  return isObject(m) && typeof m.code === 'string' && typeof m.cause === 'string' && 'errorCategory' in m;
}

/** A counter of the fault's own, per channel (or per any key), from 0: returns the value before the increment. */
export function bump(memory: Map<string, unknown>, key: string): number {
  const n = typeof memory.get(key) === 'number' ? (memory.get(key) as number) : 0;
  memory.set(key, n + 1);
  return n;
}

// ---- the update stream's items --------------------------------------------------------------------------------------

export function itemKind(m: unknown): string | undefined {
  if (!isObject(m) || !isObject(m.update)) return undefined;
  return Object.keys(m.update)[0];
}

/** The record of an update item (`update[kind].value`, or the wrapper itself when it has no `value`). */
export function itemRecord(m: unknown): Json | undefined {
  if (!isObject(m) || !isObject(m.update)) return undefined;
  const k = Object.keys(m.update)[0];
  const w = k === undefined ? undefined : m.update[k];
  if (!isObject(w)) return undefined;
  return isObject(w.value) ? w.value : w;
}

export function itemOffset(m: unknown): number | undefined {
  const r = itemRecord(m);
  return typeof r?.offset === 'number' ? r.offset : undefined;
}

export function checkpoint(offset: number, synchronizerTimes: Json[]): Json {
  return { update: { OffsetCheckpoint: { value: { offset, synchronizerTimes } } } };
}

/** The synchronizer times an item carries (for a checkpoint built beside it). */
export function synchronizerTimesOf(m: unknown): Json[] {
  const r = itemRecord(m);
  if (!r) return [];
  if (Array.isArray(r.synchronizerTimes)) return clone(r.synchronizerTimes.filter(isObject));
  if (typeof r.synchronizerId === 'string' && typeof r.recordTime === 'string') return [{ synchronizerId: r.synchronizerId, recordTime: r.recordTime }];
  return [];
}

/** The single key of an event and its record (`{CreatedEvent: {...}}` → ['CreatedEvent', {...}]). */
export function eventRecord(e: unknown): [string, Json] | undefined {
  if (!isObject(e)) return undefined;
  const k = Object.keys(e)[0];
  const r = k === undefined ? undefined : e[k];
  return k !== undefined && isObject(r) ? [k, r] : undefined;
}

export function isLegacy(body: Json): boolean {
  return body.updateFormat === undefined && body.filter !== undefined;
}

export function beginExclusive(body: Json): number | undefined {
  return typeof body.beginExclusive === 'number' ? body.beginExclusive : undefined;
}

export function endInclusive(body: Json): number | undefined {
  return typeof body.endInclusive === 'number' ? body.endInclusive : undefined;
}

export function isDescending(body: Json): boolean {
  return body.descendingOrder === true;
}

/** The event formats of a request (legacy `filter`, the transactions' and the reassignments' formats). */
function eventFormats(body: Json): Json[] {
  const out: unknown[] = [];
  if (isLegacy(body)) out.push(body.filter);
  const uf = body.updateFormat;
  if (isObject(uf)) {
    if (isObject(uf.includeTransactions)) out.push(uf.includeTransactions.eventFormat);
    out.push(uf.includeReassignments);
  }
  if (isObject(body.eventFormat)) out.push(body.eventFormat);
  return out.filter(isObject);
}

/** The parties a request reads as (its filtersByParty keys); undefined when it reads for any party or names none. */
export function requestedParties(body: Json): Set<string> | undefined {
  const formats = eventFormats(body);
  if (formats.length === 0 || formats.some((f) => f.filtersForAnyParty !== undefined)) return undefined;
  const parties = new Set<string>();
  for (const f of formats) if (isObject(f.filtersByParty)) for (const p of Object.keys(f.filtersByParty)) parties.add(p);
  return parties.size > 0 ? parties : undefined;
}

/** The key of "the same read" apart from its window: the body without begin, end and order. */
export function readKey(body: Json): string {
  const { beginExclusive: _b, endInclusive: _e, descendingOrder: _d, ...rest } = body;
  return stableKey(rest);
}

/** The update items a fault remembers per read (offset → item), fed from channels and HTTP answers alike. */
export function itemsMemory(memory: Map<string, unknown>, key: string): Map<number, Json> {
  let m = memory.get(key) as Map<number, Json> | undefined;
  if (!m) memory.set(key, (m = new Map()));
  return m;
}

export function isHttpUpdates(request: BlindRequest): boolean {
  return request.method === 'POST' && request.path === UPDATES;
}
