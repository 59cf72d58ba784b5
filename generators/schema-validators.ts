// Compiles the schemas of one loaded document with ajv, once, and validates values against them by pointer.
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { LoadedDocument } from './load-document.ts';
import { convertDocument, DISCRIMINATOR_KEYWORD, type ConvertedDocument } from './openapi-to-json-schema.ts';
import { variantKey, variantOf, type VariantOptions } from './schema-variants.ts';
import { appendPointer, resolvePointer } from '../common/json.ts';
import { reduceUnionErrors } from './union-errors.ts';
import { RECORD_FACTS_KEYWORD, recordProblems } from './record-facts.ts';

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
  /** A failed oneOf/anyOf shows only the branch the value selects (or one line saying it selects none). */
  issues: ValidationIssue[];
  /** Every issue ajv reported, all branches included; set only where the reduction left some out. */
  unreduced?: ValidationIssue[];
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
  /** Where each schema object of the converted document sits, to compile a union's branches on their own. */
  private schemaPointers: Map<object, string> | undefined;
  private readonly branchCache = new Map<string, ValidateFunction>();

  constructor(
    readonly loaded: LoadedDocument,
    variant?: { converted: ConvertedDocument; ordinal: number },
  ) {
    this.converted = variant?.converted ?? convertDocument(loaded.document, loaded.version);
    // verbose: a union's error carries its branches and the value, which the error reduction reads.
    const options = { strict: false, allErrors: true, verbose: true, validateFormats: true, discriminator: false } as const;
    this.ajv = loaded.version === '3.1' ? (new Ajv2020(options) as unknown as Ajv) : new Ajv(options);
    addFormats(this.ajv);
    this.ajv.addKeyword({ keyword: DISCRIMINATOR_KEYWORD });
    this.ajv.addKeyword(recordFactsKeyword());
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
    const errors = fn.errors ?? [];
    const reduced = reduceUnionErrors(errors, { countErrors: (b, d) => this.countErrors(b, d), resolveRef: (r) => resolveLocal(this.converted.document, r) });
    const issues = toIssues(reduced, pointer);
    const unreduced = toIssues(errors, pointer);
    return unreduced.length > issues.length ? { valid: false, issues, unreduced } : { valid: false, issues };
  }

  /** The number of errors one branch of a union reports for a value (undefined: not a schema of the document). */
  private countErrors(branch: unknown, data: unknown): number | undefined {
    if (typeof branch === 'boolean') return branch ? 0 : 1;
    if (typeof branch !== 'object' || branch === null) return undefined;
    if (!this.schemaPointers) this.schemaPointers = indexObjects(this.converted.document);
    const at = this.schemaPointers.get(branch);
    if (at === undefined) return undefined;
    let fn = this.branchCache.get(at);
    if (!fn) {
      fn = this.ajv.getSchema(`${this.docId}#${encodePointerForUri(at)}`);
      if (!fn) return undefined;
      this.branchCache.set(at, fn);
    }
    return fn(data) ? 0 : (fn.errors?.length ?? 0);
  }
}

/** The keyword that enforces the record facts a schema names, on every value the schema validates. */
function recordFactsKeyword() {
  const validate = (names: unknown, data: unknown, _parent: unknown, cxt?: { instancePath?: string }): boolean => {
    const problems = recordProblems(Array.isArray(names) ? names : [], data);
    validate.errors = problems.map((p) => ({
      keyword: RECORD_FACTS_KEYWORD,
      instancePath: (cxt?.instancePath ?? '') + p.pointer,
      message: `${p.message} (record fact ${p.fact})`,
      params: { fact: p.fact },
    }));
    return problems.length === 0;
  };
  validate.errors = [] as Array<Partial<ErrorObject>>;
  return { keyword: RECORD_FACTS_KEYWORD, validate, errors: true } as const;
}

// ajv ids are URIs: each pointer token must be percent-encoded where URI syntax needs it ({, }, space ...).
function encodePointerForUri(pointer: string): string {
  return pointer
    .split('/')
    .map((t) => encodeURIComponent(t).replace(/%7E/gi, '~'))
    .join('/');
}

/** The JSON pointer of every object and array of a document, the first path found for each. */
function indexObjects(root: unknown): Map<object, string> {
  const index = new Map<object, string>();
  const walk = (node: unknown, at: string) => {
    if (typeof node !== 'object' || node === null || index.has(node)) return;
    index.set(node, at);
    for (const [k, v] of Object.entries(node)) walk(v, appendPointer(at, k));
  };
  walk(root, '');
  return index;
}

// An unreadable $ref only leaves a union unreduced; it must not break the validation it reports on.
function resolveLocal(root: unknown, ref: string): unknown {
  try {
    return resolvePointer(root, ref);
  } catch {
    return undefined;
  }
}

function toIssues(errors: readonly ErrorObject[], base: string): ValidationIssue[] {
  // The failed `if` of a discriminator's if/then is noise beside the errors of its `then`.
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
  const all = result.unreduced?.length;
  // The count keeps the raw list in sight without listing the branches the value does not take.
  return lines.join('; ') + (all ? ` (${all} schema errors in all, counting every branch of the unions)` : '');
}
