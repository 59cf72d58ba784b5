// Daml values in the two encodings the scan history offers: compact JSON (the value as the world holds it)
// and a verbose, typed encoding (lossless / protobuf_json) where every value names its kind.
import type { JsonObject } from '../../common/json.ts';

export type ValueEncoding = 'compact' | 'verbose';

/** The verbose encoding: records keep field labels in order, lists and scalars are tagged. */
export function verboseValue(value: unknown): JsonObject {
  if (value === null || value === undefined) return { unit: {} };
  if (Array.isArray(value)) return { list: { elements: value.map(verboseValue) } };
  switch (typeof value) {
    case 'string':
      return { text: value };
    case 'number':
      return Number.isInteger(value) ? { int64: String(value) } : { numeric: String(value) };
    case 'boolean':
      return { bool: value };
    case 'object':
      return { record: { fields: Object.entries(value as JsonObject).map(([label, v]) => ({ label, value: verboseValue(v) })) } };
    default:
      return { text: String(value) };
  }
}

export function encodeValue(value: unknown, encoding: ValueEncoding): unknown {
  return encoding === 'verbose' ? verboseValue(value) : value;
}

/** Contract arguments are always a JSON object, in both encodings. */
export function encodeRecord(value: JsonObject, encoding: ValueEncoding): JsonObject {
  return encoding === 'verbose' ? verboseValue(value) : value;
}
