// fast-check arbitraries of values that satisfy a (converted) JSON Schema: the positive side of every
// schema-driven check, and the base that invalid variants mutate.
import fc from 'fast-check';
import { DISCRIMINATOR_KEYWORD } from '../openapi-to-json-schema.ts';
import { isObject } from '../../common/json.ts';
import { impliedTypes, mergeAll, resolveRefs, UnsatisfiableSchema, type Schema } from './schema-walk.ts';

export interface ValueOptions {
  /** $ref nesting up to which optional fields and array items are still generated (recursion bound). */
  maxDepth?: number;
  /** Upper bound on generated array lengths and map sizes beyond their minimum. */
  maxExtraItems?: number;
}

interface State {
  document: unknown;
  maxDepth: number;
  maxExtra: number;
  memo: Map<string, fc.Arbitrary<unknown>>;
}

const HARD_DEPTH_MARGIN = 12;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2, noUnicodeString: true });

/** Arbitrary of values valid against `schema`, whose `$ref`s resolve inside `document`. */
export function validValue(document: unknown, schema: unknown, options: ValueOptions = {}): fc.Arbitrary<unknown> {
  const state: State = { document, maxDepth: options.maxDepth ?? 3, maxExtra: options.maxExtraItems ?? 3, memo: new Map() };
  return build(state, schema, 0);
}

function build(state: State, raw: unknown, depth: number): fc.Arbitrary<unknown> {
  if (depth > state.maxDepth + HARD_DEPTH_MARGIN) throw new UnsatisfiableSchema('required fields recurse without end');
  const { schema: resolved, ref, refHops } = resolveRefs(state.document, raw);
  const d = depth + refHops;
  const deep = d > state.maxDepth;
  const key = ref !== undefined ? `${ref}|${deep ? 'deep' : d}` : undefined;
  if (key !== undefined) {
    const hit = state.memo.get(key);
    if (hit) return hit;
  }
  const arb = buildResolved(state, resolved, d);
  if (key !== undefined) state.memo.set(key, arb);
  return arb;
}

function buildResolved(state: State, s: Schema, depth: number): fc.Arbitrary<unknown> {
  const disc = s[DISCRIMINATOR_KEYWORD];
  if (isObject(disc)) return discriminated(state, s, disc as { propertyName: string; mapping: Record<string, string> }, depth);
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    return build(state, mergeAll(state.document, [rest, ...(allOf as unknown[])]), depth);
  }
  for (const alt of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[alt])) {
      const { [alt]: branches, ...rest } = s;
      return alternatives(
        state,
        (branches as unknown[]).map((b) => mergeAll(state.document, [rest, b])),
        depth,
      );
    }
  }
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) {
    if (s.enum.length === 0) throw new UnsatisfiableSchema('empty enum');
    return fc.constantFrom(...(s.enum as unknown[]));
  }
  const types = impliedTypes(s);
  if (types.length === 0) return anyJson;
  if (types.length > 1) return fc.oneof(...types.map((t) => single(state, s, t, depth)));
  return single(state, s, types[0]!, depth);
}

// Past the depth budget only branches that still terminate are usable; try them in order.
function alternatives(state: State, branches: Schema[], depth: number): fc.Arbitrary<unknown> {
  const built: fc.Arbitrary<unknown>[] = [];
  let lastError: unknown;
  for (const b of branches) {
    try {
      built.push(build(state, b, depth));
      if (depth > state.maxDepth) break;
    } catch (e) {
      if (!(e instanceof UnsatisfiableSchema)) throw e;
      lastError = e;
    }
  }
  if (built.length === 0) throw lastError ?? new UnsatisfiableSchema('no satisfiable branch');
  return built.length === 1 ? built[0]! : fc.oneof(...built);
}

function discriminated(state: State, s: Schema, disc: { propertyName: string; mapping: Record<string, string> }, depth: number) {
  const { allOf: _ignored, [DISCRIMINATOR_KEYWORD]: _d, ...rest } = s;
  const branches = Object.entries(disc.mapping).map(([tag, ref]) =>
    build(state, mergeAll(state.document, [rest, { $ref: ref }]), depth + 1).map((v) => (isObject(v) ? { ...v, [disc.propertyName]: tag } : v)),
  );
  return fc.oneof(...branches);
}

function single(state: State, s: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integer(s);
    case 'number':
      return number(s);
    case 'string':
      return string(s);
    case 'array':
      return array(state, s, depth);
    case 'object':
      return object(state, s, depth);
    default:
      return anyJson;
  }
}

function integer(s: Schema): fc.Arbitrary<number> {
  let lo = typeof s.minimum === 'number' ? Math.ceil(s.minimum) : -MAX_SAFE;
  let hi = typeof s.maximum === 'number' ? Math.floor(s.maximum) : MAX_SAFE;
  if (typeof s.exclusiveMinimum === 'number') lo = Math.max(lo, Math.floor(s.exclusiveMinimum) + 1);
  if (typeof s.exclusiveMaximum === 'number') hi = Math.min(hi, Math.ceil(s.exclusiveMaximum) - 1);
  lo = Math.max(lo, -MAX_SAFE);
  hi = Math.min(hi, MAX_SAFE);
  const step = typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0 ? s.multipleOf : 1;
  const kLo = Math.ceil(lo / step);
  const kHi = Math.floor(hi / step);
  if (kLo > kHi) throw new UnsatisfiableSchema(`no integer in [${lo}, ${hi}]`);
  // Small values are the common case in real payloads; bounds are covered by fast-check's bias.
  return fc.integer({ min: kLo, max: kHi }).map((k) => k * step);
}

function number(s: Schema): fc.Arbitrary<number> {
  if (typeof s.multipleOf === 'number')
    return integer({ ...s, multipleOf: undefined })
      .map((k) => k * (s.multipleOf as number))
      .filter((v) => withinBounds(s, v));
  const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : -1e12;
  const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : 1e12;
  return fc
    .double({
      min,
      max,
      minExcluded: typeof s.exclusiveMinimum === 'number' && s.minimum === undefined,
      maxExcluded: typeof s.exclusiveMaximum === 'number' && s.maximum === undefined,
      noNaN: true,
      noDefaultInfinity: true,
    })
    .map((v) => (Object.is(v, -0) ? 0 : v));
}

function withinBounds(s: Schema, v: number): boolean {
  return !(
    (typeof s.minimum === 'number' && v < s.minimum) ||
    (typeof s.maximum === 'number' && v > s.maximum) ||
    (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) ||
    (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum)
  );
}

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const domain = fc.tuple(word, fc.constantFrom('com', 'org', 'net', 'io')).map(([a, b]) => `${a}.${b}`);

function formatted(format: string): fc.Arbitrary<string> | undefined {
  const instant = fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
  switch (format) {
    case 'date-time':
      // Microsecond resolution, as the ledger and scan interfaces write record times.
      return fc.tuple(instant, fc.integer({ min: 0, max: 999 })).map(([d, micros]) => d.toISOString().replace('Z', `${String(micros).padStart(3, '0')}Z`));
    case 'date':
      return instant.map((d) => d.toISOString().slice(0, 10));
    case 'time':
      return instant.map((d) => d.toISOString().slice(11, 19) + 'Z');
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.tuple(word, domain).map(([u, h]) => `${u}@${h}`);
    case 'uri':
    case 'url':
    case 'uri-reference':
      return fc.tuple(domain, word).map(([h, p]) => `https://${h}/${p}`);
    case 'hostname':
      return domain;
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'byte':
      return fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString('base64'));
    case 'int64':
    case 'int32':
      return fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String);
    default:
      return undefined;
  }
}

/**
 * The strings of each pattern met, made once per process: building a pattern's arbitrary costs fast-check
 * milliseconds (it tokenizes its shrinking slices), and the same patterns of the same documents are met in
 * every run. Arbitraries hold no state.
 */
const patterned = new Map<string, fc.Arbitrary<string>>();

function matching(pattern: string): fc.Arbitrary<string> {
  let arb = patterned.get(pattern);
  if (!arb) patterned.set(pattern, (arb = fc.stringMatching(new RegExp(pattern, 'u'))));
  return arb;
}

function string(s: Schema): fc.Arbitrary<string> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  const fitsLength = (v: string) => [...v].length >= minLength && [...v].length <= maxLength;
  if (typeof s.pattern === 'string') {
    try {
      return matching(s.pattern).filter(fitsLength);
    } catch {
      throw new UnsatisfiableSchema(`pattern ${s.pattern} is not supported by the generator`);
    }
  }
  const fmt = typeof s.format === 'string' ? formatted(s.format) : undefined;
  if (fmt) return fmt.filter(fitsLength);
  return fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 16) });
}

function array(state: State, s: Schema, depth: number): fc.Arbitrary<unknown[]> {
  const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
  const deep = depth > state.maxDepth;
  const cap = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
  const maxLength = Math.min(cap, minItems + (deep ? 0 : state.maxExtra));
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  if (tuple) {
    const head = tuple.map((t) => build(state, t, depth + 1));
    return fc.tuple(...head) as fc.Arbitrary<unknown[]>;
  }
  if (maxLength === 0) return fc.constant([]);
  const item = build(state, s.items, depth + 1);
  if (s.uniqueItems === true) return fc.uniqueArray(item, { minLength: minItems, maxLength, selector: (v) => JSON.stringify(v) });
  return fc.array(item, { minLength: minItems, maxLength });
}

/** The name of a property beside the declared ones, made once (see patterned). */
const EXTRA_KEY = fc.stringMatching(/^x[a-z0-9]{1,6}$/);

function object(state: State, s: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const deep = depth > state.maxDepth;
  const props = isObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const additional = s.additionalProperties;
  const keys = new Set([...required, ...(deep ? [] : Object.keys(props))]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const k of keys) {
    const sub = k in props ? props[k] : isObject(additional) ? additional : {};
    model[k] = build(state, sub, depth + 1);
  }
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: required.filter((k) => keys.has(k)) }) as fc.Arbitrary<
    Record<string, unknown>
  >;
  const minProps = typeof s.minProperties === 'number' ? s.minProperties : 0;
  if (isObject(additional) && !deep) {
    const extra = fc.dictionary(
      EXTRA_KEY.filter((k) => !(k in props)),
      build(state, additional, depth + 1),
      { maxKeys: 2 },
    );
    arb = fc.tuple(arb, extra).map(([base, more]) => ({ ...more, ...base }));
  }
  if (minProps > required.length && additional !== false) {
    const filler = isObject(additional) ? build(state, additional, depth + 1) : anyJson;
    arb = fc.tuple(arb, fc.array(filler, { minLength: minProps, maxLength: minProps })).map(([base, fill]) => {
      const out = { ...base };
      for (let i = 0; Object.keys(out).length < minProps && i < fill.length; i++) out[`xfill${i}`] = fill[i];
      return out;
    });
  }
  if (typeof s.maxProperties === 'number') {
    const max = s.maxProperties;
    arb = arb.map((o) => trimOptional(o, required, max));
  }
  return arb;
}

function trimOptional(o: Record<string, unknown>, required: string[], max: number): Record<string, unknown> {
  const out = { ...o };
  for (const k of Object.keys(out)) {
    if (Object.keys(out).length <= max) break;
    if (!required.includes(k)) delete out[k];
  }
  return out;
}
