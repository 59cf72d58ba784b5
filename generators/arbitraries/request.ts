// Whole requests for an operation: path and query parameters, headers and body, valid or broken in one
// place. A check sends them and judges the answer against the document.
import fc from 'fast-check';
import type { OperationSpec, ParameterSpec } from '../operation-catalog.ts';
import type { SchemaValidators } from '../schema-validators.ts';
import { invalidValue, malformedJson, type Mutation } from './invalid-value.ts';
import { impliedTypes, mergeAll, resolveRefs } from './schema-walk.ts';
import { validValue, type ValueOptions } from './valid-value.ts';

export interface GeneratedRequest {
  pathParams: Record<string, string>;
  /** Query pairs in order; an array parameter with explode contributes one pair per element. */
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** JSON body value, when the request has one. */
  body?: unknown;
  /** Body text sent as is (malformed JSON), instead of `body`. */
  rawBody?: string;
  contentType?: string;
  /** What was broken, for invalid requests. */
  mutation?: RequestMutation;
}

export interface RequestMutation extends Mutation {
  /** Where the break is: a parameter (by name) or the body. */
  location: 'path' | 'query' | 'header' | 'body';
  parameter?: string;
}

const JSON_TYPES = /^application\/(.+\+)?json$/i;
/** Samples taken to see whether a kind of break can occur at all for an operation. */
const PROBE_RUNS = 30;

function jsonBodyMedia(op: OperationSpec) {
  return op.requestBody?.content.find((m) => JSON_TYPES.test(m.contentType));
}

function paramSchema(validators: SchemaValidators, p: ParameterSpec): unknown {
  const raw = p.schemaPointer ? validators.schemaAt(p.schemaPointer) : {};
  const resolved = resolveRefs(validators.document, raw).schema;
  // A path segment cannot be empty: a valid path parameter has at least one character.
  if (p.in === 'path' && impliedTypes(resolved).includes('string') && typeof resolved.minLength !== 'number') {
    return mergeAll(validators.document, [raw, { minLength: 1 }]);
  }
  // An empty array has no form on the wire: a required array parameter carries at least one element.
  if (p.required && p.in !== 'path' && impliedTypes(resolved).includes('array') && !(Number(resolved.minItems) > 0)) {
    return mergeAll(validators.document, [raw, { minItems: 1 }]);
  }
  return raw;
}

/** How a parameter value travels as text (form style; arrays exploded unless told otherwise). */
export function serialiseParameter(p: ParameterSpec, value: unknown): string[] {
  if (Array.isArray(value)) {
    const parts = value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    return p.explode === false ? [parts.join(',')] : parts;
  }
  if (typeof value === 'string') return [value];
  return [JSON.stringify(value)];
}

const DOT_SEGMENTS = new Set(['.', '..']);

function assemble(values: Map<ParameterSpec, unknown>, body: Partial<GeneratedRequest>): GeneratedRequest {
  const req: GeneratedRequest = { pathParams: {}, query: [], headers: {}, ...body };
  for (const [p, v] of values) {
    if (v === undefined) continue;
    const texts = serialiseParameter(p, v);
    if (p.in === 'path') req.pathParams[p.name] = texts.join(',');
    else if (p.in === 'query') texts.forEach((t) => req.query.push([p.name, t]));
    else if (p.in === 'header') req.headers[p.name] = texts.join(',');
  }
  return req;
}

function parameterValues(op: OperationSpec, validators: SchemaValidators, options: ValueOptions) {
  const params = op.parameters.filter((p) => p.in !== 'cookie');
  const arbs = params.map((p) => {
    const value = validValue(validators.document, paramSchema(validators, p), options);
    // A URL removes "." and ".." segments before sending: such a value would address another route.
    const v = p.in === 'path' ? value.filter((x) => !DOT_SEGMENTS.has(serialiseParameter(p, x).join(','))) : value;
    return p.required ? v : fc.option(v, { nil: undefined });
  });
  return fc.tuple(...arbs).map((vals) => new Map(params.map((p, i) => [p, vals[i]] as const)));
}

/** Requests the document says are valid for this operation. */
export function validRequest(op: OperationSpec, validators: SchemaValidators, options: ValueOptions = {}): fc.Arbitrary<GeneratedRequest> {
  const media = jsonBodyMedia(op);
  const bodyArb: fc.Arbitrary<Partial<GeneratedRequest>> = media
    ? validValue(validators.document, media.schemaPointer ? validators.schemaAt(media.schemaPointer) : {}, options).map((body) => ({
        body,
        contentType: media.contentType,
      }))
    : fc.constant({});
  return fc.tuple(parameterValues(op, validators, options), bodyArb).map(([values, body]) => assemble(values, body));
}

const BODYLESS_METHODS = new Set(['get', 'head', 'delete']);

/**
 * Requests broken in exactly one place (a parameter or the body), or `null` when the operation offers
 * nothing that can be broken (no typed parameter, no body rule).
 */
export function invalidRequest(op: OperationSpec, validators: SchemaValidators, options: ValueOptions = {}): fc.Arbitrary<GeneratedRequest> | null {
  const base = validRequest(op, validators, options);
  const variants: fc.Arbitrary<GeneratedRequest | null>[] = [];

  for (const p of op.parameters.filter((x) => x.in === 'query' || x.in === 'header' || x.in === 'path')) {
    const schema = paramSchema(validators, p);
    if (p.required && p.in !== 'path') {
      variants.push(base.map((r) => withoutParameter(r, p)));
    }
    variants.push(
      fc.tuple(base, invalidValue(validators.document, schema, options)).map(([r, bad]) => {
        if (!bad || bad.value === undefined) return null;
        const texts = serialiseParameter(p, bad.value);
        if (!breakSurvivesWire(validators, p, texts)) return null;
        const broken = withoutParameter(r, p);
        if (p.in === 'path') broken.pathParams[p.name] = texts.join(',');
        else if (p.in === 'query') texts.forEach((t) => broken.query.push([p.name, t]));
        else broken.headers[p.name] = texts.join(',');
        broken.mutation = {
          ...bad.mutation,
          location: p.in as RequestMutation['location'],
          parameter: p.name,
          detail: `${p.in} parameter '${p.name}': ${bad.mutation.detail}`,
        };
        return broken;
      }),
    );
  }

  const media = jsonBodyMedia(op);
  if (media) {
    const schema = media.schemaPointer ? validators.schemaAt(media.schemaPointer) : {};
    // A proxy may drop the body of a GET (RFC 9110 gives it no meaning), so a node that reads a GET without
    // one as the empty request is not refusing invalid input wrongly.
    if (op.requestBody?.required && !BODYLESS_METHODS.has(op.method.toLowerCase())) {
      variants.push(
        base.map((r) => ({
          ...withoutBody(r),
          mutation: { kind: 'missing-required', pointer: '', detail: 'required request body omitted', remove: true, location: 'body' },
        })),
      );
    }
    variants.push(
      fc.tuple(base, invalidValue(validators.document, schema, options)).map(([r, bad]) =>
        bad && bad.value !== undefined
          ? {
              ...r,
              body: bad.value,
              contentType: media.contentType,
              mutation: { ...bad.mutation, location: 'body' as const, detail: `body: ${bad.mutation.detail}` },
            }
          : null,
      ),
    );
    variants.push(
      fc.tuple(base, malformedJson(validValue(validators.document, schema, options))).map(([r, bad]) => ({
        ...withoutBody(r),
        rawBody: bad.text,
        contentType: media.contentType,
        mutation: { ...bad.mutation, location: 'body' as const },
      })),
    );
  }
  // Keep only kinds of break that actually occur for this operation (a string-only path parameter, say,
  // has no break that survives the wire); without this, filtering out nulls could retry forever.
  const productive = variants.filter((v) => fc.sample(v, { numRuns: PROBE_RUNS, seed: 1 }).some((r) => r !== null));
  if (productive.length === 0) return null;
  return fc.oneof(...productive).filter((r): r is GeneratedRequest => r !== null);
}

/**
 * What a server reads from a parameter's wire text: numbers, booleans and array items decoded by the
 * schema's types, anything else left as text.
 */
export function decodeParameter(document: unknown, schema: unknown, texts: string[]): unknown {
  const s = resolveRefs(document, schema).schema;
  const types = impliedTypes(s);
  if (types.includes('array')) return texts.map((t) => decodeScalar(impliedTypes(resolveRefs(document, s.items).schema), t));
  return decodeScalar(types, texts.join(','));
}

function decodeScalar(types: string[], text: string): unknown {
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

// A break only counts if it survives the trip through text: "true" for a string parameter is a string.
function breakSurvivesWire(validators: SchemaValidators, p: ParameterSpec, texts: string[]): boolean {
  if (p.in === 'path' && (texts.join(',') === '' || DOT_SEGMENTS.has(texts.join(',')))) return false; // another route
  if (!p.schemaPointer) return false;
  const decoded = decodeParameter(validators.document, validators.schemaAt(p.schemaPointer), texts);
  return !validators.validate(p.schemaPointer, decoded).valid;
}

function withoutParameter(r: GeneratedRequest, p: ParameterSpec): GeneratedRequest {
  const copy: GeneratedRequest = { ...r, pathParams: { ...r.pathParams }, query: r.query.filter(([n]) => n !== p.name), headers: { ...r.headers } };
  if (p.in === 'path') delete copy.pathParams[p.name];
  if (p.in === 'header') delete copy.headers[p.name];
  copy.mutation = {
    kind: 'missing-required',
    pointer: '',
    detail: `required ${p.in} parameter '${p.name}' omitted`,
    remove: true,
    location: p.in as RequestMutation['location'],
    parameter: p.name,
  };
  return copy;
}

function withoutBody(r: GeneratedRequest): GeneratedRequest {
  const { body: _b, rawBody: _r, contentType: _c, ...rest } = r;
  return rest as GeneratedRequest;
}

/** The request target: full path with path parameters filled in, plus the query string. */
export function requestTarget(op: OperationSpec, req: GeneratedRequest): string {
  const path = op.fullPath.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(req.pathParams[name] ?? ''));
  const qs = req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}
