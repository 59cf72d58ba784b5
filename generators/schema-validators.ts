// Compiles the schemas of one loaded document with ajv, once, and validates values against them by pointer.
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { LoadedDocument } from './load-document.ts';
import { convertDocument, DISCRIMINATOR_KEYWORD, type ConvertedDocument } from './openapi-to-json-schema.ts';
import { variantKey, variantOf, type VariantOptions } from './schema-variants.ts';
import { resolvePointer } from '../common/json.ts';

export interface ValidationIssue {
  /** JSON pointer of the offending value inside the validated instance ("" = the whole value). */
  pointer: string;
  /** The JSON Schema keyword that failed (type, required, enum, ...). */
  keyword: string;
  message: string;
  /** Where in the document the violated rule lives. */
  schemaPointer: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}

const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv) => Ajv;
/** The formats ajv-formats validates (any other format name is an annotation). */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

export class SchemaValidators {
  readonly converted: ConvertedDocument;
  private readonly ajv: Ajv;
  private readonly docId: string;
  private readonly cache = new Map<string, ValidateFunction>();
  /** Tolerant readings of the same document (see schema-variants.ts), built when first asked for. */
  private readonly variants = new Map<string, SchemaValidators>();

  constructor(
    readonly loaded: LoadedDocument,
    variant?: { converted: ConvertedDocument; ordinal: number },
  ) {
    this.converted = variant?.converted ?? convertDocument(loaded.document, loaded.version);
    const options = { strict: false, allErrors: true, validateFormats: true, discriminator: false } as const;
    this.ajv = loaded.version === '3.1' ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
    addFormats(this.ajv);
    this.ajv.addKeyword({ keyword: DISCRIMINATOR_KEYWORD });
    // A format we do not know is an annotation, not an error (OpenAPI allows any format name).
    for (const f of this.converted.formats) if (!KNOWN_FORMATS.has(f)) this.ajv.addFormat(f, true);
    this.docId = `urn:cn-conformance:${loaded.name}:${loaded.sha256.slice(0, 16)}${variant ? `:variant-${variant.ordinal}` : ''}`;
    this.ajv.addSchema({ ...this.converted.document, $id: this.docId } as AnySchema, this.docId);
  }

  /** The same document read more tolerantly (schemas keep their pointers); the strict one for no options. */
  variant(options: VariantOptions): SchemaValidators {
    const key = variantKey(options);
    if (key === variantKey({})) return this;
    let v = this.variants.get(key);
    if (!v) {
      const document = variantOf(this.converted.document, options) as ConvertedDocument['document'];
      v = new SchemaValidators(this.loaded, { converted: { ...this.converted, document }, ordinal: this.variants.size + 1 });
      this.variants.set(key, v);
    }
    return v;
  }

  /** The converted (plain JSON Schema) document, for generators. */
  get document() {
    return this.converted.document;
  }

  /** The converted schema at a pointer of the document. */
  schemaAt(pointer: string): unknown {
    return resolvePointer(this.converted.document, pointer);
  }

  /** Compile (or fetch the compiled) validator of the schema at `pointer`. */
  validatorAt(pointer: string): ValidateFunction {
    let fn = this.cache.get(pointer);
    if (!fn) {
      fn = this.ajv.getSchema(`${this.docId}#${encodePointerForUri(pointer)}`);
      if (!fn) throw new Error(`${this.loaded.source}: no schema at #${pointer}`);
      this.cache.set(pointer, fn);
    }
    return fn;
  }

  /** Compile every schema of the document; returns how many validators exist. */
  compileAll(): number {
    for (const ptr of this.converted.schemaLocations) this.validatorAt(ptr);
    return this.cache.size;
  }

  validate(pointer: string, value: unknown): ValidationResult {
    const fn = this.validatorAt(pointer);
    if (fn(value)) return { valid: true, issues: [] };
    return { valid: false, issues: toIssues(fn.errors ?? [], pointer) };
  }
}

// ajv ids are URIs: each pointer token must be percent-encoded where URI syntax needs it ({, }, space ...).
function encodePointerForUri(pointer: string): string {
  return pointer
    .split('/')
    .map((t) => encodeURIComponent(t).replace(/%7E/gi, '~'))
    .join('/');
}

function toIssues(errors: ErrorObject[], base: string): ValidationIssue[] {
  // Branch-internal errors of if/then and oneOf are noise once the enclosing error is reported.
  const relevant = errors.filter((e) => e.keyword !== 'if');
  return relevant.map((e) => ({
    pointer: e.instancePath,
    keyword: e.keyword,
    message: describe(e),
    schemaPointer: e.schemaPath.startsWith('#') ? base + e.schemaPath.slice(1) : e.schemaPath,
  }));
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `is missing required property '${String(p.missingProperty)}'`;
    case 'additionalProperties':
      return `has unexpected property '${String(p.additionalProperty)}'`;
    case 'enum':
      return `must be one of ${JSON.stringify(p.allowedValues)}`;
    case 'type':
      return `must be ${String(p.type)}`;
    default:
      return e.message ?? `fails ${e.keyword}`;
  }
}

/** One readable line per issue: "/events/0/offset must be integer". */
export function formatIssues(result: ValidationResult, limit = 5): string {
  const lines = result.issues.slice(0, limit).map((i) => `${i.pointer === '' ? '(root)' : i.pointer} ${i.message}`);
  if (result.issues.length > limit) lines.push(`... ${result.issues.length - limit} more`);
  return lines.join('; ');
}
