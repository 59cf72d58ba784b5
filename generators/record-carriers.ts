// Where a document's answers carry each record that names record facts: every operation whose successful
// response schema reaches the record by $ref, and each path inside the body that leads to it. A record fact
// is judged wherever its schema is validated, so these are the carriers a test holds it to.
import { isObject, resolvePointer } from '../common/json.ts';
import type { CompiledSpec } from './compile-spec.ts';
import { RECORD_FACTS_EXTENSION } from './record-facts.ts';

/** One step into a body: a property, any element of an array, or any value of a map. */
export type Step = { property: string } | { items: true } | { values: true };

export interface RecordCarrier {
  /** The record schema's name (components/schemas/NAME). */
  record: string;
  facts: readonly string[];
  operationId: string;
  status: string;
  contentType: string;
  schemaPointer: string;
  /** Every way (acyclic) from the body to a value the record's schema validates. */
  paths: Step[][];
}

const SCHEMAS = '#/components/schemas/';

/** The record schemas of a document that name facts, with the facts. */
export function factRecords(spec: CompiledSpec): Map<string, readonly string[]> {
  const schemas = (spec.loaded.document as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {};
  const out = new Map<string, readonly string[]>();
  for (const [name, s] of Object.entries(schemas))
    if (isObject(s) && Array.isArray(s[RECORD_FACTS_EXTENSION])) out.set(name, s[RECORD_FACTS_EXTENSION] as string[]);
  return out;
}

/** The paths from a schema to values of `target` (a component schema name), never through one $ref twice. */
function pathsTo(doc: unknown, schema: unknown, target: string, through: ReadonlySet<string> = new Set()): Step[][] {
  if (!isObject(schema)) return [];
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    if (ref === SCHEMAS + target) return [[]];
    if (!ref.startsWith('#') || through.has(ref)) return [];
    return pathsTo(doc, resolvePointer(doc, ref.slice(1)), target, new Set([...through, ref]));
  }
  const out: Step[][] = [];
  const under = (step: Step | undefined, s: unknown) => {
    for (const p of pathsTo(doc, s, target, through)) out.push(step ? [step, ...p] : p);
  };
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(schema[k])) for (const b of schema[k]) under(undefined, b);
  if (isObject(schema.properties)) for (const [name, s] of Object.entries(schema.properties)) under({ property: name }, s);
  if (schema.items !== undefined) under({ items: true }, schema.items);
  if (isObject(schema.additionalProperties)) under({ values: true }, schema.additionalProperties);
  return out;
}

/** Every successful answer of the document that carries a record with facts, with the paths to it. */
export function recordCarriers(spec: CompiledSpec): RecordCarrier[] {
  const doc = spec.loaded.document;
  const out: RecordCarrier[] = [];
  for (const [record, facts] of factRecords(spec))
    for (const op of spec.catalog.operations)
      for (const r of op.responses.filter((x) => /^2/.test(x.status)))
        for (const m of r.content) {
          if (!m.schemaPointer) continue;
          const paths = pathsTo(doc, resolvePointer(doc, m.schemaPointer), record);
          if (paths.length > 0)
            out.push({ record, facts, operationId: op.id, status: r.status, contentType: m.contentType, schemaPointer: m.schemaPointer, paths });
        }
  return out;
}
