// Daml values with their types: a world value (compact JSON) read under its Daml type. Both encodings of the
// scan history render this one typed value, so they cannot tell different stories.
import { isObject } from '../../common/json.ts';
import type { DamlType, TypeId } from './daml-types.ts';
import { parseMicros } from './time.ts';

export type DamlValue =
  | { kind: 'unit' }
  | { kind: 'bool'; value: boolean }
  /** Scalars kept in their text form (int64 and numeric as the world writes them: no rounding). */
  | { kind: 'int64' | 'numeric' | 'text' | 'party' | 'contractId'; value: string }
  | { kind: 'timestamp'; micros: number }
  /** Days since 1970-01-01. */
  | { kind: 'date'; days: number }
  | { kind: 'list'; elements: DamlValue[] }
  | { kind: 'optional'; value?: DamlValue }
  | { kind: 'textMap'; entries: Array<readonly [string, DamlValue]> }
  | { kind: 'genMap'; entries: Array<readonly [DamlValue, DamlValue]> }
  /** A record of a known type carries its id; labels are those of the type (or of the JSON for an unknown one). */
  | { kind: 'record'; id?: TypeId; fields: Array<readonly [string, DamlValue]> }
  | { kind: 'variant'; id?: TypeId; constructor: string; value: DamlValue }
  | { kind: 'enum'; id: TypeId; constructor: string };

export const DAY_MILLIS = 86_400_000;

/** Told where a value does not fit its type (a defect of the world's values; tests collect these). */
export type OnMismatch = (problem: string) => void;

class Mismatch extends Error {}

/**
 * A compact JSON value (the ledger JSON API's encoding) read under its type. Without a type (a template or field
 * the world's packages do not hold, e.g. a submitted command's extra field) the value is read by its JSON shape,
 * and so is a value that does not fit its type (reported to `onMismatch`): the only places a kind is inferred.
 */
export function readValue(type: DamlType | undefined, json: unknown, onMismatch?: OnMismatch, path = ''): DamlValue {
  try {
    return readTyped(type, json, onMismatch, path);
  } catch (e) {
    if (!(e instanceof Mismatch)) throw e;
    onMismatch?.(e.message);
    return inferValue(json);
  }
}

function mismatch(type: DamlType, json: unknown, path: string): Error {
  return new Mismatch(`${path || '/'} is no ${type.kind}: ${JSON.stringify(json)}`);
}

function readTyped(type: DamlType | undefined, json: unknown, onMismatch: OnMismatch | undefined, path: string): DamlValue {
  if (!type) return inferValue(json);
  const read = (t: DamlType | undefined, j: unknown, p: string) => readValue(t, j, onMismatch, p);
  const scalar = (kind: 'int64' | 'numeric' | 'text' | 'party' | 'contractId'): DamlValue => {
    if (typeof json === 'string') return { kind, value: json };
    if ((kind === 'int64' || kind === 'numeric') && typeof json === 'number') return { kind, value: String(json) };
    throw mismatch(type, json, path);
  };
  switch (type.kind) {
    case 'unit':
      if (!isObject(json)) throw mismatch(type, json, path);
      return { kind: 'unit' };
    case 'bool':
      if (typeof json !== 'boolean') throw mismatch(type, json, path);
      return { kind: 'bool', value: json };
    case 'int64':
    case 'numeric':
    case 'text':
    case 'party':
    case 'contractId':
      return scalar(type.kind);
    case 'timestamp': {
      const micros = typeof json === 'string' ? parseMicros(json) : Number.NaN;
      if (Number.isNaN(micros)) throw mismatch(type, json, path);
      return { kind: 'timestamp', micros };
    }
    case 'date': {
      const millis = typeof json === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(json) ? Date.parse(`${json}T00:00:00Z`) : Number.NaN;
      if (Number.isNaN(millis)) throw mismatch(type, json, path);
      return { kind: 'date', days: millis / DAY_MILLIS };
    }
    case 'list':
      if (!Array.isArray(json)) throw mismatch(type, json, path);
      return { kind: 'list', elements: json.map((e, i) => read(type.of, e, `${path}/${i}`)) };
    case 'optional':
      // A nested optional is written [] or [value]; any other one is null or the value itself.
      if (type.of.kind === 'optional') {
        if (!Array.isArray(json) || json.length > 1) throw mismatch(type, json, path);
        return json.length === 0 ? { kind: 'optional' } : { kind: 'optional', value: read(type.of, json[0], `${path}/0`) };
      }
      return json === null || json === undefined ? { kind: 'optional' } : { kind: 'optional', value: read(type.of, json, path) };
    case 'textMap':
      if (!isObject(json)) throw mismatch(type, json, path);
      return { kind: 'textMap', entries: Object.entries(json).map(([k, v]) => [k, read(type.of, v, `${path}/${k}`)] as const) };
    case 'genMap':
      if (!Array.isArray(json) || !json.every((e) => Array.isArray(e) && e.length === 2)) throw mismatch(type, json, path);
      return {
        kind: 'genMap',
        entries: json.map(([k, v], i) => [read(type.key, k, `${path}/${i}/0`), read(type.value, v, `${path}/${i}/1`)] as const),
      };
    case 'record': {
      if (!isObject(json)) throw mismatch(type, json, path);
      const declared = new Set(type.fields.map(([label]) => label));
      // Declared fields in declaration order (those the value has), then any the type does not declare.
      const fields = type.fields.filter(([label]) => label in json).map(([label, t]) => [label, read(t, json[label], `${path}/${label}`)] as const);
      for (const [label, v] of Object.entries(json))
        if (!declared.has(label)) {
          onMismatch?.(`${path}/${label} is no field of ${type.id.module}:${type.id.entity}`);
          fields.push([label, inferValue(v)]);
        }
      return { kind: 'record', id: type.id, fields };
    }
    case 'variant': {
      const tag = isObject(json) ? json.tag : undefined;
      if (!isObject(json) || typeof tag !== 'string' || !(tag in type.constructors)) throw mismatch(type, json, path);
      return { kind: 'variant', id: type.id, constructor: tag, value: read(type.constructors[tag], json.value, `${path}/value`) };
    }
    case 'enum':
      if (typeof json !== 'string' || !type.constructors.includes(json)) throw mismatch(type, json, path);
      return { kind: 'enum', id: type.id, constructor: json };
  }
}

/** A value of unknown type, by its JSON shape: strings are texts, objects records without an id. */
function inferValue(json: unknown): DamlValue {
  if (json === null || json === undefined) return { kind: 'optional' };
  if (Array.isArray(json)) return { kind: 'list', elements: json.map(inferValue) };
  if (isObject(json)) return { kind: 'record', fields: Object.entries(json).map(([k, v]) => [k, inferValue(v)] as const) };
  if (typeof json === 'boolean') return { kind: 'bool', value: json };
  if (typeof json === 'number') return Number.isInteger(json) ? { kind: 'int64', value: String(json) } : { kind: 'numeric', value: String(json) };
  return { kind: 'text', value: String(json) };
}
