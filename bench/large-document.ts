/**
 * Deterministic generator of a large synthetic OpenAPI 3.0.3 document shaped like the
 * official ledger JSON API document (~300 KB of JSON, ~250 component schemas, key-wrapped
 * oneOfs, discriminated oneOfs, recursive records). Used as a fixture and benchmark input
 * for the OpenAPI loader/validator compiler.
 *
 * Layout of the output:
 *  - a hand-modelled "core" mirroring the ledger API (commands, events, updates, users,
 *    parties, interactive submission...) so the tricky shapes are always present;
 *  - generated CRUD "families" (a record, its list response and a few request/response
 *    schemas; 2-4 paths each) that scale the document up to the requested schema count;
 *  - a few padding records, so `components.schemas` has exactly `schemas` entries
 *    (unless `schemas` is below the size of the core, which is then the floor).
 *
 * Determinism: all variation comes from one seeded mulberry32 stream consumed in a fixed
 * order; object keys are inserted in a fixed order and component schemas are sorted, so the
 * same options always produce byte-identical JSON.
 *
 * Output is compact JSON (one line): at this size, pretty-printing would make structural
 * whitespace, not descriptions, the bulk of the bytes, unlike the real document.
 *
 * Run directly: `npx tsx bench/large-document.ts [outPath]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LargeDocumentOptions {
  /** Number of entries under components/schemas (default 250; the core alone is the floor). */
  schemas?: number;
  /** PRNG seed (default 20240521). */
  seed?: number;
}

export interface LargeDocumentStats {
  bytes: number;
  schemas: number;
  operations: number;
}

type Json = Record<string, unknown>;
/** [name, schema, required?] — tuples keep the hand-written core compact. */
type Prop = [name: string, schema: Json, required?: boolean];

const DEFAULT_SCHEMAS = 250;
const DEFAULT_SEED = 20240521;
const DEFAULT_OUT = 'test/fixtures/generated/large-ledger-like.json';
const REF_PREFIX = '#/components/schemas/';

// ---------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------

/** mulberry32: tiny, fast, good enough for fixtures, and identical on every platform. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from empty list');
    return item;
  }
  /** Fisher-Yates on a copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------
// Schema atoms. Each call returns a fresh object: the document must be a tree (no shared
// sub-objects, no cycles); recursion only ever goes through `$ref` strings.
// ---------------------------------------------------------------------------------------

const ref = (name: string): Json => ({ $ref: REF_PREFIX + name });
const str = (extra: Json = {}): Json => ({ type: 'string', ...extra });
const i32 = (extra: Json = {}): Json => ({ type: 'integer', format: 'int32', ...extra });
const i64 = (extra: Json = {}): Json => ({ type: 'integer', format: 'int64', ...extra });
const bool = (extra: Json = {}): Json => ({ type: 'boolean', ...extra });
const dbl = (extra: Json = {}): Json => ({ type: 'number', format: 'double', ...extra });
const dateTime = (extra: Json = {}): Json => ({ type: 'string', format: 'date-time', ...extra });
const bytes = (extra: Json = {}): Json => ({ type: 'string', format: 'byte', ...extra });
const arr = (items: Json, extra: Json = {}): Json => ({ type: 'array', items, ...extra });
const strEnum = (values: string[], extra: Json = {}): Json => ({ type: 'string', enum: values, ...extra });
const mapOf = (values: Json): Json => ({ type: 'object', additionalProperties: values });
/** Inline nested object; the caller decides which properties are required. */
const inlineObj = (props: Prop[]): Json => {
  const required = props.filter((p) => p[2]).map((p) => p[0]);
  const properties: Json = {};
  for (const [name, schema] of props) properties[name] = schema;
  return { type: 'object', ...(required.length ? { required } : {}), properties };
};
/** Ledger-style `{value: ...}` holder used inside key-wrapped one-ofs. */
const valueHolder = (inner: Json): Json => ({ type: 'object', required: ['value'], properties: { value: inner } });

const isRef = (s: Json): boolean => typeof s.$ref === 'string';
const isPrimitive = (s: Json): boolean => !isRef(s) && s.type !== 'object' && s.oneOf === undefined && s.allOf === undefined;

function pascal(kebabOrWords: string): string {
  return kebabOrWords
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}
/** English plural of a PascalCase noun: SynchronizerAlias -> SynchronizerAliases, ExternalParty -> ExternalParties. */
function plural(noun: string): string {
  if (/(s|x|sh|ch)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}
function camel(pascalName: string): string {
  return pascalName[0]!.toLowerCase() + pascalName.slice(1);
}
/** 'createdEventBlob' / 'JsTransaction' -> 'created event blob' / 'transaction'. */
function humanize(identifier: string): string {
  return identifier
    .replace(/^Js(?=[A-Z])/, '')
    .replace(/\d+$/, '')
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .trim();
}

// ---------------------------------------------------------------------------------------
// Descriptions: most of the bytes of the real document are prose, so we synthesise
// plausible ledger-speak from templates. {s} = subject (field/schema), {c} = context.
// ---------------------------------------------------------------------------------------

const SENTENCES: readonly string[] = [
  'The {s} as assigned by the participant node when the {c} was accepted.',
  'Must be a valid LedgerString (as described in ``value.proto``).',
  'Optional; if not set, the participant uses the default configured for the {c}.',
  'Only {c} entries visible to at least one of the requesting parties are considered.',
  'The value is opaque to clients and must not be interpreted or modified.',
  'Used to correlate the {s} with the corresponding completion on the command completion stream.',
  'If the {s} is absent, the server returns all matching entries up to the configured page size.',
  'Expressed in microseconds since the Unix epoch, in UTC.',
  'This field is only populated when the request was submitted with verbose mode enabled.',
  'Clients should treat unknown values of the {s} as equivalent to the unspecified value.',
  'Entries are ordered by ascending ledger offset.',
  'Identifies the {c} uniquely across all synchronizers connected to this participant.',
  'Changes to the {s} are subject to the identity provider configuration of the calling user.',
  'Defaults to the participant-wide setting if omitted.',
  'The {s} is recorded on the ledger and cannot be changed after the {c} has been committed.',
  'Requests that specify a {s} outside of the pruned range fail with OFFSET_OUT_OF_RANGE.',
  'When the {c} is deactivated, the {s} is retained for auditing purposes only.',
  'The participant validates the {s} against the package vetting state of the synchronizer.',
  'Applications must not rely on the textual representation of the {s}.',
  'Values larger than the server-side maximum are silently capped.',
  'Required unless the {c} is submitted on behalf of a wildcard party filter.',
  'The {s} is derived deterministically from the {c} contents and the submitting parties.',
  'Set by the ledger; any value supplied by the client is ignored.',
  'A {c} is considered stale once its {s} is older than the configured retention period.',
  'The {s} is propagated to the sequencer and is visible to all stakeholders of the {c}.',
  'In the case of a rejected {c}, the {s} carries the canonical error code and the correlation ID.',
  'This is a participant-local value and is not shared with other participants.',
  'Mirrors the corresponding field of the gRPC Ledger API; see the protobuf documentation for details.',
  'Deprecated: use the {s} of the enclosing {c} instead; retained for backwards compatibility.',
  'The maximum accepted length is 255 characters.',
  'Multiple {c} requests with the same {s} within the deduplication period are rejected as duplicates.',
  'Only meaningful when the {c} was created by an interactive submission.',
];

// ---------------------------------------------------------------------------------------
// Document builder
// ---------------------------------------------------------------------------------------

interface KeyedBranch {
  /** The property name that selects this branch (and the wrapper's title). */
  key: string;
  /** Schema of the key's value: an existing `$ref`, an object (registered as its own schema) or a primitive. */
  body: Json;
  /** Nest the body one level deeper as `{value: body}`, as the ledger does for protobuf oneOfs. */
  wrapValue?: boolean;
}

interface DiscriminatedBranch {
  tag: string;
  name: string;
  props: Prop[];
}

interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Json;
  description?: string;
  style?: string;
  explode?: boolean;
}

interface OperationSpec {
  description: string;
  params?: Param[];
  /** Schema name for an application/json body, or an inline schema with its content type. */
  body?: string | { contentType: string; schema: Json };
  /** Schema name of the 200 response, optionally as a JSON array (stream-as-list endpoints). */
  response: string;
  responseArray?: boolean;
  /** false: public endpoint without security requirement. */
  secured?: boolean;
  extensions?: Json;
}

class DocumentBuilder {
  readonly rng: Rng;
  readonly schemas = new Map<string, Json>();
  readonly paths: Record<string, Record<string, Json>> = {};
  private readonly operationIds = new Set<string>();

  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  // -- prose ------------------------------------------------------------------------------

  describe(subject: string, context: string, min: number, max: number): string {
    const count = this.rng.int(min, max);
    const used = new Set<number>();
    const out: string[] = [];
    while (out.length < count) {
      const idx = this.rng.int(0, SENTENCES.length - 1);
      if (used.has(idx)) continue;
      used.add(idx);
      out.push(SENTENCES[idx]!.replaceAll('{s}', subject).replaceAll('{c}', context));
    }
    const first = out[0];
    if (first !== undefined) out[0] = first[0]!.toUpperCase() + first.slice(1);
    return out.join(' ');
  }

  // -- schema registry --------------------------------------------------------------------

  /** Tapir-style unique naming: `Foo`, then `Foo1`, `Foo2`, ... */
  uniqueName(base: string): string {
    if (!this.schemas.has(base)) return base;
    for (let i = 1; ; i++) if (!this.schemas.has(`${base}${i}`)) return `${base}${i}`;
  }

  add(name: string, schema: Json): string {
    if (this.schemas.has(name)) throw new Error(`duplicate schema ${name}`);
    this.schemas.set(name, schema);
    return name;
  }

  /** Reserve a name now (so wrapper/holder/body get Foo, Foo1, Foo2 in that order), fill later. */
  private reserve(base: string): string {
    return this.add(this.uniqueName(base), {});
  }

  /**
   * Object record with generated descriptions. Properties that are `$ref`s get none, since
   * OpenAPI 3.0 ignores siblings of `$ref`; inline properties get one most of the time.
   */
  obj(context: string, props: Prop[], opts: { description?: string | false; extra?: Json } = {}): Json {
    const schema: Json = { type: 'object' };
    if (opts.description !== false) {
      schema.description = opts.description ?? this.describe(context, context, 2, 3);
    }
    const required = props.filter((p) => p[2]).map((p) => p[0]);
    if (required.length) schema.required = required;
    const properties: Json = {};
    for (const [name, prop] of props) {
      if (!isRef(prop) && prop.description === undefined && this.rng.chance(0.9)) {
        properties[name] = { description: this.describe(humanize(name), context, 1, 2), ...prop };
      } else {
        properties[name] = prop;
      }
    }
    schema.properties = properties;
    return Object.assign(schema, opts.extra ?? {});
  }

  record(name: string, props: Prop[], opts: { description?: string; extra?: Json } = {}): string {
    return this.add(name, this.obj(humanize(name), props, opts));
  }

  /**
   * Ledger-style key-wrapped one-of: `name = oneOf [Key_i]` with each wrapper
   * `{type: object, title: Key, required: [Key], properties: {Key: body}}`. Branches are
   * exclusive because each requires a different key (a value carrying two keys is invalid).
   * Returns the schema names the bodies were registered under, by key.
   */
  keyedOneOf(name: string, branches: KeyedBranch[], description?: string): Record<string, string> {
    this.reserve(name);
    const bodies: Record<string, string> = {};
    const refs: Json[] = [];
    for (const { key, body, wrapValue } of branches) {
      const wrapperName = this.reserve(key);
      const holderName = wrapValue ? this.reserve(key) : undefined;
      let bodySchema: Json;
      if (isRef(body) || isPrimitive(body)) {
        bodySchema = body;
      } else {
        const bodyName = this.reserve(key);
        this.schemas.set(bodyName, { title: key, ...body });
        bodies[key] = bodyName;
        bodySchema = ref(bodyName);
      }
      if (holderName !== undefined) {
        this.schemas.set(holderName, valueHolder(bodySchema));
        bodySchema = ref(holderName);
      }
      this.schemas.set(wrapperName, {
        title: key,
        type: 'object',
        required: [key],
        properties: { [key]: bodySchema },
      });
      refs.push(ref(wrapperName));
    }
    this.schemas.set(name, {
      title: name,
      description: description ?? this.describe(humanize(name), humanize(name), 1, 2),
      oneOf: refs,
    });
    return bodies;
  }

  /** Discriminated one-of: each branch pins `type` to a single enum value. */
  discriminatedOneOf(name: string, branches: DiscriminatedBranch[]): void {
    const mapping: Record<string, string> = {};
    for (const { tag, name: branchName, props } of branches) {
      this.record(branchName, [['type', strEnum([tag]), true], ...props]);
      mapping[tag] = REF_PREFIX + branchName;
    }
    this.add(name, {
      description: this.describe(humanize(name), humanize(name), 1, 2),
      oneOf: branches.map((b) => ref(b.name)),
      discriminator: { propertyName: 'type', mapping },
    });
  }

  // -- operations -------------------------------------------------------------------------

  op(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, spec: OperationSpec): void {
    // Tapir-style operationId: `get /v2/users/{user-id}` -> getV2UsersUser-id
    const opId =
      method +
      path
        .split('/')
        .filter(Boolean)
        .map((seg) => seg.replace(/[{}]/g, ''))
        .map((seg) => seg[0]!.toUpperCase() + seg.slice(1))
        .join('');
    if (this.operationIds.has(opId)) throw new Error(`duplicate operationId ${opId}`);
    this.operationIds.add(opId);

    const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const params: Param[] = [...pathParams.map((p): Param => ({ name: p, in: 'path', required: true, schema: str() })), ...(spec.params ?? [])];
    const invalid = params.map((p) => `Invalid value for: ${p.in} parameter ${p.name}`);
    if (spec.body !== undefined) invalid.push('Invalid value for: body');

    const operation: Json = { description: spec.description, operationId: opId };
    if (params.length) operation.parameters = params.map((p) => ({ ...p }));
    if (spec.body !== undefined) {
      const content =
        typeof spec.body === 'string' ? { 'application/json': { schema: ref(spec.body) } } : { [spec.body.contentType]: { schema: spec.body.schema } };
      operation.requestBody = { content, required: true };
    }
    const ok = spec.responseArray ? arr(ref(spec.response)) : ref(spec.response);
    operation.responses = {
      '200': { description: '', content: { 'application/json': { schema: ok } } },
      '400': {
        description: invalid.length ? invalid.join(', ') : 'Invalid value',
        content: { 'text/plain': { schema: str() } },
      },
      default: { description: '', content: { 'application/json': { schema: ref('JsCantonError') } } },
    };
    if (spec.secured !== false) operation.security = [{ httpAuth: [] }, { apiKeyAuth: [] }];
    Object.assign(operation, spec.extensions ?? {});
    (this.paths[path] ??= {})[method] = operation;
  }
}

// ---------------------------------------------------------------------------------------
// Reusable parameters
// ---------------------------------------------------------------------------------------

const limitParam = (): Param => ({
  name: 'limit',
  in: 'query',
  required: false,
  description: 'Upper bound on the number of returned elements; a value above the server limit has no effect.',
  schema: i64({ minimum: 1 }),
});
const idleTimeoutParam = (): Param => ({
  name: 'stream_idle_timeout_ms',
  in: 'query',
  required: false,
  description: 'Idle time in milliseconds after which an open-ended result is closed and returned.',
  schema: i64({ minimum: 0 }),
});
const partiesParam = (): Param => ({
  name: 'parties',
  in: 'query',
  required: false,
  style: 'form',
  explode: true,
  schema: arr(str()),
});
const stringQuery = (name: string, required = false): Param => ({ name, in: 'query', required, schema: str() });
const pageParams = (): Param[] => [{ name: 'pageSize', in: 'query', required: false, schema: i32({ minimum: 0 }) }, stringQuery('pageToken')];

// ---------------------------------------------------------------------------------------
// Core: hand-modelled ledger API
// ---------------------------------------------------------------------------------------

function buildCore(b: DocumentBuilder): void {
  // -- shared building blocks -------------------------------------------------------------
  b.add('Empty', { type: 'object', description: 'A message with no fields; used as a placeholder in one-of wrappers.' });
  b.add('Map_String_String', { ...mapOf(str()), example: { 'app.example.com/role': 'operator' } });
  b.add('Map_String_Int', mapOf(i32()));
  b.add('Map_String_Long', mapOf(i64()));
  b.add('Map_String_Filters', mapOf(ref('Filters')));
  b.add('Tuple2_String_String', {
    type: 'object',
    required: ['_1', '_2'],
    properties: { _1: str(), _2: str() },
    example: { _1: 'CONTRACT_ID', _2: '00a1b2c3' },
  });
  b.record('ObjectMeta', [
    ['resourceVersion', str()],
    ['annotations', ref('Map_String_String')],
  ]);
  b.record('FieldMask', [['paths', arr(str()), true]]);
  b.record(
    'Duration',
    [
      ['seconds', i64(), true],
      ['nanos', i32({ minimum: 0, maximum: 999999999 }), true],
    ],
    {
      extra: { example: { seconds: 30, nanos: 0 } },
    },
  );
  b.record('TraceContext', [
    ['traceparent', str({ nullable: true })],
    ['tracestate', str({ nullable: true })],
  ]);
  b.record('ProtoAny', [
    ['typeUrl', str(), true],
    ['value', bytes(), true],
  ]);
  b.record('JsStatus', [
    ['code', i32(), true],
    ['message', str(), true],
    ['details', arr(ref('ProtoAny')), true],
  ]);
  b.record(
    'JsCantonError',
    [
      ['code', str(), true],
      ['cause', str(), true],
      ['correlationId', str({ nullable: true })],
      ['traceId', str({ nullable: true })],
      ['context', ref('Map_String_String'), true],
      ['resources', arr(ref('Tuple2_String_String')), true],
      ['errorCategory', i32(), true],
      ['grpcCodeValue', i32({ nullable: true })],
      ['retryInfo', str({ nullable: true })],
      ['definiteAnswer', bool({ nullable: true })],
    ],
    {
      extra: {
        example: {
          code: 'CONTRACT_NOT_FOUND',
          cause: 'Contract could not be found with id 00a1b2c3',
          context: { participant: 'participant1' },
          resources: [{ _1: 'CONTRACT_ID', _2: '00a1b2c3' }],
          errorCategory: 11,
        },
        'x-error-model': 'canton',
      },
    },
  );

  // -- Daml values: a recursive key-wrapped one-of ----------------------------------------
  b.record('RecordField', [
    ['label', str()],
    ['value', ref('DamlValue'), true],
  ]);
  b.record('TextMapEntry', [
    ['key', str(), true],
    ['value', ref('DamlValue'), true],
  ]);
  b.record('GenMapEntry', [
    ['key', ref('DamlValue'), true],
    ['value', ref('DamlValue'), true],
  ]);
  b.keyedOneOf(
    'DamlValue',
    [
      { key: 'Unit', body: ref('Empty') },
      { key: 'Bool', body: bool(), wrapValue: true },
      { key: 'Int64', body: str({ description: 'Decimal representation of a signed 64-bit integer.' }), wrapValue: true },
      { key: 'Text', body: str(), wrapValue: true },
      { key: 'Party', body: str(), wrapValue: true },
      {
        key: 'Record',
        body: b.obj('record', [
          ['recordId', str()],
          ['fields', arr(ref('RecordField')), true],
        ]),
      },
      {
        key: 'Variant',
        body: b.obj('variant', [
          ['variantId', str()],
          ['constructor', str(), true],
          ['value', ref('DamlValue'), true],
        ]),
      },
      { key: 'List', body: b.obj('list', [['elements', arr(ref('DamlValue')), true]]) },
      // `{Optional: {value?: ...}}`: absent value encodes None.
      { key: 'Optional', body: b.obj('optional', [['value', ref('DamlValue')]]) },
      { key: 'TextMap', body: b.obj('text map', [['entries', arr(ref('TextMapEntry')), true]]) },
      { key: 'GenMap', body: b.obj('gen map', [['entries', arr(ref('GenMapEntry')), true]]) },
    ],
    'A Daml-LF value. Exactly one of the keys is present; composite values refer back to DamlValue.',
  );

  // -- commands ---------------------------------------------------------------------------
  b.keyedOneOf('DeduplicationPeriod', [
    { key: 'DeduplicationDuration', body: ref('Duration'), wrapValue: true },
    { key: 'DeduplicationOffset', body: i64(), wrapValue: true },
    { key: 'Empty', body: ref('Empty') },
  ]);
  b.keyedOneOf('Command', [
    {
      key: 'CreateCommand',
      body: b.obj('create command', [
        ['templateId', str(), true],
        ['createArguments', ref('DamlValue'), true],
      ]),
    },
    {
      key: 'ExerciseCommand',
      body: b.obj('exercise command', [
        ['templateId', str(), true],
        ['contractId', str(), true],
        ['choice', str(), true],
        ['choiceArgument', ref('DamlValue'), true],
      ]),
    },
    {
      key: 'ExerciseByKeyCommand',
      body: b.obj('exercise by key command', [
        ['templateId', str(), true],
        ['contractKey', ref('DamlValue'), true],
        ['choice', str(), true],
        ['choiceArgument', ref('DamlValue'), true],
      ]),
    },
    {
      key: 'CreateAndExerciseCommand',
      body: b.obj('create and exercise command', [
        ['templateId', str(), true],
        ['createArguments', ref('DamlValue'), true],
        ['choice', str(), true],
        ['choiceArgument', ref('DamlValue'), true],
      ]),
    },
  ]);
  b.record('DisclosedContract', [
    ['templateId', str()],
    ['contractId', str(), true],
    ['createdEventBlob', bytes(), true],
    ['synchronizerId', str()],
  ]);
  b.record('JsCommands', [
    ['commands', arr(ref('Command')), true],
    ['commandId', str({ minLength: 1 }), true],
    ['actAs', arr(str(), { minItems: 1 }), true],
    ['userId', str()],
    ['readAs', arr(str())],
    ['workflowId', str({ nullable: true })],
    ['deduplicationPeriod', ref('DeduplicationPeriod')],
    ['minLedgerTimeAbs', dateTime({ nullable: true })],
    ['minLedgerTimeRel', ref('Duration')],
    ['submissionId', str({ nullable: true })],
    ['disclosedContracts', arr(ref('DisclosedContract'))],
    ['synchronizerId', str()],
    ['packageIdSelectionPreference', arr(str())],
  ]);
  b.record('SubmitAndWaitResponse', [
    ['updateId', str(), true],
    ['completionOffset', i64(), true],
  ]);
  b.record('SubmitResponse', []);

  // -- filters and formats ----------------------------------------------------------------
  b.keyedOneOf('IdentifierFilter', [
    { key: 'Empty', body: ref('Empty') },
    {
      key: 'InterfaceFilter',
      wrapValue: true,
      body: b.obj('interface filter', [
        ['interfaceId', str(), true],
        ['includeInterfaceView', bool(), true],
        ['includeCreatedEventBlob', bool(), true],
      ]),
    },
    {
      key: 'TemplateFilter',
      wrapValue: true,
      body: b.obj('template filter', [
        ['templateId', str(), true],
        ['includeCreatedEventBlob', bool(), true],
      ]),
    },
    {
      key: 'WildcardFilter',
      wrapValue: true,
      body: b.obj('wildcard filter', [['includeCreatedEventBlob', bool(), true]]),
    },
  ]);
  b.record('CumulativeFilter', [['identifierFilter', ref('IdentifierFilter'), true]]);
  b.record('Filters', [['cumulative', arr(ref('CumulativeFilter')), true]]);
  b.record('EventFormat', [
    ['filtersByParty', ref('Map_String_Filters'), true],
    ['filtersForAnyParty', ref('Filters')],
    ['verbose', bool(), true],
  ]);
  b.record('TransactionFormat', [
    ['eventFormat', ref('EventFormat'), true],
    ['transactionShape', strEnum(['TRANSACTION_SHAPE_UNSPECIFIED', 'TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']), true],
  ]);
  b.record('ParticipantAuthorizationTopologyFormat', [['parties', arr(str()), true]]);
  b.record('TopologyFormat', [['includeParticipantAuthorizationEvents', ref('ParticipantAuthorizationTopologyFormat')]]);
  b.record('UpdateFormat', [
    ['includeTransactions', ref('TransactionFormat')],
    ['includeReassignments', ref('EventFormat')],
    ['includeTopologyEvents', ref('TopologyFormat')],
  ]);

  // -- events -----------------------------------------------------------------------------
  b.record('JsInterfaceView', [
    ['interfaceId', str(), true],
    ['viewStatus', ref('JsStatus'), true],
    ['viewValue', ref('DamlValue')],
  ]);
  const eventCommon = (): Prop[] => [
    ['offset', i64({ minimum: 0 }), true],
    ['nodeId', i32({ minimum: 0 }), true],
    ['contractId', str(), true],
    ['templateId', str(), true],
    ['packageName', str(), true],
  ];
  const events = b.keyedOneOf('Event', [
    {
      key: 'ArchivedEvent',
      body: b.obj('archived event', [...eventCommon(), ['witnessParties', arr(str()), true], ['implementedInterfaces', arr(str())]]),
    },
    {
      key: 'CreatedEvent',
      body: b.obj('created event', [
        ...eventCommon(),
        ['contractKey', ref('DamlValue')],
        ['createArgument', ref('DamlValue')],
        ['createdEventBlob', bytes()],
        ['interfaceViews', arr(ref('JsInterfaceView'))],
        ['witnessParties', arr(str()), true],
        ['signatories', arr(str()), true],
        ['observers', arr(str()), true],
        ['createdAt', dateTime(), true],
        ['acsDelta', bool(), true],
      ]),
    },
    {
      key: 'ExercisedEvent',
      body: b.obj('exercised event', [
        ...eventCommon(),
        ['interfaceId', str({ nullable: true })],
        ['choice', str(), true],
        ['choiceArgument', ref('DamlValue'), true],
        ['actingParties', arr(str()), true],
        ['consuming', bool(), true],
        ['witnessParties', arr(str()), true],
        ['lastDescendantNodeId', i32(), true],
        ['exerciseResult', ref('DamlValue')],
        ['implementedInterfaces', arr(str())],
      ]),
    },
  ]);
  const created = events.CreatedEvent!;
  const archived = events.ArchivedEvent!;
  const exercised = events.ExercisedEvent!;

  b.record(
    'JsTransaction',
    [
      ['updateId', str(), true],
      ['commandId', str(), true],
      ['workflowId', str(), true],
      ['effectiveAt', dateTime(), true],
      ['events', arr(ref('Event')), true],
      ['offset', i64({ minimum: 0 }), true],
      ['synchronizerId', str(), true],
      ['traceContext', ref('TraceContext')],
      ['recordTime', dateTime(), true],
      ['externalTransactionHash', bytes({ nullable: true })],
    ],
    { extra: { 'x-ledger-since': '3.3' } },
  );

  // Recursive record: a tree node whose children are tree nodes.
  b.keyedOneOf('TreeEvent', [
    { key: 'CreatedTreeEvent', body: ref(created), wrapValue: true },
    { key: 'ExercisedTreeEvent', body: ref(exercised), wrapValue: true },
  ]);
  b.record('JsTreeEventNode', [
    ['nodeId', i32({ minimum: 0 }), true],
    ['event', ref('TreeEvent'), true],
    ['children', arr(ref('JsTreeEventNode')), true],
  ]);
  b.record('JsTransactionTree', [
    ['updateId', str(), true],
    ['offset', i64({ minimum: 0 }), true],
    ['effectiveAt', dateTime(), true],
    ['rootNodes', arr(ref('JsTreeEventNode')), true],
    ['synchronizerId', str(), true],
    ['recordTime', dateTime(), true],
  ]);
  // Mutually recursive pair: an exercise node owns its consequences, which hold exercise nodes.
  b.record('JsExerciseNode', [
    ['exercised', ref(exercised), true],
    ['consequences', ref('JsExerciseConsequences')],
  ]);
  b.record('JsExerciseConsequences', [
    ['nodes', arr(ref('JsExerciseNode')), true],
    ['createdContracts', arr(ref(created))],
    ['truncated', bool(), true],
  ]);

  // Discriminated one-ofs (a `type` tag with one enum value per branch).
  const reassignmentCommon = (): Prop[] => [
    ['reassignmentId', str(), true],
    ['source', str(), true],
    ['target', str(), true],
    ['submitter', str({ nullable: true })],
    ['reassignmentCounter', i64({ minimum: 0 }), true],
  ];
  b.discriminatedOneOf('JsReassignmentEvent', [
    {
      tag: 'ASSIGNED',
      name: 'JsAssignmentEvent',
      props: [...reassignmentCommon(), ['createdEvent', ref(created), true]],
    },
    {
      tag: 'UNASSIGNED',
      name: 'JsUnassignedEvent',
      props: [
        ...reassignmentCommon(),
        ['contractId', str(), true],
        ['assignmentExclusivity', dateTime({ nullable: true })],
        ['witnessParties', arr(str()), true],
      ],
    },
  ]);
  b.record('JsReassignment', [
    ['updateId', str(), true],
    ['commandId', str(), true],
    ['workflowId', str(), true],
    ['offset', i64({ minimum: 0 }), true],
    ['events', arr(ref('JsReassignmentEvent')), true],
    ['recordTime', dateTime(), true],
    ['traceContext', ref('TraceContext')],
  ]);
  const permission = (): Json =>
    strEnum([
      'PARTICIPANT_PERMISSION_UNSPECIFIED',
      'PARTICIPANT_PERMISSION_SUBMISSION',
      'PARTICIPANT_PERMISSION_CONFIRMATION',
      'PARTICIPANT_PERMISSION_OBSERVATION',
    ]);
  b.discriminatedOneOf('ParticipantAuthorizationEvent', [
    {
      tag: 'ADDED',
      name: 'ParticipantAuthorizationAdded',
      props: [
        ['partyId', str(), true],
        ['participantId', str(), true],
        ['participantPermission', permission(), true],
      ],
    },
    {
      tag: 'CHANGED',
      name: 'ParticipantAuthorizationChanged',
      props: [
        ['partyId', str(), true],
        ['participantId', str(), true],
        ['participantPermission', permission(), true],
      ],
    },
    {
      tag: 'REVOKED',
      name: 'ParticipantAuthorizationRevoked',
      props: [
        ['partyId', str(), true],
        ['participantId', str(), true],
      ],
    },
  ]);
  b.record('JsTopologyTransaction', [
    ['updateId', str(), true],
    ['offset', i64({ minimum: 0 }), true],
    ['synchronizerId', str(), true],
    ['recordTime', dateTime(), true],
    ['events', arr(ref('ParticipantAuthorizationEvent')), true],
  ]);
  b.record('SynchronizerTime', [
    ['synchronizerId', str(), true],
    ['recordTime', dateTime()],
  ]);
  b.record('OffsetCheckpoint', [
    ['offset', i64({ minimum: 0 }), true],
    ['synchronizerTimes', arr(ref('SynchronizerTime')), true],
  ]);
  b.keyedOneOf('Update', [
    { key: 'OffsetCheckpoint', body: ref('OffsetCheckpoint'), wrapValue: true },
    { key: 'Reassignment', body: ref('JsReassignment'), wrapValue: true },
    { key: 'TopologyTransaction', body: ref('JsTopologyTransaction'), wrapValue: true },
    { key: 'Transaction', body: ref('JsTransaction'), wrapValue: true },
  ]);

  // -- update stream requests (allOf composition) -----------------------------------------
  b.record('UpdateStreamBounds', [
    ['beginExclusive', i64({ minimum: 0 }), true],
    ['endInclusive', i64({ minimum: 0, nullable: true })],
  ]);
  b.add('GetUpdatesRequest', {
    description: b.describe('update stream request', 'update stream', 2, 3),
    allOf: [ref('UpdateStreamBounds'), b.obj('update stream', [['updateFormat', ref('UpdateFormat'), true]], { description: false })],
  });
  b.record('JsGetUpdatesResponse', [['update', ref('Update'), true]]);
  b.record('GetUpdateByIdRequest', [
    ['updateId', str(), true],
    ['updateFormat', ref('UpdateFormat'), true],
  ]);
  b.record('GetUpdateByOffsetRequest', [
    ['offset', i64({ minimum: 1 }), true],
    ['updateFormat', ref('UpdateFormat'), true],
  ]);
  b.record('JsGetUpdateResponse', [['update', ref('Update'), true]]);
  b.record('JsGetTransactionTreeResponse', [['transaction', ref('JsTransactionTree'), true]]);

  // -- completions ------------------------------------------------------------------------
  b.record('CompletionStreamRequest', [
    ['userId', str(), true],
    ['parties', arr(str(), { minItems: 1 }), true],
    ['beginExclusive', i64({ minimum: 0 }), true],
  ]);
  b.record('Completion', [
    ['commandId', str(), true],
    ['status', ref('JsStatus')],
    ['updateId', str(), true],
    ['userId', str(), true],
    ['actAs', arr(str()), true],
    ['submissionId', str(), true],
    ['deduplicationPeriod', ref('DeduplicationPeriod')],
    ['traceContext', ref('TraceContext')],
    ['offset', i64({ minimum: 0 }), true],
    ['synchronizerTime', ref('SynchronizerTime')],
  ]);
  b.keyedOneOf('CompletionResponse', [
    { key: 'Completion', body: ref('Completion'), wrapValue: true },
    { key: 'Empty', body: ref('Empty') },
    { key: 'OffsetCheckpoint', body: ref('OffsetCheckpoint'), wrapValue: true },
  ]);
  b.record('CompletionStreamResponse', [['completionResponse', ref('CompletionResponse'), true]]);

  // -- active contracts and events by contract id -----------------------------------------
  b.record('GetActiveContractsRequest', [
    ['eventFormat', ref('EventFormat')],
    ['activeAtOffset', i64({ minimum: 0 }), true],
    ['verbose', bool({ nullable: true })],
  ]);
  b.keyedOneOf('JsContractEntry', [
    { key: 'JsEmpty', body: ref('Empty') },
    {
      key: 'JsActiveContract',
      body: b.obj('active contract', [
        ['createdEvent', ref(created), true],
        ['synchronizerId', str(), true],
        ['reassignmentCounter', i64({ minimum: 0 }), true],
      ]),
    },
    {
      key: 'JsIncompleteAssigned',
      body: b.obj('incomplete assigned', [['assignedEvent', ref('JsAssignmentEvent'), true]]),
    },
    {
      key: 'JsIncompleteUnassigned',
      body: b.obj('incomplete unassigned', [
        ['createdEvent', ref(created), true],
        ['unassignedEvent', ref('JsUnassignedEvent'), true],
      ]),
    },
  ]);
  b.record('JsGetActiveContractsResponse', [
    ['workflowId', str(), true],
    ['contractEntry', ref('JsContractEntry'), true],
  ]);
  b.record('GetEventsByContractIdRequest', [
    ['contractId', str(), true],
    ['eventFormat', ref('EventFormat'), true],
  ]);
  b.record('JsCreated', [
    ['createdEvent', ref(created), true],
    ['synchronizerId', str(), true],
  ]);
  b.record('JsArchived', [
    ['archivedEvent', ref(archived), true],
    ['synchronizerId', str(), true],
  ]);
  b.record('JsGetEventsByContractIdResponse', [
    ['created', ref('JsCreated')],
    ['archived', ref('JsArchived')],
  ]);

  // -- version ----------------------------------------------------------------------------
  b.record('ExperimentalFeatures', [
    ['staticTime', inlineObj([['supported', bool(), true]])],
    ['commandInspectionService', inlineObj([['supported', bool(), true]])],
  ]);
  // Inline nested objects rather than named schemas: exercises anonymous object compilation.
  b.record('FeaturesDescriptor', [
    ['experimental', ref('ExperimentalFeatures')],
    [
      'userManagement',
      inlineObj([
        ['supported', bool(), true],
        ['maxRightsPerUser', i32({ minimum: 0 }), true],
        ['maxUsersPageSize', i32({ minimum: 0 }), true],
      ]),
    ],
    ['partyManagement', inlineObj([['maxPartiesPageSize', i32({ minimum: 0 }), true]])],
    ['offsetCheckpoint', inlineObj([['maxOffsetCheckpointEmissionDelay', ref('Duration')]])],
    ['pageSizeLimits', ref('Map_String_Int')],
  ]);
  b.record(
    'GetLedgerApiVersionResponse',
    [
      ['version', str(), true],
      ['features', ref('FeaturesDescriptor')],
    ],
    {
      extra: { example: { version: '3.3.0' } },
    },
  );

  // -- packages ---------------------------------------------------------------------------
  b.record('ListPackagesResponse', [['packageIds', arr(str()), true]]);
  b.record('GetPackageResponse', [
    ['hashFunction', strEnum(['HASH_FUNCTION_SHA256']), true],
    ['archivePayload', bytes(), true],
    ['hash', str(), true],
  ]);
  b.record('GetPackageStatusResponse', [['packageStatus', strEnum(['PACKAGE_STATUS_UNSPECIFIED', 'PACKAGE_STATUS_REGISTERED']), true]]);
  b.record('UploadDarFileResponse', []);

  // -- parties ----------------------------------------------------------------------------
  b.record('PartyDetails', [
    ['party', str(), true],
    ['isLocal', bool(), true],
    ['localMetadata', ref('ObjectMeta')],
    ['identityProviderId', str(), true],
  ]);
  b.record('ListKnownPartiesResponse', [
    ['partyDetails', arr(ref('PartyDetails')), true],
    ['nextPageToken', str(), true],
  ]);
  b.record('AllocatePartyRequest', [
    ['partyIdHint', str(), true],
    ['localMetadata', ref('ObjectMeta')],
    ['identityProviderId', str(), true],
    ['synchronizerId', str({ nullable: true })],
    ['userId', str({ nullable: true })],
  ]);
  b.record('AllocatePartyResponse', [['partyDetails', ref('PartyDetails'), true]]);
  b.record('GetPartiesResponse', [['partyDetails', arr(ref('PartyDetails')), true]]);
  b.record('GetParticipantIdResponse', [['participantId', str(), true]]);
  b.record('UpdatePartyDetailsRequest', [
    ['partyDetails', ref('PartyDetails'), true],
    ['updateMask', ref('FieldMask'), true],
  ]);
  b.record('UpdatePartyDetailsResponse', [['partyDetails', ref('PartyDetails'), true]]);

  // -- state ------------------------------------------------------------------------------
  b.record('ConnectedSynchronizer', [
    ['synchronizerAlias', str(), true],
    ['synchronizerId', str(), true],
    ['permission', permission(), true],
  ]);
  b.record('GetConnectedSynchronizersResponse', [['connectedSynchronizers', arr(ref('ConnectedSynchronizer')), true]]);
  b.record('GetLedgerEndResponse', [['offset', i64({ minimum: 0 }), true]]);
  b.record('GetLatestPrunedOffsetsResponse', [
    ['participantPrunedUpToInclusive', i64({ minimum: 0 }), true],
    ['allDivulgedContractsPrunedUpToInclusive', i64({ minimum: 0 }), true],
    ['prunedUpToBySynchronizer', ref('Map_String_Long')],
  ]);

  // -- users and rights -------------------------------------------------------------------
  b.record('User', [
    ['id', str({ minLength: 1, maxLength: 128 }), true],
    ['primaryParty', str({ nullable: true })],
    ['isDeactivated', bool(), true],
    ['metadata', ref('ObjectMeta')],
    ['identityProviderId', str(), true],
  ]);
  const partyRight = (ctx: string): Json => b.obj(ctx, [['party', str(), true]]);
  b.keyedOneOf('Kind', [
    { key: 'CanActAs', body: partyRight('can act as'), wrapValue: true },
    { key: 'CanReadAs', body: partyRight('can read as'), wrapValue: true },
    { key: 'CanReadAsAnyParty', body: ref('Empty'), wrapValue: true },
    { key: 'Empty', body: ref('Empty') },
    { key: 'ParticipantAdmin', body: ref('Empty'), wrapValue: true },
  ]);
  b.record('Right', [['kind', ref('Kind'), true]]);
  b.record('CreateUserRequest', [
    ['user', ref('User'), true],
    ['rights', arr(ref('Right')), true],
  ]);
  b.record('CreateUserResponse', [['user', ref('User'), true]]);
  b.record('GetUserResponse', [['user', ref('User'), true]]);
  b.record('ListUsersResponse', [
    ['users', arr(ref('User')), true],
    ['nextPageToken', str(), true],
  ]);
  b.record('UpdateUserRequest', [
    ['user', ref('User'), true],
    ['updateMask', ref('FieldMask'), true],
  ]);
  b.record('UpdateUserResponse', [['user', ref('User'), true]]);
  b.record('DeleteUserResponse', []);
  b.record('ListUserRightsResponse', [['rights', arr(ref('Right')), true]]);
  b.record('GrantUserRightsRequest', [
    ['userId', str(), true],
    ['rights', arr(ref('Right')), true],
    ['identityProviderId', str(), true],
  ]);
  b.record('GrantUserRightsResponse', [['newlyGrantedRights', arr(ref('Right')), true]]);
  b.record('RevokeUserRightsRequest', [
    ['userId', str(), true],
    ['rights', arr(ref('Right')), true],
    ['identityProviderId', str(), true],
  ]);
  b.record('RevokeUserRightsResponse', [['newlyRevokedRights', arr(ref('Right')), true]]);

  // -- interactive submission -------------------------------------------------------------
  const hashingScheme = (): Json => strEnum(['HASHING_SCHEME_VERSION_UNSPECIFIED', 'HASHING_SCHEME_VERSION_V2']);
  b.record('JsPrepareSubmissionRequest', [
    ['userId', str(), true],
    ['commandId', str(), true],
    ['commands', arr(ref('Command')), true],
    ['minLedgerTimeAbs', dateTime({ nullable: true })],
    ['minLedgerTimeRel', ref('Duration')],
    ['actAs', arr(str(), { minItems: 1 }), true],
    ['readAs', arr(str()), true],
    ['disclosedContracts', arr(ref('DisclosedContract')), true],
    ['synchronizerId', str(), true],
    ['packageIdSelectionPreference', arr(str()), true],
    ['verboseHashing', bool(), true],
  ]);
  b.record('JsPrepareSubmissionResponse', [
    ['preparedTransaction', bytes({ nullable: true })],
    ['preparedTransactionHash', bytes(), true],
    ['hashingSchemeVersion', hashingScheme(), true],
    ['hashingDetails', str({ nullable: true })],
  ]);
  b.record('Signature', [
    ['format', strEnum(['SIGNATURE_FORMAT_UNSPECIFIED', 'SIGNATURE_FORMAT_RAW', 'SIGNATURE_FORMAT_DER', 'SIGNATURE_FORMAT_CONCAT']), true],
    ['signature', bytes(), true],
    ['signedBy', str(), true],
    ['signingAlgorithmSpec', strEnum(['SIGNING_ALGORITHM_SPEC_UNSPECIFIED', 'SIGNING_ALGORITHM_SPEC_ED25519', 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256']), true],
  ]);
  b.record('SinglePartySignatures', [
    ['party', str(), true],
    ['signatures', arr(ref('Signature'), { minItems: 1 }), true],
  ]);
  b.record('PartySignatures', [['signatures', arr(ref('SinglePartySignatures')), true]]);
  b.record('JsExecuteSubmissionRequest', [
    ['preparedTransaction', bytes(), true],
    ['partySignatures', ref('PartySignatures'), true],
    ['deduplicationPeriod', ref('DeduplicationPeriod'), true],
    ['submissionId', str(), true],
    ['userId', str(), true],
    ['hashingSchemeVersion', hashingScheme(), true],
  ]);
  b.record('ExecuteSubmissionResponse', []);
  b.record('PackageReference', [
    ['packageId', str(), true],
    ['packageName', str(), true],
    ['packageVersion', str(), true],
  ]);
  b.record('PackagePreference', [
    ['packageReference', ref('PackageReference'), true],
    ['synchronizerId', str(), true],
  ]);
  b.record('GetPreferredPackageVersionResponse', [['packagePreference', ref('PackagePreference')]]);
  b.record('JsSubmitAndWaitForTransactionRequest', [
    ['commands', ref('JsCommands'), true],
    ['transactionFormat', ref('TransactionFormat')],
  ]);
  b.record('JsSubmitAndWaitForTransactionResponse', [['transaction', ref('JsTransaction'), true]]);

  buildCorePaths(b);
}

function buildCorePaths(b: DocumentBuilder): void {
  const d = (topic: string): string => b.describe(topic, topic, 1, 2);
  const octet = () => ({ contentType: 'application/octet-stream', schema: str({ format: 'binary' }) });
  const streamParams = (): Param[] => [limitParam(), idleTimeoutParam()];

  b.op('post', '/v2/commands/submit-and-wait', { description: d('command submission'), body: 'JsCommands', response: 'SubmitAndWaitResponse' });
  b.op('post', '/v2/commands/submit-and-wait-for-transaction', {
    description: d('command submission'),
    body: 'JsSubmitAndWaitForTransactionRequest',
    response: 'JsSubmitAndWaitForTransactionResponse',
  });
  b.op('post', '/v2/commands/async/submit', { description: d('command submission'), body: 'JsCommands', response: 'SubmitResponse' });
  b.op('post', '/v2/commands/completions', {
    description: d('completion stream'),
    params: streamParams(),
    body: 'CompletionStreamRequest',
    response: 'CompletionStreamResponse',
    responseArray: true,
    extensions: { 'x-streaming': 'websocket' },
  });
  b.op('post', '/v2/events/events-by-contract-id', {
    description: d('event query'),
    body: 'GetEventsByContractIdRequest',
    response: 'JsGetEventsByContractIdResponse',
  });
  b.op('get', '/v2/version', {
    description: 'Read the Ledger API version and the features it supports.',
    response: 'GetLedgerApiVersionResponse',
    secured: false,
  });
  b.op('post', '/v2/dars/validate', { description: d('DAR validation'), body: octet(), response: 'UploadDarFileResponse' });
  b.op('post', '/v2/dars', {
    description: d('DAR upload'),
    params: [{ name: 'vetAllPackages', in: 'query', required: false, schema: bool() }, stringQuery('synchronizerId')],
    body: octet(),
    response: 'UploadDarFileResponse',
  });
  b.op('get', '/v2/packages', { description: d('package listing'), response: 'ListPackagesResponse' });
  b.op('post', '/v2/packages', { description: d('package upload'), body: octet(), response: 'UploadDarFileResponse' });
  b.op('get', '/v2/packages/{package-id}', { description: d('package download'), response: 'GetPackageResponse' });
  b.op('get', '/v2/packages/{package-id}/status', { description: d('package status'), response: 'GetPackageStatusResponse' });
  b.op('get', '/v2/parties', {
    description: d('party listing'),
    params: [stringQuery('identity-provider-id'), stringQuery('filter-party'), ...pageParams()],
    response: 'ListKnownPartiesResponse',
  });
  b.op('post', '/v2/parties', { description: d('party allocation'), body: 'AllocatePartyRequest', response: 'AllocatePartyResponse' });
  b.op('get', '/v2/parties/participant-id', { description: d('participant'), response: 'GetParticipantIdResponse' });
  b.op('get', '/v2/parties/{party}', {
    description: d('party details'),
    params: [stringQuery('identity-provider-id'), partiesParam()],
    response: 'GetPartiesResponse',
  });
  b.op('patch', '/v2/parties/{party}', {
    description: d('party details'),
    body: 'UpdatePartyDetailsRequest',
    response: 'UpdatePartyDetailsResponse',
  });
  b.op('post', '/v2/state/active-contracts', {
    description: d('active contract set'),
    params: streamParams(),
    body: 'GetActiveContractsRequest',
    response: 'JsGetActiveContractsResponse',
    responseArray: true,
    extensions: { 'x-streaming': 'websocket' },
  });
  b.op('get', '/v2/state/connected-synchronizers', {
    description: d('synchronizer connection'),
    params: [stringQuery('party'), stringQuery('participantId'), stringQuery('identityProviderId')],
    response: 'GetConnectedSynchronizersResponse',
  });
  b.op('get', '/v2/state/ledger-end', { description: d('ledger end'), response: 'GetLedgerEndResponse' });
  b.op('get', '/v2/state/latest-pruned-offsets', { description: d('pruning'), response: 'GetLatestPrunedOffsetsResponse' });
  b.op('post', '/v2/updates', {
    description: d('update stream'),
    params: streamParams(),
    body: 'GetUpdatesRequest',
    response: 'JsGetUpdatesResponse',
    responseArray: true,
    extensions: { 'x-streaming': 'websocket' },
  });
  b.op('post', '/v2/updates/update-by-offset', { description: d('update lookup'), body: 'GetUpdateByOffsetRequest', response: 'JsGetUpdateResponse' });
  b.op('post', '/v2/updates/update-by-id', { description: d('update lookup'), body: 'GetUpdateByIdRequest', response: 'JsGetUpdateResponse' });
  b.op('get', '/v2/updates/transaction-tree-by-id/{update-id}', {
    description: d('transaction tree'),
    params: [partiesParam()],
    response: 'JsGetTransactionTreeResponse',
    extensions: { 'x-deprecated-since': '3.3' },
  });
  b.op('get', '/v2/users', { description: d('user listing'), params: pageParams(), response: 'ListUsersResponse' });
  b.op('post', '/v2/users', { description: d('user creation'), body: 'CreateUserRequest', response: 'CreateUserResponse' });
  b.op('get', '/v2/users/{user-id}', {
    description: d('user'),
    params: [stringQuery('identity-provider-id')],
    response: 'GetUserResponse',
  });
  b.op('patch', '/v2/users/{user-id}', { description: d('user'), body: 'UpdateUserRequest', response: 'UpdateUserResponse' });
  b.op('delete', '/v2/users/{user-id}', { description: d('user'), response: 'DeleteUserResponse' });
  b.op('get', '/v2/users/{user-id}/rights', { description: d('user right'), response: 'ListUserRightsResponse' });
  b.op('post', '/v2/users/{user-id}/rights', { description: d('user right'), body: 'GrantUserRightsRequest', response: 'GrantUserRightsResponse' });
  b.op('patch', '/v2/users/{user-id}/rights', { description: d('user right'), body: 'RevokeUserRightsRequest', response: 'RevokeUserRightsResponse' });
  b.op('get', '/v2/authenticated-user', {
    description: d('authenticated user'),
    params: [stringQuery('identity-provider-id')],
    response: 'GetUserResponse',
  });
  b.op('patch', '/v2/users/{user-id}/identity-provider-id', {
    description: d('identity provider assignment'),
    body: 'UpdateUserRequest',
    response: 'UpdateUserResponse',
  });
  b.op('post', '/v2/parties/external/allocate', {
    description: d('external party allocation'),
    body: 'AllocatePartyRequest',
    response: 'AllocatePartyResponse',
    extensions: { 'x-ledger-since': '3.3' },
  });
  // Deprecated stream aliases kept by the ledger for older clients.
  for (const shape of ['flats', 'trees']) {
    b.op('post', `/v2/updates/${shape}`, {
      description: `${d('update stream')} Deprecated: use /v2/updates.`,
      params: streamParams(),
      body: 'GetUpdatesRequest',
      response: 'JsGetUpdatesResponse',
      responseArray: true,
      extensions: { 'x-deprecated-since': '3.3', 'x-streaming': 'websocket' },
    });
  }
  b.op('get', '/v2/updates/transaction-tree-by-offset/{offset}', {
    description: d('transaction tree'),
    params: [partiesParam()],
    response: 'JsGetTransactionTreeResponse',
    extensions: { 'x-deprecated-since': '3.3' },
  });
  b.op('get', '/v2/state/ledger-end/{synchronizer-id}', { description: d('ledger end'), response: 'GetLedgerEndResponse' });
  for (const probe of ['livez', 'readyz']) {
    b.op('get', `/${probe}`, { description: `Health probe (${probe}); no authentication required.`, response: 'Empty', secured: false });
  }
  b.op('post', '/v2/interactive-submission/prepare', {
    description: d('interactive submission'),
    body: 'JsPrepareSubmissionRequest',
    response: 'JsPrepareSubmissionResponse',
  });
  b.op('post', '/v2/interactive-submission/execute', {
    description: d('interactive submission'),
    body: 'JsExecuteSubmissionRequest',
    response: 'ExecuteSubmissionResponse',
  });
  b.op('get', '/v2/interactive-submission/preferred-package-version', {
    description: d('package preference'),
    params: [
      partiesParam(),
      stringQuery('package-name', true),
      { name: 'vetting_valid_at', in: 'query', required: false, schema: dateTime() },
      stringQuery('synchronizer-id'),
    ],
    response: 'GetPreferredPackageVersionResponse',
  });
}

// ---------------------------------------------------------------------------------------
// Generated CRUD families
// ---------------------------------------------------------------------------------------

/** [singular words, plural path segment, id parameter] */
const RESOURCES: ReadonlyArray<[string, string, string]> = [
  ['identity provider config', 'idps', 'idp-id'],
  ['synchronizer alias', 'synchronizer-aliases', 'alias'],
  ['traffic control state', 'traffic-control-states', 'member-id'],
  ['participant permission', 'participant-permissions', 'permission-id'],
  ['package vetting', 'package-vettings', 'vetting-id'],
  ['topology proposal', 'topology-proposals', 'proposal-hash'],
  ['sequencer connection', 'sequencer-connections', 'connection-id'],
  ['mediator group', 'mediator-groups', 'group-id'],
  ['pruning schedule', 'pruning-schedules', 'schedule-id'],
  ['commitment period', 'commitment-periods', 'period-id'],
  ['repair request', 'repair-requests', 'request-id'],
  ['metering report', 'metering-reports', 'report-id'],
  ['command inspection', 'command-inspections', 'command-id'],
  ['key rotation', 'key-rotations', 'rotation-id'],
  ['namespace delegation', 'namespace-delegations', 'delegation-id'],
  ['external party', 'external-parties', 'party-id'],
  ['signing key', 'signing-keys', 'fingerprint'],
  ['party replication', 'party-replications', 'replication-id'],
  ['contract import', 'contract-imports', 'import-id'],
  ['contract export', 'contract-exports', 'export-id'],
  ['submission template', 'submission-templates', 'template-key'],
  ['transfer preapproval', 'transfer-preapprovals', 'preapproval-id'],
  ['validator license', 'validator-licenses', 'license-id'],
  ['featured app right', 'featured-app-rights', 'right-id'],
  ['app reward coupon', 'app-reward-coupons', 'coupon-id'],
  ['traffic purchase', 'traffic-purchases', 'purchase-id'],
  ['amulet rule', 'amulet-rules', 'rule-id'],
  ['dso delegate', 'dso-delegates', 'delegate-id'],
  ['wallet install', 'wallet-installs', 'install-id'],
];
const ACTION_VERBS: readonly string[] = ['activate', 'suspend', 'approve', 'reject', 'renew', 'reconcile', 'archive', 'refresh'];
const STATUS_VALUES: readonly string[] = ['UNSPECIFIED', 'PENDING', 'ACTIVE', 'SUSPENDED', 'REVOKED', 'EXPIRED'];

/** A field factory for family records; fresh objects every call. */
type FieldFactory = (prefix: string, rng: Rng) => [string, Json];

const FIELD_POOL: readonly FieldFactory[] = [
  () => ['displayName', str({ maxLength: 255 })],
  () => ['createdAt', dateTime()],
  () => ['updatedAt', dateTime({ nullable: true })],
  () => ['expiresAt', dateTime({ nullable: true })],
  () => ['revision', i64({ minimum: 0 })],
  () => ['priority', i32({ minimum: 0, maximum: 100 })],
  () => ['threshold', i32({ minimum: 1 })],
  () => ['isDeactivated', bool()],
  () => ['autoRenew', bool({ nullable: true })],
  () => ['weight', dbl({ minimum: 0 })],
  () => ['utilisationRatio', dbl({ minimum: 0, maximum: 1 })],
  () => ['fingerprint', bytes()],
  () => ['payload', bytes({ nullable: true })],
  (prefix) => ['status', strEnum(STATUS_VALUES.map((s) => `${prefix}_STATUS_${s}`))],
  (prefix, rng) => ['mode', strEnum(rng.shuffle(['AUTOMATIC', 'MANUAL', 'DISABLED']).map((s) => `${prefix}_MODE_${s}`))],
  () => ['labels', ref('Map_String_String')],
  () => ['counters', ref('Map_String_Long')],
  () => ['quotas', ref('Map_String_Int')],
  () => ['tags', arr(str(), { uniqueItems: true })],
  () => ['stakeholders', arr(str(), { minItems: 1 })],
  () => ['observers', arr(str())],
  () => ['metadata', ref('ObjectMeta')],
  () => ['retention', ref('Duration')],
  () => ['owner', str({ nullable: true })],
  () => ['synchronizerId', str()],
  () => ['participantId', str()],
  () => ['lastOffset', i64({ minimum: 0 })],
  () => ['traceContext', ref('TraceContext')],
  () => ['lastError', ref('JsStatus')],
  () => [
    'limits',
    inlineObj([
      ['maxRequests', i32({ minimum: 0 }), true],
      ['burst', i32({ minimum: 0 })],
      ['windowMs', i64({ minimum: 1 }), true],
    ]),
  ],
  () => [
    'attributes',
    mapOf(
      inlineObj([
        ['value', str(), true],
        ['since', dateTime()],
        ['verified', bool()],
      ]),
    ),
  ],
  () => [
    'history',
    arr(
      inlineObj([
        ['at', dateTime(), true],
        ['actor', str(), true],
        ['note', str({ nullable: true })],
      ]),
    ),
  ],
  () => ['amount', str({ description: 'Decimal amount encoded as a string to avoid loss of precision.' })],
  () => ['sequence', i64()],
];

interface Family {
  name: string; // PascalCase singular, e.g. SynchronizerAlias
  record: string; // schema name of the record
}

/**
 * One CRUD family: 2-5 schemas, 2-4 paths, 3-7 operations. Families are deliberately
 * schema-lean (bodies and responses mostly reuse the record) so that the default document
 * gets the ledger's ratio of ~250 schemas to ~130 operations. Returns the family so padding
 * schemas can be attached to its record later.
 */
function buildFamily(b: DocumentBuilder, index: number): Family {
  const base = RESOURCES[index % RESOURCES.length]!;
  const round = Math.floor(index / RESOURCES.length);
  // Past the end of the list, reuse nouns with a numeric suffix (only for very large `schemas`).
  const suffix = round ? String(round + 1) : '';
  const name = pascal(base[0]) + suffix;
  const names = plural(pascal(base[0])) + suffix;
  const segment = base[1] + (round ? `-v${round + 1}` : '');
  const idParam = base[2];
  const words = humanize(name);
  const prop = camel(name);
  const enumPrefix = words.replace(/\s+/g, '_').toUpperCase();
  const rng = b.rng;

  const fields: Prop[] = [[`${prop}Id`, str({ minLength: 1 }), true]];
  for (const factory of rng.shuffle(FIELD_POOL).slice(0, rng.int(6, 11))) {
    const [fieldName, schema] = factory(enumPrefix, rng);
    // nullable fields are always optional, as in the ledger document
    fields.push([fieldName, schema, schema.nullable !== true && rng.chance(0.45)]);
  }
  const extra: Json = {};
  if (rng.chance(0.25)) extra['x-ledger-since'] = rng.pick(['3.1', '3.2', '3.3']);
  if (rng.chance(0.15)) extra['x-stability'] = rng.pick(['alpha', 'beta']);
  const record = b.record(name, fields, { description: b.describe(words, words, 2, 4), extra });
  const list = b.record(`List${names}Response`, [
    [camel(names), arr(ref(record)), true],
    ['nextPageToken', str(), true],
    ['totalSize', i64({ minimum: 0, nullable: true })],
  ]);

  const collection = `/v2/${segment}`;
  const item = `${collection}/{${idParam}}`;
  const desc = (verb: string): string => `${verb} ${words}. ${b.describe(words, words, 1, 2)}`;
  b.op('get', collection, {
    description: desc('List'),
    params: [
      ...pageParams(),
      ...(rng.chance(0.5) ? [partiesParam()] : []),
      ...(rng.chance(0.5) ? [{ name: 'order', in: 'query' as const, required: false, schema: strEnum(['ASC', 'DESC'], { default: 'ASC' }) }] : []),
      ...(rng.chance(0.4) ? [stringQuery('identity-provider-id')] : []),
    ],
    response: list,
  });
  const createBody = rng.chance(0.2)
    ? b.record(`Create${name}Request`, [
        [prop, ref(record), true],
        ['requestId', str({ nullable: true })],
        ['dryRun', bool()],
      ])
    : record;
  b.op('post', collection, { description: desc('Create'), body: createBody, response: record });
  b.op('get', item, {
    description: desc('Get'),
    params: rng.chance(0.5) ? [{ name: 'verbose', in: 'query', required: false, schema: bool() }] : [],
    response: record,
  });
  if (rng.chance(0.6)) {
    // allOf: some update responses are the record plus the new revision.
    const updateResponse = rng.chance(0.3)
      ? b.add(`Update${name}Response`, {
          description: b.describe(`updated ${words}`, words, 1, 2),
          allOf: [ref(record), inlineObj([['newRevision', i64({ minimum: 0 }), true]])],
        })
      : record;
    b.op('patch', item, { description: desc('Update'), body: record, response: updateResponse });
  }
  if (rng.chance(0.5)) {
    b.op('delete', item, { description: desc('Delete'), response: 'Empty', extensions: { 'x-idempotent': true } });
  }
  if (rng.chance(0.6)) {
    const verb = rng.pick(ACTION_VERBS);
    const Verb = pascal(verb);
    // Half of the actions take no body at all (a bare POST), like many ledger admin endpoints.
    const body = rng.chance(0.5)
      ? b.record(`${Verb}${name}Request`, [
          ['reason', str({ maxLength: 1024 })],
          ['effectiveAt', dateTime({ nullable: true })],
          ['force', bool()],
        ])
      : undefined;
    b.op('post', `${item}/${verb}`, {
      description: desc(Verb),
      ...(body !== undefined ? { body } : {}),
      response: record,
      extensions: rng.chance(0.5) ? { 'x-rate-limit': rng.pick([10, 50, 100]) } : {},
    });
  }
  if (rng.chance(0.5)) {
    b.op('get', `${item}/history`, {
      description: desc('Read the history of'),
      params: [
        { name: 'begin-exclusive', in: 'query', required: false, schema: i64({ minimum: 0 }) },
        { name: 'end-inclusive', in: 'query', required: false, schema: i64({ minimum: 0 }) },
        limitParam(),
      ],
      response: list,
    });
  }
  return { name, record };
}

/** Max schemas a single family can add (record, list, create, update, action). */
const MAX_FAMILY_SCHEMAS = 5;

/** Padding record attached to a family record as an optional property, so nothing is orphaned. */
function addPadding(b: DocumentBuilder, family: Family, n: number): void {
  const name = b.uniqueName(`${family.name}Annotation`);
  b.record(name, [
    ['key', str(), true],
    ['value', str(), true],
    ['source', strEnum(['USER', 'SYSTEM'])],
    ['recordedAt', dateTime()],
  ]);
  const target = b.schemas.get(family.record)!;
  (target.properties as Json)[`annotation${n}`] = ref(name);
}

// ---------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------

export function makeLargeDocument(options: LargeDocumentOptions = {}): Record<string, unknown> {
  const target = options.schemas ?? DEFAULT_SCHEMAS;
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(target) || target < 0) throw new Error(`schemas must be a non-negative integer, got ${target}`);
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);

  const b = new DocumentBuilder(seed);
  buildCore(b);

  const families: Family[] = [];
  while (b.schemas.size + MAX_FAMILY_SCHEMAS <= target) families.push(buildFamily(b, families.length));
  // Top up to the exact count; with no family yet, a core record hosts the padding.
  const hosts = families.length ? families : [{ name: 'PartyDetails', record: 'PartyDetails' }];
  for (let n = 0; b.schemas.size < target; n++) addPadding(b, hosts[n % hosts.length]!, n);

  // Sorted like the real document (and so diffs between seeds stay readable).
  const schemas: Json = {};
  for (const name of [...b.schemas.keys()].sort()) schemas[name] = b.schemas.get(name);

  return {
    openapi: '3.0.3',
    info: {
      title: 'JSON Ledger API HTTP endpoints (synthetic)',
      version: '3.3.0-synthetic',
      description:
        'Synthetic document generated by bench/large-document.ts with the size and shape of the ledger JSON API ' +
        `document (seed ${seed}). Not a real API description: use it as a loader/validator fixture and benchmark input.`,
    },
    servers: [{ url: 'http://localhost:7575' }],
    paths: b.paths,
    components: {
      schemas,
      securitySchemes: {
        httpAuth: { type: 'http', description: 'Bearer JWT in the Authorization header.', scheme: 'bearer' },
        apiKeyAuth: {
          type: 'apiKey',
          description: 'Bearer JWT carried in a header (used by the WebSocket variant).',
          name: 'Sec-WebSocket-Protocol',
          in: 'header',
        },
      },
    },
  };
}

/** Counts from a built document (so the numbers always describe what was written). */
function countOperations(doc: Record<string, unknown>): number {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
  let count = 0;
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    count += Object.keys(item).filter((k) => methods.has(k)).length;
  }
  return count;
}

export function writeLargeDocument(path: string, options: LargeDocumentOptions = {}): LargeDocumentStats {
  const doc = makeLargeDocument(options);
  const json = JSON.stringify(doc) + '\n';
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, json);
  const components = doc.components as { schemas: Json };
  return {
    bytes: Buffer.byteLength(json),
    schemas: Object.keys(components.schemas).length,
    operations: countOperations(doc),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2] ?? DEFAULT_OUT;
  const stats = writeLargeDocument(out);
  console.log(`${out}: bytes=${stats.bytes} schemas=${stats.schemas} operations=${stats.operations}`);
}
