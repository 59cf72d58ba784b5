// Reading scan request inputs: query/path text and JSON bodies, each wrong input a 400 with a message
// naming the field (never a 500).
import { isObject, type JsonObject } from '../../common/json.ts';
import { parseMicros } from '../world/time.ts';
import { badRequest } from './errors.ts';

const INT32_MAX = 2 ** 31 - 1;

/** The request body as an object (POST endpoints with a required JSON body). */
export function bodyObject(body: unknown): JsonObject {
  if (body === undefined) throw badRequest('Invalid request: a JSON body is required');
  // A body of another content type arrives as bytes (a Buffer), which is no JSON object either.
  if (!isObject(body) || Buffer.isBuffer(body)) throw badRequest('Invalid request: the body must be a JSON object');
  return body;
}

export function requiredField(body: JsonObject, name: string): unknown {
  if (body[name] === undefined || body[name] === null) throw badRequest(`Invalid request: ${name} is missing`);
  return body[name];
}

/** A JSON integer (int64 on the wire; must be a safe integer here). */
export function integerField(body: JsonObject, name: string, required: true): number;
export function integerField(body: JsonObject, name: string, required: false): number | undefined;
export function integerField(body: JsonObject, name: string, required: boolean): number | undefined {
  const v = required ? requiredField(body, name) : body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw badRequest(`Invalid request: ${name} must be an integer`);
  return v;
}

/** A page size: an int32 between 1 and `max`. */
export function pageSize(value: unknown, name: string, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > INT32_MAX) throw badRequest(`Invalid request: ${name} must be an int32`);
  if (value < 1 || value > max) throw badRequest(`Invalid request: ${name} must be between 1 and ${max}`);
  return value;
}

export function stringField(body: JsonObject, name: string, required: true): string;
export function stringField(body: JsonObject, name: string, required: false): string | undefined;
export function stringField(body: JsonObject, name: string, required: boolean): string | undefined {
  const v = required ? requiredField(body, name) : body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badRequest(`Invalid request: ${name} must be a string`);
  return v;
}

/** An RFC 3339 timestamp, in microseconds. */
export function timestamp(text: string, name: string): number {
  const micros = parseMicros(text);
  if (!Number.isFinite(micros)) throw badRequest(`Invalid request: ${name} is not an RFC 3339 timestamp: ${text}`);
  return micros;
}

/** A query parameter given once (a repeated one is a 400). */
export function singleQuery(query: unknown, name: string): string | undefined {
  const v = (query as JsonObject | undefined)?.[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw badRequest(`Query parameter ${name} may be given only once`);
  return String(v);
}

/** Decimal integer text within the int64 range, as a (possibly unsafe) bigint. */
export function int64Text(text: string, name: string): bigint {
  if (!/^-?\d{1,19}$/.test(text)) throw badRequest(`Invalid ${name}: ${text}`);
  const n = BigInt(text);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n)) throw badRequest(`Invalid ${name}: ${text}`);
  return n;
}

export function int32Text(text: string, name: string): number {
  if (!/^-?\d{1,10}$/.test(text)) throw badRequest(`Invalid ${name}: ${text}`);
  const n = Number(text);
  if (Math.abs(n) > INT32_MAX && n !== -(2 ** 31)) throw badRequest(`Invalid ${name}: ${text}`);
  return n;
}

export function booleanText(text: string, name: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw badRequest(`Invalid ${name}: ${text} (expected true or false)`);
}
