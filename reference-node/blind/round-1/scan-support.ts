// Round 1 of blind faults on the scan interface (`{scan_base_url}/api/scan`). Written from the description's
// scan section and the node's answers only: each fault rewrites what a client would receive for one endpoint
// (often one variant of it, or one bound) so that exactly one stated rule no longer holds.
import type { BlindAnswer, BlindRequest } from '../seam.ts';

export const SCAN = '/api/scan';

export type Json = Record<string, unknown>;

export function isObj(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The answer's JSON object body when it is a 200 JSON answer, else undefined. */
export function okBody(answer: BlindAnswer): Json | undefined {
  if (answer.status !== 200 || !isObj(answer.body)) return undefined;
  return answer.body;
}

export function withBody(answer: BlindAnswer, body: unknown): BlindAnswer {
  return { ...answer, body };
}

export function jsonAnswer(status: number, body: unknown): BlindAnswer {
  return { status, contentType: 'application/json', body };
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** The first value of a query parameter. */
export function q(request: BlindRequest, name: string): string | undefined {
  const v = request.query[name];
  return Array.isArray(v) ? v[0] : v;
}

export function qAll(request: BlindRequest, name: string): string[] {
  const v = request.query[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The path segments after `/api/scan`, URL-decoded, when the request is `method` on a path matching `re`. */
export function match(request: BlindRequest, method: string, re: RegExp): string[] | undefined {
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

export function bodyField(request: BlindRequest, name: string): unknown {
  return isObj(request.body) ? request.body[name] : undefined;
}

/** Adds `micros` microseconds to an ISO 8601 UTC timestamp, keeping six fractional digits. */
export function addMicros(iso: string, micros: number): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (!m) return iso;
  const total = Date.parse(`${m[1]}Z`) * 1000 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6)) + micros;
  const secs = Math.floor(total / 1_000_000);
  return `${new Date(secs * 1000).toISOString().slice(0, 19)}.${String(total - secs * 1_000_000).padStart(6, '0')}Z`;
}

/** The timestamp as JavaScript's Date renders it: millisecond precision. */
export function toMillis(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString();
}

/** A Daml value in the protobuf-JSON encoding, rendered in the compact encoding. */
export function protobufToCompact(v: unknown): unknown {
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

export const HOLDINGS = /^\/(v0|v1)\/holdings\/state$/;
export const UPDATE_BY_ID = /^\/v0\/updates\/([^/]+)$/;
export const EVENT_BY_ID = /^\/v0\/events\/([^/]+)$/;

/** A holdings-state request of version `version` with a 200 answer: [request body, answer body]. */
export function holdings(request: BlindRequest, answer: BlindAnswer, version: 'v0' | 'v1'): [Json, Json] | undefined {
  const m = match(request, 'POST', HOLDINGS);
  if (!m || m[0] !== version || !isObj(request.body)) return undefined;
  const body = okBody(answer);
  if (!body || !Array.isArray(body.created_events)) return undefined;
  return [request.body, body];
}

/** The transaction of a `/v0/events/{id}` 200 answer (an update with `events_by_id`). */
export function eventTransaction(body: Json): Json | undefined {
  const u = body.update;
  return isObj(u) && isObj(u.events_by_id) ? u : undefined;
}
