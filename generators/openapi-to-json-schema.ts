// Rewrites the Schema Objects of an OpenAPI document into plain JSON Schema that ajv understands, keeping
// every schema at the same JSON pointer so that $refs and reports keep addressing the same places.
// OpenAPI 3.0 semantics handled here: nullable, boolean exclusiveMinimum/Maximum, int32/int64 ranges,
// discriminator mappings, and keywords ajv must not see (example, xml, x-*).
import type { OpenApiDocument, OpenApiVersion } from './load-document.ts';
import { appendPointer, isObject, type JsonObject as Json } from '../common/json.ts';
import { RECORD_FACTS_EXTENSION, RECORD_FACTS_KEYWORD } from './record-facts.ts';

/** Our own keyword carrying a discriminator (value -> $ref), for generators that pick a branch. */
export const DISCRIMINATOR_KEYWORD = 'cnDiscriminator';

export const INT32 = { min: -2147483648, max: 2147483647 } as const;
// The int64 range as doubles; values beyond 2^53 cannot be told apart in JavaScript anyway.
// biome-ignore lint/correctness/noPrecisionLoss: the nearest doubles are the bounds a JSON number can be compared with
export const INT64 = { min: -9223372036854775808, max: 9223372036854775807 } as const;

const DROPPED = new Set(['example', 'xml', 'externalDocs', 'nullable', 'discriminator', 'deprecated', '$schema']);
/** Keywords whose value is a map of schemas, an array of schemas, or one schema (`items` is either of the last two). */
export const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);
export const SCHEMA_ARRAYS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
export const SCHEMA_SINGLES: ReadonlySet<string> = new Set([
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

export interface ConvertedDocument {
  document: OpenApiDocument;
  /** Pointer of every Schema Object root found in components and operations. */
  schemaLocations: string[];
  /** Every `format` value used, so unknown ones can be registered as annotations. */
  formats: Set<string>;
}

export function convertSchema(schema: unknown, version: OpenApiVersion, formats = new Set<string>()): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    // The record facts a schema names are kept, as a keyword the validators enforce (record-facts.ts).
    if (key === RECORD_FACTS_EXTENSION && Array.isArray(value)) out[RECORD_FACTS_KEYWORD] = value;
    if (key.startsWith('x-') || DROPPED.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convertSchema(v, version, formats)]));
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => convertSchema(v, version, formats));
    } else if (key === 'items') {
      out[key] = Array.isArray(value) ? value.map((v) => convertSchema(v, version, formats)) : convertSchema(value, version, formats);
    } else if (SCHEMA_SINGLES.has(key)) {
      out[key] = convertSchema(value, version, formats);
    } else {
      out[key] = value;
    }
  }
  if (typeof schema.format === 'string') formats.add(schema.format);
  if (version === '3.0') convertExclusiveBounds(schema, out);
  addIntegerRange(out);
  applyDiscriminator(schema, out);
  return version === '3.0' && schema.nullable === true ? allowNull(out) : out;
}

function convertExclusiveBounds(schema: Json, out: Json): void {
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      out[flag] = schema[bound];
      delete out[bound];
    } else if (typeof schema[flag] === 'boolean') {
      delete out[flag];
    }
  }
}

function typesOf(s: Json): string[] {
  return Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : [];
}

function addIntegerRange(out: Json): void {
  const range = out.format === 'int32' ? INT32 : out.format === 'int64' ? INT64 : undefined;
  const types = typesOf(out);
  if (!range || !(types.includes('integer') || types.includes('number'))) return;
  if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = range.min;
  if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = range.max;
}

// A discriminated oneOf is validated the way OpenAPI defines it: the tag selects the one branch that must
// match. Plain oneOf would reject values that happen to fit two open branches.
function applyDiscriminator(schema: Json, out: Json): void {
  const d = schema.discriminator;
  if (!isObject(d) || typeof d.propertyName !== 'string') return;
  const key = Array.isArray(out.oneOf) ? 'oneOf' : Array.isArray(out.anyOf) ? 'anyOf' : undefined;
  if (!key) return;
  const branches = out[key] as Json[];
  if (!branches.every((b) => isObject(b) && typeof b.$ref === 'string')) return;
  const mapping: Record<string, string> = {};
  const explicit = isObject(d.mapping) ? (d.mapping as Record<string, string>) : {};
  for (const [tag, target] of Object.entries(explicit)) mapping[tag] = normaliseRef(target);
  const mapped = new Set(Object.values(mapping));
  for (const b of branches) {
    const ref = b.$ref as string;
    if (!mapped.has(ref)) mapping[ref.split('/').pop() as string] = ref;
  }
  const prop = d.propertyName;
  const tags = Object.keys(mapping);
  delete out[key];
  out.allOf = [
    ...((out.allOf as unknown[]) ?? []),
    { required: [prop], properties: { [prop]: { enum: tags } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a thenable
    ...tags.map((tag) => ({ if: { required: [prop], properties: { [prop]: { const: tag } } }, then: { $ref: mapping[tag] } })),
  ];
  out[DISCRIMINATOR_KEYWORD] = { propertyName: prop, mapping };
}

function normaliseRef(target: string): string {
  return target.includes('#') || target.includes('/') ? target : `#/components/schemas/${target}`;
}

function allowNull(out: Json): Json {
  const types = typesOf(out);
  if (types.length > 0) {
    const res: Json = { ...out, type: types.includes('null') ? types : [...types, 'null'] };
    if (Array.isArray(out.enum) && !out.enum.includes(null)) res.enum = [...out.enum, null];
    return res;
  }
  const composite = ['$ref', 'allOf', 'anyOf', 'oneOf', 'enum', 'const', 'not'].some((k) => k in out);
  return composite ? { anyOf: [out, { type: 'null' }] } : out;
}

/** Converts every Schema Object of the document in place of a deep copy and lists where they are. */
export function convertDocument(doc: OpenApiDocument, version: OpenApiVersion): ConvertedDocument {
  const copy = structuredClone(doc) as OpenApiDocument;
  const locations: string[] = [];
  const formats = new Set<string>();
  const at = (container: Json, key: string, ptr: string) => {
    if (container[key] === undefined) return;
    container[key] = convertSchema(container[key], version, formats);
    locations.push(ptr);
  };
  const content = (c: unknown, ptr: string) => {
    if (!isObject(c)) return;
    for (const [mt, media] of Object.entries(c)) if (isObject(media)) at(media, 'schema', appendPointer(ptr, mt, 'schema'));
  };
  const parameterOrHeader = (p: unknown, ptr: string) => {
    if (!isObject(p) || '$ref' in p) return;
    at(p, 'schema', appendPointer(ptr, 'schema'));
    content(p.content, appendPointer(ptr, 'content'));
  };
  const response = (r: unknown, ptr: string) => {
    if (!isObject(r) || '$ref' in r) return;
    content(r.content, appendPointer(ptr, 'content'));
    if (isObject(r.headers)) for (const [h, v] of Object.entries(r.headers)) parameterOrHeader(v, appendPointer(ptr, 'headers', h));
  };
  const requestBody = (b: unknown, ptr: string) => {
    if (isObject(b) && !('$ref' in b)) content(b.content, appendPointer(ptr, 'content'));
  };

  const comps = (copy.components ?? {}) as Record<string, Json>;
  for (const name of Object.keys(comps.schemas ?? {})) at(comps.schemas as Json, name, appendPointer('', 'components', 'schemas', name));
  for (const [n, p] of Object.entries(comps.parameters ?? {})) parameterOrHeader(p, appendPointer('', 'components', 'parameters', n));
  for (const [n, h] of Object.entries(comps.headers ?? {})) parameterOrHeader(h, appendPointer('', 'components', 'headers', n));
  for (const [n, r] of Object.entries(comps.responses ?? {})) response(r, appendPointer('', 'components', 'responses', n));
  for (const [n, b] of Object.entries(comps.requestBodies ?? {})) requestBody(b, appendPointer('', 'components', 'requestBodies', n));

  for (const [path, item] of Object.entries(copy.paths ?? {})) {
    if (!isObject(item)) continue;
    const itemPtr = appendPointer('', 'paths', path);
    (Array.isArray(item.parameters) ? item.parameters : []).forEach((p, i) => parameterOrHeader(p, appendPointer(itemPtr, 'parameters', i)));
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || method === 'parameters') continue;
      const opPtr = appendPointer(itemPtr, method);
      (Array.isArray(op.parameters) ? op.parameters : []).forEach((p, i) => parameterOrHeader(p, appendPointer(opPtr, 'parameters', i)));
      requestBody(op.requestBody, appendPointer(opPtr, 'requestBody'));
      if (isObject(op.responses)) for (const [code, r] of Object.entries(op.responses)) response(r, appendPointer(opPtr, 'responses', code));
    }
  }
  return { document: copy, schemaLocations: locations, formats };
}
