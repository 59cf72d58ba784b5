// Reduces ajv's errors of a failed oneOf/anyOf to the branch the value itself selects. ajv (allErrors) reports
// every error of every branch, so a ledger update missing one field deep inside its `Transaction` also shows
// "missing OffsetCheckpoint", "missing Reassignment", ... for the branches it never meant to be, and the real
// cause drowns. Only the reporting changes: which values are valid is decided by ajv before this runs.
import type { ErrorObject } from 'ajv';
import { isObject } from '../common/json.ts';

export interface UnionContext {
  /** How many errors ajv reports validating `data` against one branch (a schema object of the document). */
  countErrors(branch: unknown, data: unknown): number | undefined;
  /** The schema a local $ref ("#/components/...") names. */
  resolveRef(ref: string): unknown;
}

type Selection = { index: number } | { none: string };

/** The errors with each failed union's branch errors replaced by those of the branch the value selects. */
export function reduceUnionErrors(errors: readonly ErrorObject[], cxt: UnionContext): ErrorObject[] {
  const chunks: ErrorObject[][] = [];
  // ajv appends errors in evaluation order, so a union's error comes right after the errors of its branches.
  let end = errors.length;
  while (end > 0) {
    const e = errors[end - 1]!;
    const slices = isUnion(e) ? branchSlices(errors, end - 1, e, cxt) : undefined;
    if (!slices) {
      chunks.push([e]);
      end--;
      continue;
    }
    chunks.push(replaceUnion(e, slices.slices, cxt));
    end = slices.start;
  }
  return chunks.reverse().flat();
}

const isUnion = (e: ErrorObject) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && Array.isArray(e.schema);

const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);

/**
 * The errors of each branch, found by counting what each branch alone reports for the same value (a branch
 * is validated the same way inside the union as alone). Undefined when the counts do not line up.
 */
function branchSlices(errors: readonly ErrorObject[], at: number, e: ErrorObject, cxt: UnionContext) {
  // A oneOf stops at its second passing branch: the branches after it left no errors.
  const passing = passingBranches(e);
  const last = passing.length > 1 ? Math.max(...passing) : Number.POSITIVE_INFINITY;
  const counts: number[] = [];
  for (const [i, branch] of (e.schema as unknown[]).entries()) {
    const n = i > last ? 0 : cxt.countErrors(branch, e.data);
    if (n === undefined) return undefined;
    counts.push(n);
  }
  const start = at - counts.reduce((a, b) => a + b, 0);
  if (start < 0) return undefined;
  for (let i = start; i < at; i++) if (!under(errors[i]!.instancePath, e.instancePath)) return undefined;
  const slices: ErrorObject[][] = [];
  let from = start;
  for (const n of counts) {
    slices.push(errors.slice(from, from + n));
    from += n;
  }
  return { start, slices };
}

function replaceUnion(e: ErrorObject, slices: ErrorObject[][], cxt: UnionContext): ErrorObject[] {
  const branches = (e.schema as unknown[]).map((b) => shapeOf(b, cxt));
  const selection = select(branches, e.data);
  if (selection && 'index' in selection && slices[selection.index]!.length > 0) return reduceUnionErrors(slices[selection.index]!, cxt);
  if (selection && 'none' in selection) return [summary(e, selection.none)];
  const passing = passingBranches(e);
  if (passing.length > 1) {
    const labels = passing.map((i) => branchLabel(branches, i));
    return [summary(e, `matches ${passing.length} of the ${branches.length} branches (${labels.join(', ')}); exactly one must match`)];
  }
  // Nothing tells the branches apart: every branch's errors stay, each reduced on its own.
  return [...slices.flatMap((s) => reduceUnionErrors(s, cxt)), e];
}

function summary(e: ErrorObject, message: string): ErrorObject {
  return { ...e, message };
}

/** ajv nests the passing indexes of a oneOf as [[i, j], k]. */
function passingBranches(e: ErrorObject): number[] {
  const flat = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(flat) : typeof v === 'number' ? [v] : []);
  return e.keyword === 'oneOf' ? flat((e.params as { passingSchemas?: unknown }).passingSchemas) : [];
}

/** What a branch says about the value's JSON type, required keys and properties (through $ref and allOf). */
interface Shape {
  types?: string[];
  required: Set<string>;
  properties: Map<string, unknown>;
  title?: string;
}

function shapeOf(schema: unknown, cxt: UnionContext, shape: Shape = { required: new Set(), properties: new Map() }, depth = 0): Shape {
  if (!isObject(schema) || depth > 8) return shape;
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#')) shapeOf(cxt.resolveRef(schema.$ref), cxt, shape, depth + 1);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) shapeOf(part, cxt, shape, depth + 1);
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
  if (types) shape.types = shape.types ? shape.types.filter((t) => types.includes(t)) : types;
  if (Array.isArray(schema.required)) for (const k of schema.required) if (typeof k === 'string') shape.required.add(k);
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) if (!shape.properties.has(k)) shape.properties.set(k, v);
  if (shape.title === undefined && typeof schema.title === 'string') shape.title = schema.title;
  return shape;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function admits(shape: Shape, v: unknown): boolean {
  if (!shape.types) return true;
  const t = jsonType(v);
  return shape.types.some((s) => s === t || (s === 'integer' && Number.isInteger(v)) || (s === 'number' && t === 'number'));
}

/** The branch the value selects by its type, tag or keys; a one-line reason when it selects none; else undefined. */
function select(branches: Shape[], data: unknown): Selection | undefined {
  // By JSON type first: a nullable union is the union or null, and a value that is not null is judged as the union.
  const fitting = branches.flatMap((b, i) => (admits(b, data) ? [i] : []));
  if (fitting.length === 1) return { index: fitting[0]! };
  if (fitting.length === 0) {
    const expected = [...new Set(branches.flatMap((b) => b.types ?? []))];
    return expected.length ? { none: `matches none of the ${branches.length} branches: expected ${expected.join(' or ')}, got ${jsonType(data)}` } : undefined;
  }
  if (!isObject(data)) return undefined;
  return byTag(branches, data) ?? byKeys(branches, data);
}

/** One allowed value of a property (an enum of one, null aside, or a const), else undefined. */
function singleValue(schema: unknown): { value: unknown } | undefined {
  if (!isObject(schema)) return undefined;
  if ('const' in schema) return { value: schema.const };
  if (!Array.isArray(schema.enum)) return undefined;
  const values = schema.enum.filter((v) => v !== null);
  return values.length === 1 ? { value: values[0] } : undefined;
}

/** Branches told apart by one property holding a distinct fixed value in each (a discriminator or tag). */
function byTag(branches: Shape[], data: Record<string, unknown>): Selection | undefined {
  const candidates = [...(branches[0]?.properties.keys() ?? [])];
  for (const prop of candidates) {
    const values = branches.map((b) => singleValue(b.properties.get(prop)));
    if (values.some((v) => !v)) continue;
    const keys = values.map((v) => JSON.stringify(v!.value));
    if (new Set(keys).size !== keys.length) continue;
    const index = prop in data ? keys.indexOf(JSON.stringify(data[prop])) : -1;
    if (index >= 0) return { index };
    const got = prop in data ? `got ${JSON.stringify(data[prop])}` : `${prop} is missing`;
    return { none: `matches none of the ${branches.length} branches: expected ${prop} one of ${keys.join(', ')} (${got})` };
  }
  return undefined;
}

/** The required keys of a branch that no other branch requires. */
function ownKeys(branches: Shape[], i: number): string[] {
  return [...branches[i]!.required].filter((k) => branches.every((b, j) => j === i || !b.required.has(k)));
}

/** Branches told apart by keys only one of them requires (the ledger's {"Transaction": {...}} wrappers). */
function byKeys(branches: Shape[], data: Record<string, unknown>): Selection | undefined {
  const keys = branches.map((_, i) => ownKeys(branches, i));
  if (keys.some((k) => k.length === 0)) return undefined;
  const present = keys.flatMap((k, i) => (k.some((key) => key in data) ? [i] : []));
  if (present.length === 1) return { index: present[0]! };
  const n = branches.length;
  const label = (i: number) => keys[i]!.join('/');
  if (present.length === 0) return { none: `matches none of the ${n} branches: expected one of keys ${keys.map((_, i) => label(i)).join(', ')}` };
  return { none: `matches none of the ${n} branches: has the keys of ${present.length} of them (${present.map(label).join(', ')}); expected one` };
}

function branchLabel(branches: Shape[], i: number): string {
  const keys = ownKeys(branches, i);
  if (branches.every((_, j) => ownKeys(branches, j).length > 0)) return keys.join('/');
  return branches[i]!.title ?? `#${i}`;
}
