// The scan history's two encodings of one typed Daml value: compact_json (the ledger JSON API's encoding, as the
// world holds it) and protobuf_json (also lossless=true of /v0/updates): the ledger API's Value message in
// proto3's canonical JSON mapping, where every value names its kind and records, variants and enums their type.
import type { JsonObject } from '../../common/json.ts';
import type { DamlType, TypeId } from '../world/daml-types.ts';
import { isoMicros } from '../world/time.ts';
import { DAY_MILLIS, readValue, type DamlValue } from '../world/typed-values.ts';

export type ValueEncoding = 'compact' | 'verbose';

/** The package id of a package the world names; record, variant and enum ids carry it. */
export type PackageIds = (packageName: string) => string;

/** compact_json: the ledger JSON API's encoding (no kinds; optionals as null / the value, maps as objects / pairs). */
export function compactJson(v: DamlValue): unknown {
  switch (v.kind) {
    case 'unit':
      return {};
    case 'bool':
      return v.value;
    case 'int64':
    case 'numeric':
    case 'text':
    case 'party':
    case 'contractId':
      return v.value;
    case 'timestamp':
      return isoMicros(v.micros);
    case 'date':
      return new Date(v.days * DAY_MILLIS).toISOString().slice(0, 10);
    case 'list':
      return v.elements.map(compactJson);
    case 'optional': {
      // A nested optional needs [] / [value] to tell None from Some None.
      if (v.value?.kind === 'optional') return [compactJson(v.value)];
      return v.value === undefined ? null : compactJson(v.value);
    }
    case 'textMap':
      return Object.fromEntries(v.entries.map(([k, e]) => [k, compactJson(e)]));
    case 'genMap':
      return v.entries.map(([k, e]) => [compactJson(k), compactJson(e)]);
    case 'record':
      return Object.fromEntries(v.fields.map(([label, f]) => [label, compactJson(f)]));
    case 'variant':
      return { tag: v.constructor, value: compactJson(v.value) };
    case 'enum':
      return v.constructor;
  }
}

function identifier(id: TypeId, packageIds: PackageIds): JsonObject {
  return { packageId: packageIds(id.packageName), moduleName: id.module, entityName: id.entity };
}

/** Proto3 JSON leaves out empty repeated fields (as the printer real scans use does): `{}` for no elements. */
function repeated(name: string, items: unknown[]): JsonObject {
  return items.length > 0 ? { [name]: items } : {};
}

/**
 * protobuf_json: the ledger API's Value in proto3 JSON (lowerCamelCase names; int64 and timestamp, 64-bit
 * integers, as strings of digits, the timestamp in microseconds since the epoch; a date as its day number).
 */
export function protobufJson(v: DamlValue, packageIds: PackageIds): JsonObject {
  const of = (x: DamlValue) => protobufJson(x, packageIds);
  const id = (key: string, t: TypeId | undefined) => (t ? { [key]: identifier(t, packageIds) } : {});
  switch (v.kind) {
    case 'unit':
      return { unit: {} };
    case 'bool':
      return { bool: v.value };
    case 'int64':
    case 'numeric':
    case 'text':
    case 'party':
    case 'contractId':
      return { [v.kind]: v.value };
    case 'timestamp':
      return { timestamp: String(v.micros) };
    case 'date':
      return { date: v.days };
    case 'list':
      return { list: repeated('elements', v.elements.map(of)) };
    case 'optional':
      return { optional: v.value === undefined ? {} : { value: of(v.value) } };
    case 'textMap':
      return {
        textMap: repeated(
          'entries',
          v.entries.map(([key, e]) => ({ key, value: of(e) })),
        ),
      };
    case 'genMap':
      return {
        genMap: repeated(
          'entries',
          v.entries.map(([key, e]) => ({ key: of(key), value: of(e) })),
        ),
      };
    case 'record':
      return {
        record: {
          ...id('recordId', v.id),
          ...repeated(
            'fields',
            v.fields.map(([label, f]) => ({ label, value: of(f) })),
          ),
        },
      };
    case 'variant':
      return { variant: { ...id('variantId', v.id), constructor: v.constructor, value: of(v.value) } };
    case 'enum':
      return { enum: { ...id('enumId', v.id), constructor: v.constructor } };
  }
}

/** A world value (compact JSON) of the given type in the asked encoding. */
export function encodeValue(type: DamlType | undefined, value: unknown, encoding: ValueEncoding, packageIds: PackageIds): unknown {
  const typed = readValue(type, value);
  return encoding === 'verbose' ? protobufJson(typed, packageIds) : compactJson(typed);
}
