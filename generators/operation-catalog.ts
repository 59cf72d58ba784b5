// The operations of a loaded document as plain records: what a check needs to build a request and judge
// the response, with every non-schema $ref (parameters, bodies, responses) already followed.
import type { LoadedDocument, OpenApiDocument } from './load-document.ts';
import { appendPointer, isObject, resolvePointer } from '../common/json.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  deprecated: boolean;
  style?: string;
  explode?: boolean;
  /** Pointer of the parameter's schema in the document (absent when it has none). */
  schemaPointer?: string;
}

export interface MediaTypeSpec {
  contentType: string;
  /** Pointer of the schema in the document; absent when the media type declares none (anything goes). */
  schemaPointer?: string;
  /** Examples given in the document: media-type `example` and every `examples.*.value`. */
  examples: Array<{ name: string; value: unknown }>;
}

export interface ResponseSpec {
  /** "200", "4XX" or "default", as written in the document. */
  status: string;
  description: string;
  content: MediaTypeSpec[];
}

export interface OperationSpec {
  /** operationId, or "METHOD path" when the document gives none. */
  id: string;
  method: HttpMethod;
  /** Path as written in the document, e.g. "/v0/events/{update_id}". */
  path: string;
  /** Path prefix taken from the first server url (e.g. "/api/scan"); "" when there is none. */
  serverPrefix: string;
  /** serverPrefix + path. */
  fullPath: string;
  pointer: string;
  summary?: string;
  tags: string[];
  deprecated: boolean;
  parameters: ParameterSpec[];
  requestBody?: { required: boolean; content: MediaTypeSpec[] };
  /** Alternatives: a request must satisfy one entry (all schemes named in it). `[]` = no credentials needed. */
  security: Array<Record<string, string[]>>;
  /** True when one alternative is the empty requirement `{}`: credentials accepted but not required. */
  authOptional: boolean;
  responses: ResponseSpec[];
  /** Vendor extensions of the operation (x-...). */
  extensions: Record<string, unknown>;
}

export interface OperationCatalog {
  document: string;
  operations: OperationSpec[];
  byId: Map<string, OperationSpec>;
}

export function buildCatalog(loaded: LoadedDocument): OperationCatalog {
  const doc = loaded.document;
  const prefix = serverPathPrefix(doc);
  const operations: OperationSpec[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const itemPtr = appendPointer('', 'paths', path);
    const { value: item, pointer: itemBase } = follow(doc, rawItem, itemPtr);
    if (!isObject(item)) continue;
    const shared = parameters(doc, item.parameters, appendPointer(itemBase, 'parameters'));
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const opPtr = appendPointer(itemBase, method);
      const own = parameters(doc, op.parameters, appendPointer(opPtr, 'parameters'));
      // Operation-level parameters override path-level ones with the same name and location.
      const merged = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const security = (op.security ?? doc.security ?? []) as Array<Record<string, string[]>>;
      operations.push({
        id: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`,
        method,
        path,
        serverPrefix: prefix,
        fullPath: prefix + path,
        pointer: opPtr,
        summary: typeof op.summary === 'string' ? op.summary : undefined,
        tags: Array.isArray(op.tags) ? (op.tags as string[]) : [],
        deprecated: op.deprecated === true,
        parameters: merged,
        requestBody: requestBody(doc, op.requestBody, appendPointer(opPtr, 'requestBody')),
        security,
        authOptional: security.some((s) => Object.keys(s).length === 0),
        responses: responses(doc, op.responses, appendPointer(opPtr, 'responses')),
        extensions: Object.fromEntries(Object.entries(op).filter(([k]) => k.startsWith('x-'))),
      });
    }
  }
  return { document: loaded.name, operations, byId: new Map(operations.map((o) => [o.id, o])) };
}

/** Follows a chain of `$ref`s to the object it names, keeping the pointer of where it really lives. */
function follow(doc: OpenApiDocument, value: unknown, ptr: string): { value: unknown; pointer: string } {
  let current = value;
  let at = ptr;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 32 || !current.$ref.startsWith('#')) throw new Error(`cannot follow $ref ${current.$ref} at #${at}`);
    at = current.$ref.slice(1);
    current = resolvePointer(doc, at);
  }
  return { value: current, pointer: at };
}

function parameters(doc: OpenApiDocument, list: unknown, ptr: string): ParameterSpec[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw, i) => {
    const { value: p, pointer } = follow(doc, raw, appendPointer(ptr, i));
    if (!isObject(p) || typeof p.name !== 'string') return [];
    let schemaPointer: string | undefined;
    if (p.schema !== undefined) schemaPointer = appendPointer(pointer, 'schema');
    else if (isObject(p.content)) {
      const mt = Object.keys(p.content)[0];
      if (mt !== undefined) schemaPointer = appendPointer(pointer, 'content', mt, 'schema');
    }
    return [
      {
        name: p.name,
        in: p.in as ParameterSpec['in'],
        required: p.required === true || p.in === 'path',
        deprecated: p.deprecated === true,
        style: typeof p.style === 'string' ? p.style : undefined,
        explode: typeof p.explode === 'boolean' ? p.explode : undefined,
        schemaPointer,
      },
    ];
  });
}

function mediaTypes(content: unknown, ptr: string): MediaTypeSpec[] {
  if (!isObject(content)) return [];
  return Object.entries(content).map(([contentType, media]) => {
    const m = isObject(media) ? media : {};
    const examples: MediaTypeSpec['examples'] = [];
    if ('example' in m) examples.push({ name: 'example', value: m.example });
    if (isObject(m.examples)) {
      for (const [name, ex] of Object.entries(m.examples)) if (isObject(ex) && 'value' in ex) examples.push({ name, value: ex.value });
    }
    return { contentType, schemaPointer: m.schema !== undefined ? appendPointer(ptr, contentType, 'schema') : undefined, examples };
  });
}

function requestBody(doc: OpenApiDocument, raw: unknown, ptr: string): OperationSpec['requestBody'] {
  if (raw === undefined) return undefined;
  const { value: b, pointer } = follow(doc, raw, ptr);
  if (!isObject(b)) return undefined;
  return { required: b.required === true, content: mediaTypes(b.content, appendPointer(pointer, 'content')) };
}

function responses(doc: OpenApiDocument, raw: unknown, ptr: string): ResponseSpec[] {
  if (!isObject(raw)) return [];
  return Object.entries(raw).map(([status, r]) => {
    const { value, pointer } = follow(doc, r, appendPointer(ptr, status));
    const res = isObject(value) ? value : {};
    return {
      status,
      description: typeof res.description === 'string' ? res.description : '',
      content: mediaTypes(res.content, appendPointer(pointer, 'content')),
    };
  });
}

/** The path part of the first server url, with variables replaced by their defaults. */
export function serverPathPrefix(doc: OpenApiDocument): string {
  const server = doc.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.replace(/^[a-z]+:\/\/[^/]*/i, '');
  }
  return path === '/' ? '' : path.replace(/\/+$/, '');
}

/** The documented response for a status: exact code first, then "4XX"-style ranges, then "default". */
export function findResponse(op: OperationSpec, status: number): ResponseSpec | undefined {
  const code = String(status);
  return (
    op.responses.find((r) => r.status === code) ??
    op.responses.find((r) => r.status.toUpperCase() === `${code[0]}XX`) ??
    op.responses.find((r) => r.status === 'default')
  );
}

/** The media type of a response matching a Content-Type header (parameters ignored, wildcards honoured). */
export function findMediaType(response: ResponseSpec, contentTypeHeader: string | undefined): MediaTypeSpec | undefined {
  const actual = (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase();
  const exact = response.content.find((m) => m.contentType.toLowerCase() === actual);
  if (exact) return exact;
  const [type] = actual.split('/');
  return response.content.find((m) => m.contentType.toLowerCase() === `${type}/*`) ?? response.content.find((m) => m.contentType === '*/*');
}
