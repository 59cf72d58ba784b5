// Round 1 blind faults on the ledger interface (POST /v2/updates above all, and the events-by-contract-id
// lookup) and on the wallet interface (buy-traffic requests, transfer offer status, dso party id). Written from
// the description and the node's answers alone: each rewrites what a client would receive, for one
// endpoint and one condition, the way a real implementation could get it wrong.
import type { BlindAnswer, BlindRequest } from '../seam.ts';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const clone = <T>(v: T): T => structuredClone(v);

// ---------------------------------------------------------------- requests

export const isUpdates = (r: BlindRequest): boolean => r.method === 'POST' && r.path === '/v2/updates';
export const isEventsByContractId = (r: BlindRequest): boolean => r.method === 'POST' && r.path === '/v2/events/events-by-contract-id';

export function authOf(r: BlindRequest): string {
  const h = r.headers.authorization ?? r.headers.Authorization;
  return Array.isArray(h) ? h.join(',') : (h ?? '');
}

export function queryInt(r: BlindRequest, name: string): number | undefined {
  const v = r.query[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined;
}

export const body = (r: BlindRequest): Obj => obj(r.body);
export const beginOf = (b: Obj): number | undefined => (typeof b.beginExclusive === 'number' ? b.beginExclusive : undefined);
export const endOf = (b: Obj): number | undefined => (typeof b.endInclusive === 'number' ? b.endInclusive : undefined);
export const isDescending = (b: Obj): boolean => b.descendingOrder === true;

/** The transaction format the request selects: its own, or the legacy default built from `filter`. */
export function txFormat(b: Obj): { eventFormat: Obj; shape: 'acs' | 'le' | 'other' } | undefined {
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

export const partiesOf = (eventFormat: Obj): string[] => Object.keys(obj(eventFormat.filtersByParty));
export const readsAnyParty = (eventFormat: Obj): boolean => eventFormat.filtersForAnyParty !== undefined;

/** What the answer depends on besides the offset window: who asks, and the format. */
export const streamSignature = (r: BlindRequest): string => {
  const b = body(r);
  return JSON.stringify([authOf(r), b.updateFormat ?? null, b.filter ?? null, b.verbose ?? null]);
};

// ---------------------------------------------------------------- answers

export const okList = (a: BlindAnswer): a is BlindAnswer & { body: unknown[] } => a.status === 200 && Array.isArray(a.body);
export const withBody = (a: BlindAnswer, b: unknown): BlindAnswer => ({ ...a, body: b });
export const json = (status: number, b: unknown): BlindAnswer => ({ status, contentType: 'application/json', body: b });

export function cantonError(status: number, code: string, cause: string, errorCategory: number, grpcCodeValue: number): BlindAnswer {
  return json(status, { code, cause, context: {}, resources: [], errorCategory, grpcCodeValue, definiteAnswer: false });
}

/** The key of an update item (`Transaction`, `OffsetCheckpoint`, ...). */
export const kindOf = (item: unknown): string | undefined => Object.keys(obj(obj(item).update))[0];
export const recordOf = (item: unknown): Obj => {
  const k = kindOf(item);
  return k === undefined ? {} : obj(obj(obj(obj(item).update)[k]).value);
};
export const offsetOf = (item: unknown): number | undefined => {
  const o = recordOf(item).offset;
  return typeof o === 'number' ? o : undefined;
};

export const eventKind = (e: unknown): string | undefined => Object.keys(obj(e))[0];
export const eventRec = (e: unknown): Obj => {
  const k = eventKind(e);
  return k === undefined ? {} : obj(obj(e)[k]);
};
export const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === 'string');

export function sortByOffset(items: unknown[], descending: boolean): unknown[] {
  return [...items].sort((x, y) => ((offsetOf(x) ?? 0) - (offsetOf(y) ?? 0)) * (descending ? -1 : 1));
}

/** Remembers every update item of a stream answer by offset, under the request's signature. */
export function rememberItems(memory: Map<string, unknown>, key: string, items: readonly unknown[]): Map<number, unknown> {
  let seen = memory.get(key) as Map<number, unknown> | undefined;
  if (!seen) memory.set(key, (seen = new Map()));
  for (const item of items) {
    const o = offsetOf(item);
    if (o !== undefined && !seen.has(o)) seen.set(o, clone(item));
  }
  return seen;
}

/** Whether an event's template is the one a TemplateFilter names (by package id or by `#package-name`). */
export function templateMatches(filterTemplate: string, event: Obj): boolean {
  const tid = typeof event.templateId === 'string' ? event.templateId : '';
  if (filterTemplate === tid) return true;
  const i = tid.indexOf(':');
  return filterTemplate.startsWith('#') && i >= 0 && filterTemplate === `#${String(event.packageName)}${tid.slice(i)}`;
}

export const NODE_LIST_LIMIT = 200;

// ---------------------------------------------------------------- wallet

export const WALLET = '/api/validator';
export const BUY_TRAFFIC = `${WALLET}/v0/wallet/buy-traffic-requests`;
export const STATUS_PATH = /^\/api\/validator\/v0\/wallet\/transfer-offers\/([^/]+)\/status$/;

export function statusTrackingId(r: BlindRequest): string | undefined {
  if (r.method !== 'POST') return undefined;
  const m = STATUS_PATH.exec(r.path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1]!;
  }
}

export const isBuyTraffic = (r: BlindRequest): boolean => r.method === 'POST' && r.path === BUY_TRAFFIC;
export const buyTrackingId = (r: BlindRequest): string | undefined => {
  const t = body(r).tracking_id;
  return typeof t === 'string' ? t : undefined;
};
export const errorText = (a: BlindAnswer): string => {
  const e = obj(a.body).error;
  return typeof e === 'string' ? e : typeof a.body === 'string' ? a.body : '';
};
