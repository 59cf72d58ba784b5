// Helpers shared by the round-2 ledger and wallet blind faults (ledger-wallet-1.ts, ledger-wallet-2.ts). They read
// requests and answers as a client sees them (seam.ts) and build altered answers.
import { createHash } from 'node:crypto';
import type { BlindAnswer, BlindRequest } from '../seam.ts';

export type Json = Record<string, unknown>;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const TEXT_TYPE = 'text/plain; charset=utf-8';

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The first value of a query parameter. */
export function queryOne(request: BlindRequest, name: string): string | undefined {
  const v = request.query[name];
  return Array.isArray(v) ? v[0] : v;
}

export function header(request: BlindRequest, name: string): string | undefined {
  const v = request.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function json(status: number, body: unknown): BlindAnswer {
  return { status, contentType: JSON_TYPE, body };
}

export function text(status: number, body: string): BlindAnswer {
  return { status, contentType: TEXT_TYPE, body };
}

export function isJsonAnswer(answer: BlindAnswer): boolean {
  return answer.contentType.toLowerCase().includes('json');
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

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** A fake but well-formed contract id derived from a seed (`00` + 64 hex + suffix), deterministic. */
export function fakeContractId(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `00${h}ca111220${createHash('sha256').update(h).digest('hex')}`;
}

// ---- the ledger update stream -------------------------------------------------------------------------------------

export function isUpdates(request: BlindRequest): boolean {
  return request.method === 'POST' && request.path === '/v2/updates';
}

export function requestBody(request: BlindRequest): Json {
  return isObject(request.body) ? request.body : {};
}

/** The answer's update items when it is a 200 JSON array, else undefined. */
export function updateItems(answer: BlindAnswer): Json[] | undefined {
  if (answer.status !== 200 || !Array.isArray(answer.body)) return undefined;
  return answer.body.filter(isObject);
}

export function itemKind(item: Json): string | undefined {
  const u = item.update;
  return isObject(u) ? Object.keys(u)[0] : undefined;
}

/** The record of an item (`update[kind].value`). */
export function itemRecord(item: Json): Json | undefined {
  const u = item.update;
  if (!isObject(u)) return undefined;
  const k = Object.keys(u)[0];
  const w = k === undefined ? undefined : u[k];
  if (!isObject(w)) return undefined;
  return isObject(w.value) ? w.value : w;
}

export function itemOffset(item: Json): number | undefined {
  const r = itemRecord(item);
  return typeof r?.offset === 'number' ? r.offset : undefined;
}

/** The request's legacy form: `filter` given, `updateFormat` not. */
export function isLegacy(body: Json): boolean {
  return body.updateFormat === undefined && body.filter !== undefined;
}

export function updateFormat(body: Json): Json | undefined {
  return isObject(body.updateFormat) ? body.updateFormat : undefined;
}

/** The transaction shape the request asks for (the legacy form defaults to ACS delta); undefined when no transactions. */
export function transactionShape(body: Json): string | undefined {
  if (isLegacy(body)) return 'TRANSACTION_SHAPE_ACS_DELTA';
  const t = updateFormat(body)?.includeTransactions;
  return isObject(t) && typeof t.transactionShape === 'string' ? t.transactionShape : undefined;
}

export function wantsReassignments(body: Json): boolean {
  return isLegacy(body) || isObject(updateFormat(body)?.includeReassignments);
}

export function endInclusive(body: Json): number | undefined {
  return typeof body.endInclusive === 'number' ? body.endInclusive : undefined;
}

export function beginExclusive(body: Json): number | undefined {
  return typeof body.beginExclusive === 'number' ? body.beginExclusive : undefined;
}

export function isDescending(body: Json): boolean {
  return body.descendingOrder === true;
}

/** The `limit` query parameter as a number, undefined when absent or not an integer. */
export function limitOf(request: BlindRequest): number | undefined {
  const l = queryOne(request, 'limit');
  return l !== undefined && /^\d+$/.test(l) ? Number(l) : undefined;
}

/** Every Filters object of the request's event formats (per party and for any party). */
export function filtersOf(body: Json): Json[] {
  const formats: unknown[] = [];
  if (isLegacy(body)) formats.push(body.filter);
  const uf = updateFormat(body);
  if (uf) {
    const t = uf.includeTransactions;
    if (isObject(t)) formats.push(t.eventFormat);
    formats.push(uf.includeReassignments);
  }
  const out: Json[] = [];
  for (const f of formats) {
    if (!isObject(f)) continue;
    if (isObject(f.filtersByParty)) for (const v of Object.values(f.filtersByParty)) if (isObject(v)) out.push(v);
    if (isObject(f.filtersForAnyParty)) out.push(f.filtersForAnyParty);
  }
  return out;
}

/** The synchronizer times an item carries (for a checkpoint built beside it). */
export function synchronizerTimesOf(item: Json): Json[] {
  const r = itemRecord(item);
  if (!r) return [];
  if (Array.isArray(r.synchronizerTimes)) return clone(r.synchronizerTimes.filter(isObject));
  if (typeof r.synchronizerId === 'string' && typeof r.recordTime === 'string') return [{ synchronizerId: r.synchronizerId, recordTime: r.recordTime }];
  return [];
}

export function checkpoint(offset: number, synchronizerTimes: Json[]): Json {
  return { update: { OffsetCheckpoint: { value: { offset, synchronizerTimes } } } };
}

/** The request with the parties taken out: what a cache that forgets the parties keys on. */
export function withoutParties(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutParties);
  if (!isObject(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'filtersByParty' && isObject(x)) out[k] = Object.values(x).map(withoutParties);
    else if (k === 'parties' && Array.isArray(x)) out[k] = '*';
    else out[k] = withoutParties(x);
  }
  return out;
}

/** The parties a request names (sorted), for telling two requests of the same form apart. */
export function partiesNamed(v: unknown, acc: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) partiesNamed(x, acc);
  else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'filtersByParty' && isObject(x)) acc.push(...Object.keys(x));
      if (k === 'parties' && Array.isArray(x)) acc.push(...x.filter((p): p is string => typeof p === 'string'));
      partiesNamed(x, acc);
    }
  }
  return [...new Set(acc)].sort();
}
