// Relations between an answer and its request, stated once in the document (x-cn-echo, x-cn-key,
// x-cn-count-at-most, x-cn-starts-with, x-cn-among; see specs/README.md) and judged here on any exchange of
// any operation whose answer carries the annotated schema: a new version or mode of an operation that reuses
// the schema is judged without a new check. Pure: the document and one exchange in, the breaks out.
import { isDeepStrictEqual } from 'node:util';
import { appendPointer, isObject, parseJson, parsePointer, pointer, resolvePointer } from '../common/json.ts';
import type { OpenApiDocument } from './load-document.ts';
import type { OperationSpec } from './operation-catalog.ts';

export const RELATION_KINDS = ['echo', 'key', 'count-at-most', 'starts-with', 'among'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** What each kind says the answer's value must be, as a failure message reads it. */
const MUST: Record<RelationKind, string> = {
  echo: 'be the same as',
  key: 'be the key asked in',
  'count-at-most': 'hold at most as many as',
  'starts-with': 'start with',
  among: 'be one of',
};

export interface RequestPlace {
  in: 'path' | 'query' | 'body';
  /** A path or query parameter's name; for the body, a JSON pointer into it. */
  name: string;
}

export interface Relation {
  kind: RelationKind;
  /** Where in the answer: pointer tokens, `*` for every element of an array or value of a map. */
  at: readonly string[];
  request: RequestPlace;
  /** The description's sentences that state it (description/). */
  cites: readonly string[];
  /** Where the document states it (a JSON pointer), for messages. */
  statedAt: string;
}

/** An exchange as the relations see it. */
export interface RelationExchange {
  url: string;
  requestBody?: string;
  status: number;
  /** The answer's parsed JSON body. */
  body: unknown;
}

export interface RelationBreak {
  relation: Relation;
  /** Where in the answer. */
  pointer: string;
  message: string;
}

export interface RelationJudgement {
  /** How many relations applied (both sides present). */
  applied: number;
  breaks: RelationBreak[];
}

const KEY = (kind: RelationKind) => `x-cn-${kind}`;

/** "body /record_time", "query limit", "path update_id" */
function parsePlace(text: unknown, where: string): RequestPlace {
  const m = typeof text === 'string' ? /^(path|query|body) (.+)$/.exec(text.trim()) : null;
  if (!m) throw new Error(`${where}: request must read "path NAME", "query NAME" or "body /POINTER", not ${JSON.stringify(text)}`);
  if (m[1] === 'body') parsePointer(m[2]!);
  return { in: m[1] as RequestPlace['in'], name: m[2]! };
}

/** The relations an annotation object (a schema or an operation) states, at `at` in the answer. */
function stated(node: Record<string, unknown>, nodePointer: string, at: readonly string[], answerGiven: boolean): Relation[] {
  const out: Relation[] = [];
  for (const kind of RELATION_KINDS) {
    const raw = node[KEY(kind)];
    if (raw === undefined) continue;
    for (const [i, a] of (Array.isArray(raw) ? raw : [raw]).entries()) {
      const where = `${appendPointer(nodePointer, KEY(kind))}${Array.isArray(raw) ? `/${i}` : ''}`;
      if (!isObject(a)) throw new Error(`${where}: an annotation is an object {request, cites}`);
      const cites = a.cites;
      if (!Array.isArray(cites) || cites.length === 0 || !cites.every((c) => typeof c === 'string'))
        throw new Error(`${where}: cites names the description's sentences that state the relation`);
      // An operation names where in its answer; a schema is the place itself.
      if (answerGiven !== (typeof a.answer === 'string'))
        throw new Error(`${where}: ${answerGiven ? 'an operation names the answer pointer' : 'a schema names no answer pointer'}`);
      const own = typeof a.answer === 'string' ? parsePointer(a.answer) : [];
      out.push({ kind, at: [...at, ...own], request: parsePlace(a.request, where), cites, statedAt: where });
    }
  }
  return out;
}

/** Bound on how deep a schema is walked for annotations (recursive schemas stop at their $ref cycle anyway). */
const MAX_DEPTH = 16;

/** Every relation of the schema at `schemaPointer` and below it, with where it sits in an answer. */
function schemaRelations(doc: OpenApiDocument, schemaPointer: string): Relation[] {
  const out: Relation[] = [];
  const walk = (ptr: string, at: readonly string[], onPath: ReadonlySet<string>, depth: number) => {
    if (depth > MAX_DEPTH || onPath.has(ptr)) return;
    const node = resolvePointer(doc, ptr);
    if (!isObject(node)) return;
    const here = new Set(onPath).add(ptr);
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) walk(node.$ref.slice(1), at, here, depth + 1);
    out.push(...stated(node, ptr, at, false));
    if (isObject(node.properties))
      for (const name of Object.keys(node.properties)) walk(appendPointer(ptr, 'properties', name), [...at, name], here, depth + 1);
    if (isObject(node.additionalProperties)) walk(appendPointer(ptr, 'additionalProperties'), [...at, '*'], here, depth + 1);
    if (isObject(node.items)) walk(appendPointer(ptr, 'items'), [...at, '*'], here, depth + 1);
    for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = node[k];
      if (Array.isArray(list)) for (const i of list.keys()) walk(appendPointer(ptr, k, i), at, here, depth + 1);
    }
  };
  walk(schemaPointer, [], new Set(), 0);
  return out;
}

/** The relations an operation's successful JSON answers are judged by: its own, and those of its 2xx schemas. */
export function operationRelations(doc: OpenApiDocument, op: OperationSpec): Relation[] {
  const out = stated(op.extensions, `${op.pointer}`, [], true);
  for (const r of op.responses.filter((r) => /^2/.test(r.status)))
    for (const m of r.content) if (m.schemaPointer && /json/i.test(m.contentType)) out.push(...schemaRelations(doc, m.schemaPointer));
  // The same place stated twice (a schema reached by two routes) is one relation.
  const seen = new Set<string>();
  return out.filter((r) => {
    const k = JSON.stringify([r.kind, r.at, r.request]);
    return !seen.has(k) && seen.add(k);
  });
}

/** The values of `at` in `body`, each with its pointer; `*` expands over arrays and maps. */
function valuesAt(body: unknown, at: readonly string[]): Array<{ pointer: string; value: unknown }> {
  let found: Array<{ pointer: string; value: unknown }> = [{ pointer: '', value: body }];
  for (const token of at) {
    const next: typeof found = [];
    for (const { pointer: p, value } of found) {
      if (token === '*') {
        if (Array.isArray(value)) value.forEach((v, i) => next.push({ pointer: `${p}/${i}`, value: v }));
        else if (isObject(value)) for (const [k, v] of Object.entries(value)) next.push({ pointer: p + pointer(k), value: v });
      } else if (isObject(value) && Object.hasOwn(value, token)) next.push({ pointer: p + pointer(token), value: value[token] });
    }
    found = next;
  }
  return found;
}

/** The request's value at a place: a path parameter's text, a query parameter's text(s), a body value; undefined when absent. */
function requestValue(op: OperationSpec, x: RelationExchange, place: RequestPlace): unknown {
  const url = new URL(x.url);
  if (place.in === 'query') {
    const all = url.searchParams.getAll(place.name);
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
  }
  if (place.in === 'body') return x.requestBody === undefined ? undefined : resolvePointer(parseJson(x.requestBody), place.name);
  // The path's end matches the template (whatever base path the target sits under).
  const names: string[] = [];
  const pattern = op.fullPath
    .split('/')
    .map((s) =>
      s.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, n: string) => {
        names.push(n);
        return '([^/]+)';
      }),
    )
    .join('/');
  const m = new RegExp(`${pattern}/?$`).exec(url.pathname);
  const i = names.indexOf(place.name);
  if (!m || i < 0) return undefined;
  try {
    return decodeURIComponent(m[i + 1]!);
  } catch {
    return undefined;
  }
}

/** A request's text (path, query) or JSON value (body) and an answer's value: the same. */
function same(answer: unknown, request: unknown, place: RequestPlace): boolean {
  if (place.in === 'body') return isDeepStrictEqual(answer, request);
  return (typeof answer === 'string' || typeof answer === 'number') && String(answer) === request;
}

const asCount = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** Whether the answer's value keeps the relation; undefined when the relation does not apply to the request's value. */
function holds(r: Relation, answer: unknown, request: unknown): boolean | undefined {
  switch (r.kind) {
    case 'echo':
    case 'key':
      return same(answer, request, r.request);
    case 'count-at-most': {
      const n = asCount(request);
      return n === undefined || !Array.isArray(answer) ? undefined : answer.length <= n;
    }
    case 'starts-with':
      return typeof request !== 'string' || request === '' || typeof answer !== 'string' ? undefined : answer.startsWith(request);
    case 'among': {
      const list = Array.isArray(request) ? request : [request];
      return list.length === 0 || typeof answer !== 'string' ? undefined : list.includes(answer);
    }
  }
}

const shown = (v: unknown) => (Array.isArray(v) ? `an array of ${v.length}` : JSON.stringify(v)?.slice(0, 120));

/**
 * Judges one exchange by the operation's relations. Only a successful JSON answer is judged, and a relation
 * only where both its answer value and its request value are present ("not shown" stays open).
 */
export function judgeRelations(op: OperationSpec, relations: readonly Relation[], x: RelationExchange): RelationJudgement {
  const out: RelationJudgement = { applied: 0, breaks: [] };
  if (x.status < 200 || x.status >= 300 || x.body === undefined) return out;
  for (const r of relations) {
    const request = requestValue(op, x, r.request);
    if (request === undefined || request === null) continue;
    for (const { pointer: at, value } of valuesAt(x.body, r.at)) {
      if (value === undefined || value === null) continue;
      const ok = holds(r, value, request);
      if (ok === undefined) continue;
      out.applied++;
      if (!ok)
        out.breaks.push({
          relation: r,
          pointer: at,
          message: `the answer's ${at || 'body'} is ${shown(value)}; it must ${MUST[r.kind]} the request's ${r.request.in} ${r.request.name} (${shown(request)})`,
        });
    }
  }
  return out;
}
