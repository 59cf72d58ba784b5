// Checks the `fixtures` of a config file against engine/fixtures.schema.json before anything is sent: a
// typo'd name would be silently ignored and a wrongly typed id would make a correct node fail requirements.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { appendPointer } from '../common/json.ts';
import { didYouMean } from './did-you-mean.ts';
import schema from './fixtures.schema.json' with { type: 'json' };

const addFormats = ((addFormatsPlugin as unknown as { default?: unknown }).default ?? addFormatsPlugin) as (ajv: Ajv) => Ajv;
const ROOT = '/fixtures';
const SCHEMA_FILE = 'engine/fixtures.schema.json';
/** Object levels with at most this many names list them in messages; bigger ones point to the schema file. */
const LIST_LIMIT = 6;
const SHOW_LIMIT = 60;

/** The part of a JSON Schema this module reads to phrase messages. */
interface SchemaNode {
  type?: string;
  format?: string;
  minimum?: number;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
}

/**
 * One line per problem of a parsed `fixtures` value, each naming its JSON pointer under /fixtures and what
 * to write instead, in document order; [] when the value is valid or absent (undefined).
 */
export function fixtureProblems(value: unknown): string[] {
  if (value === undefined) return [];
  // Compiled per call: the schema is small and this runs once per run, so no module state is worth it.
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (validate(value)) return [];

  // ajv can report one spot several times (e.g. type and minimum for -1.5): one message per pointer, the
  // first wins, and missing keys of one object are merged into one line.
  const wrong = new Map<string, string>();
  const missing = new Map<string, string[]>();
  const unknown = new Map<string, string>();
  for (const e of validate.errors ?? []) {
    const at = ROOT + e.instancePath;
    const parent = e.parentSchema as SchemaNode;
    if (e.keyword === 'additionalProperties') {
      const key = String(e.params.additionalProperty);
      unknown.set(appendPointer(at, key), unknownKey(key, Object.keys(parent.properties ?? {}), at === ROOT));
    } else if (e.keyword === 'required') {
      const list = missing.get(at) ?? [];
      missing.set(at, [...list, String(e.params.missingProperty)]);
    } else if (!wrong.has(at)) {
      wrong.set(at, `must be ${expected(e, parent)}, got ${show(e.data)}`);
    }
  }
  const lines = new Map<string, string>(unknown);
  for (const [at, keys] of missing) lines.set(at, `must have ${keys.join(' and ')}`);
  for (const [at, message] of wrong) lines.set(at, message);

  const order = documentOrder(value);
  const rank = (p: string) => order.get(p) ?? Number.MAX_SAFE_INTEGER;
  return [...lines].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)).map(([at, message]) => `${printable(at)}: ${message}`);
}

function unknownKey(key: string, known: string[], topLevel: boolean): string {
  const what = topLevel ? 'unknown fixture' : 'unknown key';
  const guess = didYouMean(key, known);
  if (guess) return `${what}; did you mean ${guess}?`;
  if (known.length === 0) return `${what}; this object takes no keys`;
  return known.length <= LIST_LIMIT ? `${what}; known: ${known.join(', ')}` : `${what}; see ${SCHEMA_FILE} for the known names`;
}

/** What the schema wants at the spot, phrased from the schema itself so every keyword there says the same. */
function expected(e: ErrorObject, s: SchemaNode): string {
  return ['type', 'minimum', 'format'].includes(e.keyword) ? describe(s) : `valid (${e.message ?? e.keyword})`;
}

function describe(s: SchemaNode, plural = false): string {
  const n = (one: string, many: string) => (plural ? many : one);
  switch (s.type) {
    case 'integer':
      return n('an integer', 'integers') + (s.minimum === undefined ? '' : ` >= ${s.minimum}`);
    case 'number':
      return n('a number', 'numbers') + (s.minimum === undefined ? '' : ` >= ${s.minimum}`);
    case 'string':
      if (s.format === 'date-time') return n('a date-time (RFC 3339)', 'date-times (RFC 3339)');
      return n('a string', 'strings') + (s.format ? ` in format ${s.format}` : '');
    case 'array':
      return n('an array', 'arrays') + (s.items ? ` of ${describe(s.items, true)}` : '');
    case 'object': {
      const names = Object.keys(s.properties ?? {});
      const required = names.filter((k) => s.required?.includes(k));
      const optional = names.filter((k) => !s.required?.includes(k));
      const parts = [required.length ? required.join(' and ') : '', optional.length ? `any of ${optional.join(', ')}` : ''].filter(Boolean);
      return n('an object', 'objects') + (names.length && names.length <= LIST_LIMIT ? ` with ${parts.join(' and ')}` : '');
    }
    default:
      return n('a value', 'values') + (s.type ? ` of type ${s.type}` : '');
  }
}

/** The received value as JSON, cut so one huge value cannot flood the output. */
function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length <= SHOW_LIMIT ? text : `${text.slice(0, SHOW_LIMIT - 3)}...`;
}

/** Pointers of every spot in the value, numbered in the order a reader of the file meets them. */
function documentOrder(value: unknown): Map<string, number> {
  const order = new Map<string, number>();
  const walk = (v: unknown, at: string): void => {
    order.set(at, order.size);
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${at}/${i}`));
    else if (typeof v === 'object' && v !== null) for (const [k, item] of Object.entries(v)) walk(item, appendPointer(at, k));
  };
  walk(value, ROOT);
  return order;
}

/** Keeps a problem on one line when a key holds control characters. */
const printable = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
