// Shared view of a converted JSON Schema for the generators: $ref resolution, allOf merging, type lookup.
import { isObject, resolvePointer, type JsonObject } from '../../common/json.ts';

export type Schema = JsonObject;

/** A schema no finite value can satisfy within the generator's depth budget. */
export class UnsatisfiableSchema extends Error {}

export interface Resolved {
  schema: Schema;
  /** Pointer of the last $ref followed (for memoising recursive records), or undefined. */
  ref?: string;
  refHops: number;
}

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'readOnly', 'writeOnly', '$comment']);

/** Follows `$ref` (merging sibling constraints, as ajv applies them) until a schema without one remains. */
export function resolveRefs(document: unknown, schema: unknown): Resolved {
  let current: unknown = schema === true || schema === undefined ? {} : schema;
  let ref: string | undefined;
  let hops = 0;
  while (isObject(current) && typeof current.$ref === 'string') {
    if (++hops > 64) throw new UnsatisfiableSchema(`$ref chain too long at ${current.$ref}`);
    const { $ref, ...siblings } = current;
    if (!$ref.startsWith('#')) throw new UnsatisfiableSchema(`external $ref ${$ref} (documents must be bundled)`);
    const target = resolvePointer(document, $ref);
    if (target === undefined) throw new UnsatisfiableSchema(`unresolved $ref ${$ref}`);
    ref = $ref.slice(1);
    const constraining = Object.keys(siblings).filter((k) => !ANNOTATIONS.has(k));
    current = constraining.length > 0 && isObject(target) ? { allOf: [target, siblings] } : target;
  }
  if (current === false) throw new UnsatisfiableSchema('schema `false` admits no value');
  return { schema: isObject(current) ? current : {}, ref, refHops: hops };
}

export function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type as string[];
  if (typeof s.type === 'string') return [s.type];
  return [];
}

/** Type implied by keywords when `type` is absent (e.g. `properties` implies an object). */
export function impliedTypes(s: Schema): string[] {
  const t = typesOf(s);
  if (t.length > 0) return t;
  if ('properties' in s || 'required' in s || 'additionalProperties' in s) return ['object'];
  if ('items' in s || 'prefixItems' in s) return ['array'];
  if ('minLength' in s || 'maxLength' in s || 'pattern' in s || 'format' in s) return ['string'];
  if ('minimum' in s || 'maximum' in s || 'exclusiveMinimum' in s || 'exclusiveMaximum' in s || 'multipleOf' in s) return ['number'];
  return [];
}

const MAX_KEYS = ['maximum', 'maxLength', 'maxItems', 'maxProperties', 'exclusiveMaximum'];
const MIN_KEYS = ['minimum', 'minLength', 'minItems', 'minProperties', 'exclusiveMinimum'];

/** Merges schemas that must all hold (allOf) into one, following $refs of the parts. */
export function mergeAll(document: unknown, parts: unknown[]): Schema {
  const out: Schema = {};
  for (const part of parts) {
    let s = resolveRefs(document, part).schema;
    if (Array.isArray(s.allOf)) {
      const { allOf, ...rest } = s;
      s = mergeAll(document, [rest, ...(allOf as unknown[])]);
    }
    for (const [k, v] of Object.entries(s)) {
      const prev = out[k];
      if (prev === undefined) {
        out[k] = v;
      } else if (k === 'properties' && isObject(prev) && isObject(v)) {
        const props: Schema = { ...prev };
        for (const [name, ps] of Object.entries(v)) props[name] = name in props ? { allOf: [props[name], ps] } : ps;
        out[k] = props;
      } else if (k === 'required' && Array.isArray(prev) && Array.isArray(v)) {
        out[k] = [...new Set([...prev, ...v])];
      } else if (k === 'type') {
        const a = typesOf({ type: prev });
        const b = typesOf({ type: v });
        const both = a.filter((t) => b.includes(t) || (t === 'integer' && b.includes('number')));
        const extra = b.filter((t) => t === 'integer' && a.includes('number') && !both.includes(t));
        out[k] = [...both, ...extra];
      } else if (k === 'enum' && Array.isArray(prev) && Array.isArray(v)) {
        out[k] = prev.filter((x) => v.some((y) => JSON.stringify(x) === JSON.stringify(y)));
      } else if (MAX_KEYS.includes(k) && typeof prev === 'number' && typeof v === 'number') {
        out[k] = Math.min(prev, v);
      } else if (MIN_KEYS.includes(k) && typeof prev === 'number' && typeof v === 'number') {
        out[k] = Math.max(prev, v);
      } else if (k === 'additionalProperties' && isObject(prev) && isObject(v)) {
        out[k] = { allOf: [prev, v] };
      } else if (k === 'additionalProperties' && (prev === false || v === false)) {
        out[k] = false;
      }
      // Any other keyword: the first one wins (annotations, formats, one-ofs of the first part).
    }
  }
  return out;
}
