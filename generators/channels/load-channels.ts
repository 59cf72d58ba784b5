// Reads and parses an AsyncAPI document (YAML or JSON, path or URL, with relative $refs into other files) with
// @asyncapi/parser. The parser is imported on first use: it takes about half a second to load, which a run or
// a test that never reads a channel document does not pay.
import type { Diagnostic, Parser } from '@asyncapi/parser';
import { isObject, pointer, type JsonObject } from '../../common/json.ts';
import { sha256 } from '../file-fingerprints.ts';
import { SpecLoadError } from '../spec-load-error.ts';

export interface ParsedChannels {
  /** The path (absolute) or URL it was read from. */
  source: string;
  /** sha256 of the root file's bytes. */
  sha256: string;
  bytes: Buffer;
  /** The document with every $ref replaced by the object it names (shared, and cyclic where the schemas are). */
  document: JsonObject;
  /** The `asyncapi` field, e.g. "2.6.0". */
  asyncapi: string;
}

/** Whether a document's text is an AsyncAPI one (a top-level `asyncapi` key), without parsing it in full. */
export function isAsyncApiText(text: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return /^["']?asyncapi["']?\s*:/m.test(text);
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) && 'asyncapi' in value;
  } catch {
    return false;
  }
}

// The per-process parser: building one compiles its rulesets (about 0.2 s), and one parses any number of documents.
let parserOnce: Promise<Parser> | undefined;

function parser(): Promise<Parser> {
  parserOnce ??= import('@asyncapi/parser').then(
    ({ Parser }) =>
      new Parser({
        // Its resolver keeps every file a $ref read for the life of the process: a file edited since would be
        // read as it was. compileChannels keeps a document while its files hold the same bytes; every parse
        // reads them anew (measured on the ledger's: no slower, about 0.6 s a parse either way).
        __unstable: { resolver: { cache: false } },
        ruleset: {
          // Style advice (an id, a contact, tags) says nothing about whether the document can be used.
          recommended: false,
          // Examples are the suite's to check, as the OpenAPI documents' are (a failed example is a failure of the
          // document, not a reason to refuse it), and schemas are checked when ajv compiles them. The unresolved
          // structure check only reports a $ref where the format allows none, which the resolved one (kept: it
          // checks the whole structure) reads through. Together these are three quarters of the parse time.
          rules: {
            'asyncapi-document-unresolved': 'off',
            'asyncapi2-schemas': 'off',
            'asyncapi2-schema-default': 'off',
            'asyncapi2-schema-examples': 'off',
            'asyncapi2-message-examples': 'off',
            'asyncapi2-message-examples-custom-format': 'off',
          },
        },
      }),
  );
  return parserOnce;
}

/** Parses a document read from `location` (a path, absolute, or a URL: its relative $refs resolve from there). */
export async function parseChannels(location: string, bytes: Buffer): Promise<ParsedChannels> {
  const text = bytes.toString('utf8');
  if (!isAsyncApiText(text)) throw new SpecLoadError(location, '/asyncapi', 'not an AsyncAPI document (no top-level asyncapi field)');
  let output: Awaited<ReturnType<Parser['parse']>>;
  try {
    output = await (await parser()).parse(text, { source: location });
  } catch (error) {
    throw new SpecLoadError(location, undefined, `the AsyncAPI parser failed: ${(error as Error).message}`);
  }
  const errors = output.diagnostics.filter((d) => d.severity === 0);
  if (!output.document || errors.length > 0) throw toLoadError(location, errors);
  const document = output.document.json() as unknown as JsonObject;
  return { source: location, sha256: sha256(bytes), bytes, document, asyncapi: String(document.asyncapi) };
}

/** The parser's first error (one of the text itself before any of the document's structure), on one line. */
function toLoadError(location: string, errors: readonly Diagnostic[]): SpecLoadError {
  const syntax = errors.filter((d) => d.code === 'parser');
  const first = syntax[0] ?? errors[0];
  if (!first) return new SpecLoadError(location, undefined, 'the AsyncAPI parser gave no document and no reason');
  const file = first.source ? first.source.replace(/^file:\/\//, '') : location;
  const at = first.path.length > 0 ? pointer(...first.path) : undefined;
  const line = first.code === 'parser' ? `line ${first.range.start.line + 1}: ` : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return new SpecLoadError(file, at, `not a usable AsyncAPI document: ${line}${first.message.replace(/\s+/g, ' ').trim()}${more}`);
}
