// One schema of an OpenAPI document seen as the set of values it accepts, flattened for comparison: $refs
// followed, allOf members merged, OpenAPI 3.0 and 3.1 spellings (nullable, boolean or numeric exclusive
// bounds, type lists) read the same way. oneOf/anyOf stay as unions of nodes, expanded one level at a time.
import type { OpenApiDocument } from '../load-document.ts';
import { appendPointer, isObject, resolvePointer, type JsonObject } from '../../common/json.ts';

/** A schema as written in a document, with the pointer where it lives. */
export interface SchemaNode {
  schema: unknown;
  at: string;
}

export interface Bound {
  value: number;
  exclusive: boolean;
}

export interface Union {
  kind: 'oneOf' | 'anyOf';
  branches: SchemaNode[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
}

export interface SchemaView {
  /** Pointer of the schema the view starts from (for reports). */
  at: string;
  /** Component name when the view was reached through a $ref (used to match union branches). */
  refName?: string;
  /** Types accepted besides null; undefined = any. Inferred from properties/items/enum when `type` is absent. */
  types?: Set<string>;
  /** Null is accepted (nullable, a type list with null, or no constraint at all). */
  nullable: boolean;
  /** Allowed values besides null, when restricted (enum or const). */
  enum?: unknown[];
  formats: string[];
  patterns: string[];
  minimum?: Bound;
  maximum?: Bound;
  counts: Partial<Record<CountKeyword, number>>;
  multipleOf?: number;
  uniqueItems: boolean;
  properties: Map<string, SchemaNode[]>;
  required: Set<string>;
  /** false: no property beyond those listed; nodes: each extra property must match them; undefined: anything. */
  additional?: false | SchemaNode[];
  items?: SchemaNode[];
  unions: Union[];
  /** Discriminator values that select this view, when it is a branch of a discriminated union. */
  tags?: string[];
  /** The discriminator property those tags are values of. */
  tagProperty?: string;
  /** Kinds of strictness our document keeps on purpose, each with the description's sentence (EXCUSE_KEYWORD). */
  excuses: Record<string, string>;
}

/**
 * Extension of the project's own documents: where a schema is stricter than the official documents because
 * the description states the rule, it names the kind of finding and quotes the sentence, e.g.
 * `x-cn-stricter-than-official: { pattern: "root_hash: string (hex-encoded)" }`.
 */
export const EXCUSE_KEYWORD = 'x-cn-stricter-than-official';

export const COUNT_KEYWORDS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;
export type CountKeyword = (typeof COUNT_KEYWORDS)[number];

const MAX_REF_HOPS = 32;

export function anyView(at: string): SchemaView {
  return { at, nullable: true, formats: [], patterns: [], counts: {}, uniqueItems: false, properties: new Map(), required: new Set(), unions: [], excuses: {} };
}

/** The values accepted by all nodes (allOf semantics). */
export function viewOf(doc: OpenApiDocument, nodes: SchemaNode[]): SchemaView {
  const views = nodes.map((n) => viewOfNode(doc, n, 0));
  if (views.length === 0) return anyView('');
  return views.slice(1).reduce(merge, views[0]!);
}

function viewOfNode(doc: OpenApiDocument, node: SchemaNode, hops: number): SchemaView {
  const s = node.schema;
  if (s === true || s === undefined) return anyView(node.at);
  if (s === false) return { ...anyView(node.at), types: new Set(), nullable: false };
  if (!isObject(s)) return anyView(node.at);
  if (typeof s.$ref === 'string') {
    if (!s.$ref.startsWith('#') || hops > MAX_REF_HOPS) return anyView(node.at);
    // Bundled refs may percent-encode pointer characters ({ and } of path templates).
    const target = decodeURIComponent(s.$ref.slice(1));
    const resolved = viewOfNode(doc, { schema: resolvePointer(doc, target), at: target }, hops + 1);
    resolved.refName = target.split('/').pop();
    const { $ref: _ref, nullable, description: _d, ...siblings } = s;
    let view = Object.keys(siblings).length > 0 ? merge(resolved, ownView(doc, { schema: siblings, at: node.at }, hops)) : resolved;
    if (nullable === true) view = { ...view, nullable: true };
    return view;
  }
  return ownView(doc, node, hops);
}

function ownView(doc: OpenApiDocument, node: SchemaNode, hops: number): SchemaView {
  const s = node.schema as JsonObject;
  const at = node.at;
  const v = anyView(at);
  const declared = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : undefined;
  const values = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
  if (declared) v.types = new Set(declared.filter((t) => t !== 'null'));
  else if (values) v.types = new Set(values.filter((x) => x !== null).map(jsonType));
  else if (isObject(s.properties) || Array.isArray(s.required) || 'additionalProperties' in s) v.types = new Set(['object']);
  else if ('items' in s) v.types = new Set(['array']);
  v.nullable = s.nullable === true || (declared ? declared.includes('null') : values ? values.includes(null) : v.types === undefined);
  if (values) v.enum = values.filter((x) => x !== null);
  if (typeof s.format === 'string') v.formats.push(s.format);
  if (typeof s.pattern === 'string') v.patterns.push(s.pattern);
  v.minimum = lowerBound(s);
  v.maximum = upperBound(s);
  for (const k of COUNT_KEYWORDS) if (typeof s[k] === 'number') v.counts[k] = s[k] as number;
  if (typeof s.multipleOf === 'number') v.multipleOf = s.multipleOf;
  v.uniqueItems = s.uniqueItems === true;
  if (isObject(s[EXCUSE_KEYWORD])) {
    for (const [kind, sentence] of Object.entries(s[EXCUSE_KEYWORD])) if (typeof sentence === 'string') v.excuses[kind] = sentence;
  }
  if (isObject(s.properties)) {
    for (const [name, p] of Object.entries(s.properties)) v.properties.set(name, [{ schema: p, at: appendPointer(at, 'properties', name) }]);
  }
  if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string') v.required.add(r);
  if (s.additionalProperties === false) v.additional = false;
  else if (isObject(s.additionalProperties)) v.additional = [{ schema: s.additionalProperties, at: `${at}/additionalProperties` }];
  if (isObject(s.items)) v.items = [{ schema: s.items, at: `${at}/items` }];
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const list = s[kind];
    if (!Array.isArray(list)) continue;
    const union: Union = { kind, branches: list.map((b, i) => ({ schema: b, at: `${at}/${kind}/${i}` })) };
    const d = s.discriminator;
    if (isObject(d) && typeof d.propertyName === 'string') {
      union.discriminator = { propertyName: d.propertyName, mapping: isObject(d.mapping) ? (d.mapping as Record<string, string>) : {} };
    }
    v.unions.push(union);
    if (!declared && !values) {
      // A union without its own type accepts what its branches accept.
      const branches = union.branches.map((b) => viewOfNode(doc, b, hops + 1));
      v.types = branches.some((b) => b.types === undefined) ? v.types : new Set(branches.flatMap((b) => [...b.types!]));
      v.nullable = s.nullable === true || branches.some((b) => b.nullable);
    }
  }
  let view = v;
  if (Array.isArray(s.allOf)) {
    for (const [i, m] of s.allOf.entries()) view = merge(view, viewOfNode(doc, { schema: m, at: `${at}/allOf/${i}` }, hops + 1));
    if (s.nullable === true) view.nullable = true;
  }
  return view;
}

/** Both views at once (allOf): the narrower of every constraint. */
export function merge(a: SchemaView, b: SchemaView): SchemaView {
  const properties = new Map(a.properties);
  for (const [k, nodes] of b.properties) properties.set(k, [...(properties.get(k) ?? []), ...nodes]);
  const counts = { ...a.counts };
  for (const k of COUNT_KEYWORDS) {
    const x = b.counts[k];
    if (x === undefined) continue;
    const y = counts[k];
    counts[k] = y === undefined ? x : k.startsWith('min') ? Math.max(x, y) : Math.min(x, y);
  }
  return {
    at: a.at,
    refName: a.refName ?? b.refName,
    types: intersectTypes(a.types, b.types),
    nullable: a.nullable && b.nullable,
    enum: a.enum && b.enum ? a.enum.filter((x) => b.enum!.some((y) => sameValue(x, y))) : (a.enum ?? b.enum),
    formats: [...a.formats, ...b.formats],
    patterns: [...a.patterns, ...b.patterns],
    minimum: tighter(a.minimum, b.minimum, 1),
    maximum: tighter(a.maximum, b.maximum, -1),
    counts,
    multipleOf: a.multipleOf ?? b.multipleOf,
    uniqueItems: a.uniqueItems || b.uniqueItems,
    properties,
    required: new Set([...a.required, ...b.required]),
    additional:
      a.additional === false || b.additional === false ? false : a.additional || b.additional ? [...(a.additional || []), ...(b.additional || [])] : undefined,
    items: a.items || b.items ? [...(a.items ?? []), ...(b.items ?? [])] : undefined,
    unions: [...a.unions, ...b.unions],
    tags: a.tags ?? b.tags,
    tagProperty: a.tagProperty ?? b.tagProperty,
    excuses: { ...b.excuses, ...a.excuses },
  };
}

/**
 * The alternatives of the view's first union, each merged with the rest of the view. A branch of a
 * discriminated union also carries what the discriminator implies: the tag property is required and holds
 * one of the branch's tags.
 */
export function expandUnion(doc: OpenApiDocument, view: SchemaView): SchemaView[] {
  const [union, ...rest] = view.unions;
  if (!union) return [view];
  const base = { ...view, unions: rest, refName: undefined, tags: undefined, tagProperty: undefined };
  return union.branches.map((branch) => {
    const own = viewOfNode(doc, branch, 0);
    const alt = merge(base, own);
    alt.refName = own.refName;
    alt.at = own.at;
    const d = union.discriminator;
    if (d) {
      const ref = isObject(branch.schema) && typeof branch.schema.$ref === 'string' ? branch.schema.$ref : undefined;
      const tags = Object.entries(d.mapping)
        .filter(([, target]) => normaliseRef(target) === ref)
        .map(([tag]) => tag);
      if (tags.length === 0 && ref && !Object.values(d.mapping).some((t) => normaliseRef(t) === ref)) tags.push(ref.split('/').pop()!);
      if (tags.length > 0) {
        alt.tags = tags;
        alt.tagProperty = d.propertyName;
        alt.required = new Set([...alt.required, d.propertyName]);
        const implied = { schema: { enum: tags }, at: `${branch.at} (discriminator ${d.propertyName})` };
        alt.properties = new Map(alt.properties).set(d.propertyName, [...(alt.properties.get(d.propertyName) ?? []), implied]);
      }
    }
    return alt;
  });
}

function normaliseRef(target: string): string {
  return target.includes('#') || target.includes('/') ? target : `#/components/schemas/${target}`;
}

function intersectTypes(a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = new Set<string>();
  for (const t of a) {
    if (b.has(t)) out.add(t);
    else if ((t === 'integer' && b.has('number')) || (t === 'number' && b.has('integer'))) out.add('integer');
  }
  return out;
}

function lowerBound(s: JsonObject): Bound | undefined {
  const inclusive = typeof s.minimum === 'number' ? { value: s.minimum, exclusive: s.exclusiveMinimum === true } : undefined;
  const exclusive = typeof s.exclusiveMinimum === 'number' ? { value: s.exclusiveMinimum, exclusive: true } : undefined;
  return tighter(inclusive, exclusive, 1);
}

function upperBound(s: JsonObject): Bound | undefined {
  const inclusive = typeof s.maximum === 'number' ? { value: s.maximum, exclusive: s.exclusiveMaximum === true } : undefined;
  const exclusive = typeof s.exclusiveMaximum === 'number' ? { value: s.exclusiveMaximum, exclusive: true } : undefined;
  return tighter(inclusive, exclusive, -1);
}

/** The narrower of two bounds; `direction` 1 for lower bounds, -1 for upper bounds. */
function tighter(a: Bound | undefined, b: Bound | undefined, direction: 1 | -1): Bound | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a.value !== b.value) return (a.value - b.value) * direction > 0 ? a : b;
  return a.exclusive ? a : b;
}

/** Is bound `ours` narrower than `theirs` (undefined = unbounded)? */
export function narrowerBound(ours: Bound | undefined, theirs: Bound | undefined, direction: 1 | -1): boolean {
  if (!ours) return false;
  if (!theirs) return true;
  if (ours.value !== theirs.value) return (ours.value - theirs.value) * direction > 0;
  return ours.exclusive && !theirs.exclusive;
}

export function jsonType(x: unknown): string {
  if (Array.isArray(x)) return 'array';
  if (x === null) return 'null';
  if (typeof x === 'number') return Number.isInteger(x) ? 'integer' : 'number';
  return typeof x;
}

export const sameValue = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
