// The AsyncAPI parser hands back its document resolved: every $ref replaced by the object it names, so a schema
// used in two places is one shared object and a recursive schema is a cycle. ajv and the OpenAPI pipeline read
// named schemas that refer to each other instead; this turns the graph back into that form. A schema reached
// from more than one place (or from itself) becomes one named entry of `schemas`, referenced as
// "#/components/schemas/NAME"; every other schema is copied where it is used.
import { isObject, type JsonObject } from '../../common/json.ts';
import { SCHEMA_ARRAYS, SCHEMA_MAPS, SCHEMA_SINGLES } from '../openapi-to-json-schema.ts';

export const SCHEMA_PREFIX = '#/components/schemas/';

export class SchemaGraph {
  /** The named schemas, written as `write` meets them. */
  readonly schemas: Record<string, unknown> = {};
  /** $refs the parser left as they were (a cycle through another file), each read as any value. */
  readonly unresolved = new Set<string>();
  private readonly visits = new Map<object, number>();
  private readonly names = new Map<object, string>();

  /** `roots`: every schema that will be written (the graph must be known before the first name is given). */
  constructor(roots: readonly unknown[]) {
    for (const root of roots) this.count(root);
  }

  /** The schema as the named form has it: a $ref when it is shared, else a copy (its shared parts as $refs). */
  write(schema: unknown): unknown {
    if (!isObject(schema) || (this.visits.get(schema) ?? 0) < 2) return this.copy(schema);
    let name = this.names.get(schema);
    if (name === undefined) {
      name = this.freshName(schema);
      this.names.set(schema, name);
      this.schemas[name] = {}; // placed first, so a cycle back to it ends at its $ref
      this.schemas[name] = this.copy(schema);
    }
    return { $ref: SCHEMA_PREFIX + name };
  }

  /** Reserve a name for an entry the caller writes itself (a channel's message schema). */
  reserve(wanted: string): string {
    const name = this.unique(wanted);
    this.schemas[name] = {};
    return name;
  }

  private count(schema: unknown): void {
    if (!isObject(schema)) return;
    const n = (this.visits.get(schema) ?? 0) + 1;
    this.visits.set(schema, n);
    if (n === 1) forEachSubschema(schema, (sub) => this.count(sub));
  }

  private copy(schema: unknown): unknown {
    if (!isObject(schema)) return schema;
    // The parser resolves every $ref but one that closes a cycle through another file, which it leaves relative to
    // a file it does not name: no guess at its target, the place accepts any value (never failing a node).
    if (typeof schema.$ref === 'string') {
      this.unresolved.add(schema.$ref);
      return {};
    }
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(schema)) {
      // The parser's own annotations (schema ids, message names) are no part of the schema.
      if (key.startsWith('x-parser-')) continue;
      if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.write(v)]));
      else if ((SCHEMA_ARRAYS.has(key) || key === 'items') && Array.isArray(value)) out[key] = value.map((v) => this.write(v));
      else if (SCHEMA_SINGLES.has(key) || key === 'items') out[key] = this.write(value);
      else out[key] = structuredClone(value);
    }
    return out;
  }

  private freshName(schema: JsonObject): string {
    const id = schema['x-parser-schema-id'];
    const named = typeof id === 'string' && !id.startsWith('<') ? id : typeof schema.title === 'string' ? schema.title : 'Schema';
    return this.unique(named);
  }

  private unique(wanted: string): string {
    const base = wanted.replace(/[^\w.-]+/g, '_') || 'Schema';
    let name = base;
    for (let i = 2; name in this.schemas; i++) name = `${base}${i}`;
    return name;
  }
}

function forEachSubschema(schema: JsonObject, visit: (sub: unknown) => void): void {
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && isObject(value)) Object.values(value).forEach(visit);
    else if ((SCHEMA_ARRAYS.has(key) || key === 'items') && Array.isArray(value)) value.forEach(visit);
    else if (SCHEMA_SINGLES.has(key) || key === 'items') visit(value);
  }
}
