// The one JSON helper: the two types a parsed body is read as, the guards that judge its values, and RFC 6901
// pointers (the addressing shared by documents, schemas, validation messages and evidence).
import { isDeepStrictEqual } from 'node:util';

/** A parsed JSON object whose fields are not judged yet: read them through the guards below. */
export type JsonObject = Record<string, unknown>;

/**
 * A parsed JSON value that a check or a route reads freely (`any`): whatever it reads, it judges before it
 * relies on it. For code where narrowing every step would drown the rule it states.
 */
// biome-ignore lint/suspicious/noExplicitAny: the one place the suite names a freely read value
export type Json = any;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
/** The value a JSON text holds, or undefined when the text is no JSON (no JSON text stands for undefined). */
export function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** pointer('a', 0, 'b/c') -> "/a/0/b~1c" */
export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => '/' + escapeToken(String(t))).join('');
}

export function appendPointer(base: string, ...tokens: Array<string | number>): string {
  return base + pointer(...tokens);
}

/** Split "/a/b~1c" (or "#/a/b~1c") into its unescaped tokens. */
export function parsePointer(ptr: string): string[] {
  const p = ptr.startsWith('#') ? decodeURIComponent(ptr.slice(1)) : ptr;
  if (p === '') return [];
  if (!p.startsWith('/')) throw new Error(`not a JSON pointer: ${ptr}`);
  return p.slice(1).split('/').map(unescapeToken);
}

/** The value at `ptr` inside `root`, or undefined when any token is missing. */
export function resolvePointer(root: unknown, ptr: string): unknown {
  let node: unknown = root;
  for (const token of parsePointer(ptr)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The pointer of the first place two JSON values differ (relative; '' for the values themselves), or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (const [i, v] of a.entries()) {
      const d = firstDifference(v, b[i], `${at}/${i}`);
      if (d !== undefined) return d;
    }
  }
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], at + pointer(k));
      if (d !== undefined) return d;
    }
  }
  return at;
}
