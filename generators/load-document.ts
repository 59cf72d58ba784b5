// Loads an OpenAPI 3.0/3.1 document (YAML or JSON, path or URL) into one bundled object whose only
// $refs are internal ("#/..."), so that validators and generators can address every schema by pointer.
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { appendPointer, isObject } from '../common/json.ts';
import { sha256 } from './file-fingerprints.ts';
import { SpecLoadError } from './spec-load-error.ts';

export { SpecLoadError };

export type OpenApiVersion = '3.0' | '3.1';

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [k: string]: unknown };
  servers?: Array<{ url: string; variables?: Record<string, { default: string }> }>;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, string[]>>;
  [k: string]: unknown;
}

export interface LoadedDocument {
  /** Short name used in reports and `--spec NAME=PATH` (e.g. "scan"). */
  name: string;
  /** The path (absolute) or URL it was read from. */
  source: string;
  version: OpenApiVersion;
  /** Bundled document: external files inlined, internal $refs kept (cycles stay as $refs). */
  document: OpenApiDocument;
  /** sha256 of the root file's bytes, so a report can say exactly which document was used. */
  sha256: string;
  /** Known defects of published documents that loading repaired, one line each with its pointer (see repairKnownDefects). */
  repairs: string[];
  /** The root file's bytes as read (what `sha256` is of; absent for a document made in memory). */
  bytes?: Buffer;
  /** Every file the document was read from, its root first; absent where a part of it came from a URL. */
  files?: string[];
}

export interface LoadOptions {
  /** Name for reports; defaults to the file name without extension. */
  name?: string;
  /** Timeout for fetching a document (and its external refs) over HTTP. */
  timeoutMs?: number;
}

export const isUrl = (s: string) => /^https?:\/\//i.test(s);

export async function loadDocument(source: string, options: LoadOptions = {}): Promise<LoadedDocument> {
  const location = isUrl(source) ? source : resolvePath(source);
  const parserOptions = {
    // The user names the document's location; a node serving its own document on loopback or a private
    // address is a normal case, so the ref parser's guard against internal URLs does not apply here.
    resolve: { http: { timeout: options.timeoutMs ?? 10_000, safeUrlResolver: false } },
    dereference: { circular: 'ignore' as const },
  };
  const rootBytes = await readDocumentBytes(location, options.timeoutMs ?? 10_000);

  let bundled: OpenApiDocument;
  const parser = new SwaggerParser();
  try {
    bundled = (await parser.bundle(location, parserOptions as SwaggerParser.Options)) as unknown as OpenApiDocument;
  } catch (error) {
    throw toLoadError(location, error);
  }
  checkVersion(location, bundled);
  const repairs = repairKnownDefects(bundled);
  try {
    // validate() dereferences in place; give it a copy so the bundled form keeps its $refs.
    await SwaggerParser.validate(structuredClone(bundled) as never, parserOptions as SwaggerParser.Options);
  } catch (error) {
    throw toLoadError(location, error);
  }
  return {
    name: options.name ?? defaultName(location),
    source: location,
    version: bundled.openapi.startsWith('3.1') ? '3.1' : '3.0',
    document: bundled,
    sha256: sha256(rootBytes),
    repairs,
    bytes: rootBytes,
    // A document that refers to anything but local files has no list: its parts may change unseen.
    ...(parser.$refs.paths().every((path) => !isUrl(path)) ? { files: parser.$refs.paths() } : {}),
  };
}

/**
 * Defects that published documents carry and that have one obvious reading; each is repaired in the bundled
 * document and named, so the report can list it as a warning instead of refusing the document. Today:
 * `required: []` in a schema (OpenAPI 3.0 forbids an empty list; it can only mean "nothing is required").
 */
/** Keywords whose value is data (an example, an enum...), not document structure: never repaired. */
const VALUES = new Set(['example', 'examples', 'enum', 'default', 'const', 'x-examples']);

export function repairKnownDefects(document: OpenApiDocument): string[] {
  const repairs: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, appendPointer(at, i)));
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'required' && Array.isArray(value) && value.length === 0) {
        delete node[key];
        repairs.push(`#${appendPointer(at, key)}: \`required: []\` (OpenAPI 3.0 requires at least one name), read as no required property`);
      } else if (!VALUES.has(key)) walk(value, appendPointer(at, key));
    }
  };
  walk(document, '');
  return repairs;
}

/** The bytes of a document's root file (a path or an http(s) URL); unreadable: a SpecLoadError. */
export async function readDocumentBytes(location: string, timeoutMs: number): Promise<Buffer> {
  try {
    if (!isUrl(location)) return await readFile(location);
    const response = await fetch(location, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new SpecLoadError(location, undefined, `cannot read the document: ${(error as Error).message}`);
  }
}

function checkVersion(location: string, doc: OpenApiDocument): void {
  const v = (doc as { openapi?: unknown; swagger?: unknown }).openapi;
  if (typeof v !== 'string' || !/^3\.[01]\./.test(v)) {
    const found = typeof v === 'string' ? `openapi ${v}` : (doc as { swagger?: unknown }).swagger ? 'Swagger 2.0' : 'no openapi field';
    throw new SpecLoadError(location, '/openapi', `only OpenAPI 3.0.x and 3.1.x documents are supported (found ${found})`);
  }
}

function defaultName(location: string): string {
  const base = location.split(/[\\/]/).pop() ?? location;
  return base.replace(/\.(ya?ml|json)$/i, '').replace(/-api$/, '');
}

interface ParserErrorShape {
  message?: string;
  source?: string;
  path?: string;
  details?: Array<{ instancePath?: string; message?: string; params?: Record<string, unknown> }>;
}

function toLoadError(location: string, error: unknown): SpecLoadError {
  if (error instanceof SpecLoadError) return error;
  const e = (error ?? {}) as ParserErrorShape;
  const file = e.source ? e.source.replace(/^file:\/\//, '') : location;
  if (Array.isArray(e.details) && e.details.length > 0) {
    // Schema validation of the document: report every offending pointer, the first one as "the" pointer.
    const lines = e.details.slice(0, 10).map((d) => {
      const extra = d.params && 'additionalProperty' in d.params ? ` '${String(d.params.additionalProperty)}'` : '';
      return `#${d.instancePath ?? ''} ${d.message ?? 'is invalid'}${extra}`;
    });
    const more = e.details.length > 10 ? `\n  ... and ${e.details.length - 10} more` : '';
    return new SpecLoadError(file, e.details[0]?.instancePath ?? '', `not a valid OpenAPI document:\n  ${lines.join('\n  ')}${more}`);
  }
  const message = (e.message ?? String(error)).trim();
  const ptr = typeof e.path === 'string' && e.path.includes('#') ? e.path.slice(e.path.indexOf('#') + 1) : undefined;
  return new SpecLoadError(file, ptr, message);
}
