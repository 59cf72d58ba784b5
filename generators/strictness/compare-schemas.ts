// Walks two schemas in parallel (ours and theirs, each in its own document) and names every place where
// ours accepts less than theirs: a value theirs allows that ours rejects is a false alarm waiting to
// happen, in an answer (the response check fails a correct node) and in a request alike (an invalid-input
// check expects a 4xx for a request a correct node rightly accepts).
import type { OpenApiDocument } from '../load-document.ts';
import { KNOWN_FORMATS } from '../schema-validators.ts';
import { appendPointer, isObject } from '../../common/json.ts';
import { COUNT_KEYWORDS, expandUnion, narrowerBound, sameValue, viewOf, type Bound, type SchemaNode, type SchemaView } from './schema-view.ts';

export const STRICTNESS_KINDS = [
  'required',
  'type',
  'nullable',
  'enum',
  'additional-properties',
  'format',
  'pattern',
  'bound',
  'variant',
  'undecided',
] as const;
export type StrictnessKind = (typeof STRICTNESS_KINDS)[number];

/**
 * Kinds that do not by themselves make ours stricter: null where ours leaves a property optional is
 * judged apart (tolerated at MUST, reported by a SHOULD requirement), and 'undecided' says the comparison
 * could not tell which branches of two unions correspond.
 */
export const INFORMATIONAL_KINDS: ReadonlySet<StrictnessKind> = new Set(['nullable', 'undecided']);

export interface SchemaDifference {
  kind: StrictnessKind;
  /** JSON pointer inside the instance ("" = the whole value; "/0" stands for every array item, "/*" for every extra property). */
  pointer: string;
  ours: string;
  theirs: string;
  /** Where the two rules live in their documents. */
  oursAt: string;
  theirsAt: string;
  /** Union branches walked to get here, and anything else a reader needs. */
  note?: string;
  /** For `nullable`: the value sits at a property ours leaves optional (null there is judged by the SHOULD policy). */
  optional?: boolean;
  /** Ours is stricter on purpose: the description's sentence that states the rule (from x-cn-stricter-than-official). */
  excused?: string;
}

/** Formats whose validation narrows the values accepted: the ones ajv checks, but int64 and the number formats (ranges no JSON value a node sends reaches) and the annotations. */
const NARROWING_FORMATS: ReadonlySet<string> = new Set([...KNOWN_FORMATS].filter((f) => !['int64', 'float', 'double', 'password', 'binary'].includes(f)));

const MAX_DEPTH = 64;

interface Context {
  ours: OpenApiDocument;
  theirs: OpenApiDocument;
  out: SchemaDifference[];
  /** Schema pairs being compared on the current path: a recursive schema is walked once. */
  stack: Set<string>;
}

/**
 * Differences where the schema `ours` (in document `oursDoc`) accepts less than `theirs`. Either may be
 * undefined (no schema: anything accepted).
 */
export function compareSchemas(oursDoc: OpenApiDocument, ours: SchemaNode[], theirsDoc: OpenApiDocument, theirs: SchemaNode[]): SchemaDifference[] {
  const ctx: Context = { ours: oursDoc, theirs: theirsDoc, out: [], stack: new Set() };
  compareNodes(ctx, ours, theirs, '', [], 0, false);
  const seen = new Set<string>();
  return ctx.out.filter((d) => {
    const key = `${d.kind}|${d.pointer}|${d.ours}|${d.theirs}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function compareNodes(ctx: Context, ours: SchemaNode[], theirs: SchemaNode[], pointer: string, trail: string[], depth: number, optional: boolean): void {
  // Keyed by the schemas the nodes stand for, so that a recursive schema is walked once whatever the path to it.
  const key = `${ours.map((n) => target(n)).join(',')}|${theirs.map((n) => target(n)).join(',')}`;
  if (ctx.stack.has(key) || depth > MAX_DEPTH) return;
  ctx.stack.add(key);
  compareViews(ctx, viewOf(ctx.ours, ours), viewOf(ctx.theirs, theirs), pointer, trail, depth + 1, optional);
  ctx.stack.delete(key);
}

/** The pointer a node's $ref names (the schema it stands for), or its own. */
function target(n: SchemaNode): string {
  return isObject(n.schema) && typeof n.schema.$ref === 'string' && n.schema.$ref.startsWith('#') ? decodeURIComponent(n.schema.$ref.slice(1)) : n.at;
}

function compareViews(ctx: Context, o: SchemaView, t: SchemaView, pointer: string, trail: string[], depth: number, optional: boolean): void {
  if (depth > MAX_DEPTH) return;
  const emit: Emit = (kind, at, ours, theirs) =>
    ctx.out.push({
      kind,
      pointer: at,
      ours,
      theirs,
      oursAt: o.at,
      theirsAt: t.at,
      ...(trail.length > 0 ? { note: trail.join('; ') } : {}),
      ...(kind === 'nullable' ? { optional } : {}),
      ...(o.excuses[kind] !== undefined ? { excused: o.excuses[kind] } : {}),
    });

  if (o.unions.length > 0 || t.unions.length > 0) {
    compareUnions(ctx, o, t, pointer, trail, depth, optional, emit);
    return;
  }

  if (t.nullable && !o.nullable) emit('nullable', pointer, 'null not allowed', 'null allowed');
  let shared: Set<string> | undefined;
  if (o.types !== undefined) {
    if (t.types === undefined) {
      emit('type', pointer, typeList(o.types), 'any');
      shared = o.types;
    } else {
      const missing = [...t.types].filter((x) => !covers(o.types!, x));
      if (missing.length > 0) emit('type', pointer, typeList(o.types), typeList(t.types));
      shared = new Set([...t.types].filter((x) => covers(o.types!, x)));
    }
  } else shared = t.types;
  if (o.enum) {
    if (!t.enum) emit('enum', pointer, JSON.stringify(o.enum), t.types ? `any ${typeList(t.types)}` : 'any');
    else {
      const missing = t.enum.filter((x) => !o.enum!.some((y) => sameValue(x, y)));
      if (missing.length > 0) emit('enum', pointer, JSON.stringify(o.enum), JSON.stringify(t.enum));
    }
  }
  compareScalarRules(o, t, pointer, emit);
  const has = (x: string) => shared === undefined || shared.has(x);
  if (has('object')) compareObjects(ctx, o, t, pointer, trail, depth, emit);
  if (has('array') && o.items) {
    compareNodes(ctx, o.items, t.items ?? [{ schema: {}, at: `${t.at}/items` }], appendPointer(pointer, 0), trail, depth, false);
  }
}

type Emit = (kind: StrictnessKind, pointer: string, ours: string, theirs: string) => void;

function compareScalarRules(o: SchemaView, t: SchemaView, pointer: string, emit: Emit): void {
  for (const f of o.formats) {
    if (NARROWING_FORMATS.has(f) && !t.formats.includes(f)) emit('format', pointer, f, t.formats.join(', ') || 'none');
  }
  for (const p of o.patterns) if (!t.patterns.includes(p)) emit('pattern', pointer, p, t.patterns.join(' and ') || 'none');
  if (narrowerBound(o.minimum, t.minimum, 1)) emit('bound', pointer, bound('>', o.minimum!), t.minimum ? bound('>', t.minimum) : 'no minimum');
  if (narrowerBound(o.maximum, t.maximum, -1)) emit('bound', pointer, bound('<', o.maximum!), t.maximum ? bound('<', t.maximum) : 'no maximum');
  for (const k of COUNT_KEYWORDS) {
    const x = o.counts[k];
    if (x === undefined) continue;
    const y = t.counts[k];
    const narrower = k.startsWith('min') ? x > (y ?? 0) : y === undefined || x < y;
    if (narrower) emit('bound', pointer, `${k} ${x}`, y === undefined ? `no ${k}` : `${k} ${y}`);
  }
  if (o.multipleOf !== undefined && (t.multipleOf === undefined || !Number.isInteger(t.multipleOf / o.multipleOf))) {
    emit('bound', pointer, `multipleOf ${o.multipleOf}`, t.multipleOf === undefined ? 'no multipleOf' : `multipleOf ${t.multipleOf}`);
  }
  if (o.uniqueItems && !t.uniqueItems) emit('bound', pointer, 'uniqueItems', 'repeated items allowed');
}

function compareObjects(ctx: Context, o: SchemaView, t: SchemaView, pointer: string, trail: string[], depth: number, emit: Emit): void {
  for (const name of o.required) {
    if (!t.required.has(name)) {
      const at = appendPointer(pointer, name);
      emit('required', at, 'required', t.properties.has(name) ? 'optional' : 'not listed (allowed, not required)');
    }
  }
  const names = new Set([...o.properties.keys(), ...t.properties.keys()]);
  for (const name of names) {
    const at = appendPointer(pointer, name);
    const op = o.properties.get(name);
    const tp = t.properties.get(name);
    const optional = !o.required.has(name);
    if (op && tp) compareNodes(ctx, op, tp, at, trail, depth, optional);
    else if (tp) {
      if (o.additional === false) emit('additional-properties', at, 'not allowed (additionalProperties: false)', 'defined');
      else if (o.additional) compareNodes(ctx, o.additional, tp, at, trail, depth, optional);
    } else if (op && t.additional) compareNodes(ctx, op, t.additional, at, trail, depth, optional);
  }
  if (o.additional === false) {
    if (t.additional !== false) emit('additional-properties', pointer, 'no other property', t.additional ? 'others allowed (with a schema)' : 'others allowed');
  } else if (o.additional && t.additional !== false) {
    compareNodes(ctx, o.additional, t.additional ?? [{ schema: {}, at: `${t.at}/additionalProperties` }], appendPointer(pointer, '*'), trail, depth, true);
  }
}

/** Matches each alternative of theirs with the alternative of ours that must accept it. */
function compareUnions(ctx: Context, o: SchemaView, t: SchemaView, pointer: string, trail: string[], depth: number, optional: boolean, emit: Emit): void {
  if (t.unions.length === 0 && o.types !== undefined && (t.types === undefined || [...t.types].some((x) => !covers(o.types!, x)))) {
    // Theirs is one plain schema of a type none of our branches takes: no branch to compare with.
    emit('type', pointer, typeList(o.types), t.types ? typeList(t.types) : 'any');
    return;
  }
  const oAlts = expandUnion(ctx.ours, o);
  const tAlts = expandUnion(ctx.theirs, t);
  tAlts.forEach((ta, i) => {
    const match = pickBranch(ctx, ta, i, oAlts, tAlts);
    const name = branchName(ta, i);
    if ('alt' in match) {
      const step =
        tAlts.length > 1 || oAlts.length > 1 ? [`their branch ${name} against our ${branchName(match.alt, oAlts.indexOf(match.alt))} (${match.how})`] : [];
      compareViews(ctx, match.alt, ta, pointer, [...trail, ...step], depth + 1, optional);
    } else {
      ctx.out.push({
        kind: match.kind,
        pointer,
        ours: oAlts.map((a, j) => branchName(a, j)).join(' | '),
        theirs: name,
        oursAt: o.at,
        theirsAt: ta.at,
        note: [...trail, match.reason].join('; '),
        ...(o.excuses[match.kind] !== undefined ? { excused: o.excuses[match.kind] } : {}),
      });
    }
  });
}

type BranchMatch = { alt: SchemaView; how: string } | { kind: 'variant' | 'undecided'; reason: string };

function pickBranch(ctx: Context, ta: SchemaView, i: number, oAlts: SchemaView[], tAlts: SchemaView[]): BranchMatch {
  // One alternative of ours must accept every alternative of theirs.
  if (oAlts.length === 1) return { alt: oAlts[0]!, how: 'ours has one' };
  const prop = ta.tagProperty ?? oAlts.find((a) => a.tagProperty)?.tagProperty;
  if (prop) {
    const tTags = tagsOf(ctx.theirs, ta, prop);
    if (tTags.length > 0) {
      const oTags = oAlts.map((a) => tagsOf(ctx.ours, a, prop));
      const hit = oAlts.find((_, j) => oTags[j]!.some((x) => tTags.includes(x)));
      if (hit) return { alt: hit, how: `${prop} ${tTags.join('/')}` };
      if (oTags.every((x) => x.length > 0)) return { kind: 'variant', reason: `no branch of ours takes ${prop} ${tTags.join('/')}` };
    }
  }
  const byName = ta.refName ? oAlts.find((a) => a.refName === ta.refName) : undefined;
  if (byName) return { alt: byName, how: 'same name' };
  const tReq = [...ta.required].sort().join(',');
  if (tReq !== '') {
    const same = oAlts.filter((a) => [...a.required].sort().join(',') === tReq);
    if (same.length === 1) return { alt: same[0]!, how: `required ${tReq}` };
    const overlapping = oAlts.filter((a) => [...a.required].some((r) => ta.required.has(r)));
    if (overlapping.length === 1)
      return { alt: overlapping[0]!, how: `shares required ${[...ta.required].filter((r) => overlapping[0]!.required.has(r)).join(',')}` };
    const keyed = (alts: SchemaView[]) => alts.every((a) => a.required.size > 0);
    if (overlapping.length === 0 && keyed(oAlts) && keyed(tAlts)) return { kind: 'variant', reason: `no branch of ours requires any of ${tReq}` };
  }
  if (ta.types && ta.types.size > 0) {
    const typed = oAlts.filter((a) => a.types && [...ta.types!].every((x) => covers(a.types!, x)));
    if (typed.length === 1) return { alt: typed[0]!, how: `type ${typeList(ta.types)}` };
  }
  if (oAlts.length === tAlts.length) return { alt: oAlts[i]!, how: 'same position' };
  return { kind: 'undecided', reason: `cannot tell which of our ${oAlts.length} branches corresponds to their branch ${branchName(ta, i)}` };
}

/** The discriminator values a branch stands for: its own tags, or the one-value enum of the tag property. */
function tagsOf(doc: OpenApiDocument, view: SchemaView, prop: string): string[] {
  if (view.tags && view.tagProperty === prop) return view.tags;
  const nodes = view.properties.get(prop);
  if (!nodes) return [];
  const values = viewOf(doc, nodes).enum ?? [];
  return values.filter((v): v is string => typeof v === 'string');
}

function branchName(view: SchemaView, i: number): string {
  if (view.refName) return view.refName;
  if (view.tags) return `${view.tagProperty}=${view.tags.join('/')}`;
  if (view.required.size > 0 && view.required.size <= 2) return `{${[...view.required].join(',')}}`;
  return `#${i + 1}`;
}

function covers(types: Set<string>, t: string): boolean {
  return types.has(t) || (t === 'integer' && types.has('number'));
}

const typeList = (types: Set<string>) => (types.size === 0 ? 'nothing' : [...types].sort().join('|'));
const bound = (sign: '>' | '<', b: Bound) => `${sign}${b.exclusive ? '' : '='} ${b.value}`;

/** A schema node that accepts anything (the other side documents no schema). */
export const anything = (at: string): SchemaNode[] => [{ schema: {}, at }];
