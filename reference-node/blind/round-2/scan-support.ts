// Helpers shared by the round-2 scan blind faults: path matching, JSON cloning, value encodings, times.
import { createHash } from 'node:crypto';
import type { BlindAnswer, BlindRequest } from '../seam.ts';

export const SCAN = '/api/scan';

export type Json = Record<string, unknown>;

/** True when the request is `method` on the scan path `path` (after /api/scan); `path` may be a RegExp. */
export function isScan(request: BlindRequest, method: string, path: string | RegExp): boolean {
  if (request.method.toUpperCase() !== method) return false;
  if (!request.path.startsWith(SCAN)) return false;
  const rest = request.path.slice(SCAN.length);
  return typeof path === 'string' ? rest === path : path.test(rest);
}

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A deep copy of a JSON body (answers are never changed in place). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** A 200 JSON answer whose body is an object, else undefined. */
export function okBody(answer: BlindAnswer): Json | undefined {
  if (answer.status !== 200 || !isObject(answer.body)) return undefined;
  return clone(answer.body);
}

export function withBody(answer: BlindAnswer, body: unknown): BlindAnswer {
  return { ...answer, body };
}

export function errorAnswer(status: number, message: string): BlindAnswer {
  return { status, contentType: 'application/json', body: { error: message } };
}

/** One query parameter as a single string (the first occurrence), or undefined. */
export function queryOne(request: BlindRequest, name: string): string | undefined {
  const v = request.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The request body as an object ({} when none). */
export function bodyOf(request: BlindRequest): Json {
  return isObject(request.body) ? request.body : {};
}

/**
 * Turns the verbose, type-carrying value encoding (records with recordId and labelled fields, `{party: ...}`,
 * `{numeric: ...}`, lists with `elements`...) into the compact JSON encoding.
 */
export function compactify(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compactify);
  if (!isObject(v)) return v;
  if ('record' in v && isObject(v.record)) {
    const out: Json = {};
    const fields = Array.isArray(v.record.fields) ? v.record.fields : [];
    fields.forEach((f, i) => {
      if (isObject(f)) out[typeof f.label === 'string' && f.label !== '' ? f.label : String(i)] = compactify(f.value);
    });
    return out;
  }
  if ('list' in v && isObject(v.list)) return (Array.isArray(v.list.elements) ? v.list.elements : []).map(compactify);
  if ('optional' in v && isObject(v.optional)) return v.optional.value === undefined ? null : compactify(v.optional.value);
  if ('variant' in v && isObject(v.variant)) return { tag: v.variant.constructor, value: compactify(v.variant.value) };
  if ('enum' in v && isObject(v.enum)) return v.enum.constructor;
  if ('unit' in v) return {};
  const keys = Object.keys(v);
  if (keys.length === 1) {
    const k = keys[0] as string;
    if (['party', 'numeric', 'text', 'int64', 'contractId', 'timestamp', 'date', 'bool'].includes(k)) return v[k];
  }
  return v;
}

/** The events of a transaction tree (`events_by_id` values), or []. */
export function treeEvents(update: unknown): Json[] {
  if (!isObject(update) || !isObject(update.events_by_id)) return [];
  return Object.values(update.events_by_id).filter(isObject);
}

/** `2025-01-06T09:00:04.000148Z` -> `2025-01-06T09:00:04.000Z` (milliseconds kept, microseconds lost). */
export function toMillis(time: string): string {
  return time.replace(/\.(\d{3})\d*Z$/, '.$1Z');
}

/** `2025-01-06T09:00:04.000148Z` -> `2025-01-06T09:00:04Z` (the fraction lost). */
export function toSeconds(time: string): string {
  return time.replace(/\.\d+Z$/, 'Z');
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
