// Invalid variants for negative testing: take a valid value and break exactly one rule at one place.
// A mutation is only proposed where it is certain to make the whole value invalid, so a target that
// accepts it is wrong, never the generator. Places under oneOf/anyOf/not/if are left alone: changing a
// branch's value could make it match another branch.
import fc from 'fast-check';
import { DISCRIMINATOR_KEYWORD } from '../openapi-to-json-schema.ts';
import { appendPointer, isObject, parsePointer } from '../../common/json.ts';
import { impliedTypes, mergeAll, resolveRefs, typesOf, type Schema } from './schema-walk.ts';
import { validValue, type ValueOptions } from './valid-value.ts';

export type MutationKind = 'missing-required' | 'wrong-type' | 'out-of-range' | 'unknown-enum' | 'malformed-json';

export interface Mutation {
  kind: MutationKind;
  /** Pointer of the changed place inside the value ("" = the value itself). */
  pointer: string;
  detail: string;
  /** New value at `pointer`; absent for a removed property. */
  replacement?: unknown;
  remove?: boolean;
}

export interface InvalidValue {
  value: unknown;
  mutation: Mutation;
}

const MAX_WALK_DEPTH = 24;
const MAX_ITEMS_VISITED = 3;

/** Every single-rule mutation of `value` (which must be valid against `schema`) that breaks the schema. */
export function mutationSites(document: unknown, schema: unknown, value: unknown): Mutation[] {
  const out: Mutation[] = [];
  walk(document, schema, value, '', 0, out);
  return out;
}

function walk(document: unknown, raw: unknown, value: unknown, ptr: string, depth: number, out: Mutation[]): void {
  if (depth > MAX_WALK_DEPTH) return;
  let s = resolveRefs(document, raw).schema;
  if (Array.isArray(s.allOf) && !isObject(s[DISCRIMINATOR_KEYWORD])) {
    const { allOf, ...rest } = s;
    s = mergeAll(document, [rest, ...(allOf as unknown[])]);
  }
  const disc = s[DISCRIMINATOR_KEYWORD];
  if (isObject(disc)) {
    const prop = disc.propertyName as string;
    const tags = Object.keys(disc.mapping as object);
    if (isObject(value) && prop in value) {
      out.push({ kind: 'missing-required', pointer: appendPointer(ptr, prop), detail: `discriminator '${prop}' removed`, remove: true });
      out.push({
        kind: 'unknown-enum',
        pointer: appendPointer(ptr, prop),
        detail: `discriminator '${prop}' not one of ${tags.join(', ')}`,
        replacement: unusedString(tags),
      });
    }
    wrongType(
      branchTypes(
        document,
        Object.values(disc.mapping as Record<string, string>).map(($ref) => ({ $ref })),
      ),
      s,
      ptr,
      out,
    );
    return;
  }
  if (Array.isArray(s.oneOf) || Array.isArray(s.anyOf)) {
    const branches = [...((s.oneOf as unknown[]) ?? []), ...((s.anyOf as unknown[]) ?? [])];
    const own = typesOf(s);
    wrongType(own.length > 0 ? own : branchTypes(document, branches), s, ptr, out);
    return;
  }
  if ('not' in s || 'if' in s) return;

  if ('const' in s) {
    out.push({ kind: 'unknown-enum', pointer: ptr, detail: 'value differs from const', replacement: differentFrom([s.const]) });
  } else if (Array.isArray(s.enum)) {
    out.push({
      kind: 'unknown-enum',
      pointer: ptr,
      detail: `value not in enum ${JSON.stringify(s.enum).slice(0, 80)}`,
      replacement: differentFrom(s.enum as unknown[]),
    });
  }
  wrongType(impliedTypes(s), s, ptr, out);

  if (typeof value === 'number') rangeSites(s, value, ptr, out);
  if (typeof value === 'string') lengthSites(s, ptr, out);
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && s.minItems > 0)
      out.push({ kind: 'out-of-range', pointer: ptr, detail: `fewer than minItems ${s.minItems}`, replacement: value.slice(0, s.minItems - 1) });
    if (typeof s.maxItems === 'number' && value.length > 0)
      out.push({
        kind: 'out-of-range',
        pointer: ptr,
        detail: `more than maxItems ${s.maxItems}`,
        replacement: Array.from({ length: s.maxItems + 1 }, (_, i) => value[i % value.length]),
      });
    const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    value.slice(0, MAX_ITEMS_VISITED).forEach((item, i) => {
      const itemSchema = tuple ? tuple[i] : s.items;
      if (itemSchema !== undefined) walk(document, itemSchema, item, appendPointer(ptr, i), depth + 1, out);
    });
  }
  if (isObject(value)) {
    const props = isObject(s.properties) ? s.properties : {};
    const required = Array.isArray(s.required) ? (s.required as string[]) : [];
    for (const r of required)
      if (r in value) out.push({ kind: 'missing-required', pointer: appendPointer(ptr, r), detail: `required property '${r}' removed`, remove: true });
    for (const [k, v] of Object.entries(value)) {
      if (k in props) walk(document, props[k], v, appendPointer(ptr, k), depth + 1, out);
      else if (isObject(s.additionalProperties)) walk(document, s.additionalProperties, v, appendPointer(ptr, k), depth + 1, out);
    }
  }
}

function branchTypes(document: unknown, branches: unknown[]): string[] {
  const all = new Set<string>();
  for (const b of branches) {
    const r = resolveRefs(document, b).schema;
    const t = impliedTypes(Array.isArray(r.allOf) ? mergeAll(document, [r]) : r);
    if (t.length === 0) return []; // an untyped branch admits every type
    t.forEach((x) => all.add(x));
  }
  return [...all];
}

// Candidates in order of preference; integer 7 is also a number, 1.5 is a number but not an integer.
const TYPE_SAMPLES: Array<[string, unknown]> = [
  ['string', 'not-a-valid-value'],
  ['boolean', true],
  ['object', { unexpected: true }],
  ['array', ['unexpected']],
  ['integer', 7],
  ['number', 1.5],
  ['null', null],
];

function admits(types: string[], sample: [string, unknown]): boolean {
  const [t] = sample;
  if (types.includes(t)) return true;
  if (t === 'integer' && types.includes('number')) return true;
  return false;
}

function wrongType(types: string[], s: Schema, ptr: string, out: Mutation[]): void {
  if (types.length === 0) return;
  const pick = TYPE_SAMPLES.find((c) => !admits(types, c));
  if (!pick) return;
  // With an enum, a sample of the wrong type is wrong anyway; without, the type alone decides.
  if (Array.isArray(s.enum) && (s.enum as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(pick[1]))) return;
  out.push({ kind: 'wrong-type', pointer: ptr, detail: `${pick[0]} where ${types.join(' or ')} is required`, replacement: pick[1] });
}

function rangeSites(s: Schema, v: number, ptr: string, out: Mutation[]): void {
  const isInt = impliedTypes(s).includes('integer');
  const delta = isInt ? 1 : Math.max(1, Math.abs(v) * 1e-9);
  const safe = (x: number) => Math.abs(x) <= Number.MAX_SAFE_INTEGER;
  if (typeof s.minimum === 'number' && safe(s.minimum - delta))
    out.push({ kind: 'out-of-range', pointer: ptr, detail: `below minimum ${s.minimum}`, replacement: s.minimum - delta });
  if (typeof s.maximum === 'number' && safe(s.maximum + delta))
    out.push({ kind: 'out-of-range', pointer: ptr, detail: `above maximum ${s.maximum}`, replacement: s.maximum + delta });
  if (typeof s.exclusiveMinimum === 'number' && safe(s.exclusiveMinimum))
    out.push({ kind: 'out-of-range', pointer: ptr, detail: `not above exclusiveMinimum ${s.exclusiveMinimum}`, replacement: s.exclusiveMinimum });
  if (typeof s.exclusiveMaximum === 'number' && safe(s.exclusiveMaximum))
    out.push({ kind: 'out-of-range', pointer: ptr, detail: `not below exclusiveMaximum ${s.exclusiveMaximum}`, replacement: s.exclusiveMaximum });
}

function lengthSites(s: Schema, ptr: string, out: Mutation[]): void {
  if (typeof s.minLength === 'number' && s.minLength > 0)
    out.push({ kind: 'out-of-range', pointer: ptr, detail: `shorter than minLength ${s.minLength}`, replacement: 'a'.repeat(s.minLength - 1) });
  if (typeof s.maxLength === 'number')
    out.push({ kind: 'out-of-range', pointer: ptr, detail: `longer than maxLength ${s.maxLength}`, replacement: 'a'.repeat(s.maxLength + 1) });
}

function unusedString(taken: unknown[]): string {
  let candidate = 'UNKNOWN_VALUE';
  for (let i = 0; taken.includes(candidate); i++) candidate = `UNKNOWN_VALUE_${i}`;
  return candidate;
}

function differentFrom(values: unknown[]): unknown {
  const numbers = values.filter((v): v is number => typeof v === 'number');
  if (values.length > 0 && numbers.length === values.length) return Math.max(...numbers) + 1;
  return unusedString(values);
}

/** A deep copy of `root` with the mutation applied. */
export function applyMutation(root: unknown, m: Mutation): unknown {
  if (m.pointer === '') return m.remove ? undefined : structuredClone(m.replacement);
  const copy = structuredClone(root) as Record<string, unknown>;
  const tokens = parsePointer(m.pointer);
  const last = tokens.pop()!;
  let parent: unknown = copy;
  for (const t of tokens) parent = (parent as Record<string, unknown>)[t];
  if (m.remove) delete (parent as Record<string, unknown>)[last];
  else (parent as Record<string, unknown>)[last] = structuredClone(m.replacement);
  return copy;
}

/**
 * Arbitrary of invalid variants of `schema`, or `null` values where a generated valid value offers no
 * place to break (e.g. the schema is `{}`, which admits everything).
 */
export function invalidValue(document: unknown, schema: unknown, options: ValueOptions = {}): fc.Arbitrary<InvalidValue | null> {
  return validValue(document, schema, options).chain((valid) => {
    const sites = mutationSites(document, schema, valid);
    if (sites.length === 0) return fc.constant(null);
    return fc.constantFrom(...sites).map((mutation) => ({ value: applyMutation(valid, mutation), mutation }));
  });
}

/** Serialised JSON texts that no JSON parser accepts, derived from valid values. */
export function malformedJson(valid: fc.Arbitrary<unknown>): fc.Arbitrary<{ text: string; mutation: Mutation }> {
  return fc.tuple(valid, fc.constantFrom('unclosed', 'extra-brace', 'single-quotes', 'trailing-comma')).map(([v, how]) => {
    const json = JSON.stringify(v) ?? 'null';
    const text = how === 'unclosed' ? `{"value": ${json}` : how === 'extra-brace' ? `${json}}` : how === 'single-quotes' ? `{'value': ${json}}` : `[${json},]`;
    return { text, mutation: { kind: 'malformed-json' as const, pointer: '', detail: `body is not JSON (${how})` } };
  });
}
