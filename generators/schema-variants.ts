// Variants of a converted document that the answer judge validates with when the strict reading fails:
// one where a property a schema leaves optional may also be null (what production nodes send for an absent
// value), and one without properties that only later release lines require. Each variant keeps every schema
// at its pointer, so the same pointers address it.
import { isObject, type JsonObject } from '../common/json.ts';
import { RECORD_FACTS_KEYWORD } from './record-facts.ts';

export interface VariantOptions {
  /** Optional properties (not in `required`) also accept null. */
  nullForOptional?: boolean;
  /** Property names dropped from every `required` list (the target's release line predates them). */
  notRequired?: readonly string[];
  /**
   * The structure alone, without the record facts (x-cn-record-facts): what a generator of values from the
   * schema can honour (the facts are relations inside a record, judged with their own broken and kept records).
   */
  structureOnly?: boolean;
}

/** A key naming the variant, for caches ("" is the strict reading). */
export const variantKey = (o: VariantOptions) =>
  `${o.nullForOptional ? 'null' : ''}|${[...(o.notRequired ?? [])].sort().join(',')}${o.structureOnly ? '|structure' : ''}`;

// Maps whose values are schemas: walked entry by entry, never read as a schema themselves (a property may
// well be called "properties" or "required").
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

export function variantOf(document: unknown, options: VariantOptions): unknown {
  const dropped = new Set(options.notRequired ?? []);
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (options.structureOnly && key === RECORD_FACTS_KEYWORD) continue;
      if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
      else out[key] = walk(value);
    }
    const required = Array.isArray(node.required) ? (node.required as unknown[]) : undefined;
    if (required && dropped.size > 0) out.required = required.filter((name) => !(typeof name === 'string' && dropped.has(name)));
    if (options.nullForOptional && isObject(out.properties)) {
      const stillRequired = new Set((out.required as unknown[] | undefined) ?? required ?? []);
      out.properties = Object.fromEntries(
        Object.entries(out.properties).map(([name, schema]) => [name, stillRequired.has(name) ? schema : { anyOf: [schema, { type: 'null' }] }]),
      );
    }
    return out;
  };
  return walk(document);
}
