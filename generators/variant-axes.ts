// The variants of an operation, as the description names them and the project's documents declare them
// (`x-cn-variants` on the operation): each axis has values, and each value says how an exchange shows it (a
// query parameter, a part of the request body, or a part of the answer, e.g. the record type a lookup returns).
// A rule of the operation holds on every value of every axis; which values a requirement exercised is
// classified from the exchanges it made (engine/answers/answer-log.ts), so it is observed, never declared.
//
//   x-cn-variants:
//     - axis: name-prefix
//       why: C.ans.2 (an optional filter of the same listing)
//       values:
//         absent: { query: name_prefix, present: false }
//         given: { query: name_prefix, present: true }
//
// A value is an object of conditions (all must hold) or a list of such objects (any may hold). A condition
// reads one place: `query` (a parameter's name), `body` or `answer` (a JSON pointer into the parsed JSON, `*`
// matching any key or index). It then asks `present` (true/false), `is` (equals), `in` (one of), or `size`
// (the number of keys or items, written `n`, `>=n` or `<=n`). With a wildcard a condition holds when it holds
// at one of the places. An exchange shows the first value whose conditions hold, or none on that axis.
import type { Json } from '../common/json.ts';
import type { OperationSpec } from './operation-catalog.ts';

export interface VariantCondition {
  query?: string;
  body?: string;
  answer?: string;
  present?: boolean;
  is?: Json;
  in?: Json[];
  size?: string;
}

export interface VariantAxis {
  axis: string;
  /** The sentence(s) of the description the axis comes from, and why its values are variants of one rule. */
  why: string;
  values: Array<{ value: string; when: VariantCondition[][] }>;
}

/** What an exchange shows, parsed once: the query parameters, the request body and the answer body. */
export interface VariantExchange {
  query: URLSearchParams;
  body: Json | undefined;
  answer: Json | undefined;
}

const PLACES = ['query', 'body', 'answer'] as const;
const TESTS = ['present', 'is', 'in', 'size'] as const;

/** The axes an operation declares (none when it declares none); a malformed declaration throws, naming it. */
export function variantAxes(op: OperationSpec): VariantAxis[] {
  const raw = op.extensions['x-cn-variants'];
  if (raw === undefined) return [];
  const fail = (what: string): never => {
    throw new Error(`${op.id}: x-cn-variants ${what}`);
  };
  if (!Array.isArray(raw)) return fail('is not a list');
  return raw.map((a: Record<string, unknown>, k) => {
    if (typeof a?.axis !== 'string' || typeof a.why !== 'string' || typeof a.values !== 'object' || a.values === null)
      return fail(`entry ${k} needs axis, why and values`);
    const values = Object.entries(a.values as Record<string, unknown>).map(([value, when]) => {
      const alternatives = (Array.isArray(when) ? when : [when]) as unknown[];
      const parsed = alternatives.map((alt) => {
        const conditions = Array.isArray(alt) ? alt : [alt];
        return conditions.map((c: Record<string, unknown>) => {
          const places = PLACES.filter((p) => typeof c?.[p] === 'string');
          if (places.length !== 1 || !TESTS.some((t) => t in c)) fail(`${a.axis}=${value}: a condition reads one place (query, body or answer) and tests it`);
          return c as VariantCondition;
        });
      });
      return { value, when: parsed };
    });
    if (values.length < 2) fail(`${a.axis} has fewer than two values`);
    return { axis: a.axis, why: a.why, values };
  });
}

/** The values at a JSON pointer, `*` standing for any key or index. */
function at(value: Json | undefined, pointer: string): Json[] {
  let here: Json[] = value === undefined ? [] : [value];
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    here = here.flatMap((v) => {
      if (v === null || typeof v !== 'object') return [];
      if (key === '*') return Object.values(v) as Json[];
      const next = (v as Record<string, Json>)[key];
      return next === undefined ? [] : [next];
    });
  }
  return here;
}

function sizeHolds(v: Json, size: string): boolean {
  if (v === null || typeof v !== 'object') return false;
  const n = Object.keys(v).length;
  const m = /^(>=|<=)?(\d+)$/.exec(size.trim());
  if (!m) return false;
  const bound = Number(m[2]);
  return m[1] === '>=' ? n >= bound : m[1] === '<=' ? n <= bound : n === bound;
}

function holds(c: VariantCondition, x: VariantExchange): boolean {
  const found: Json[] = c.query !== undefined ? x.query.getAll(c.query) : c.body !== undefined ? at(x.body, c.body) : at(x.answer, c.answer!);
  if (c.present !== undefined && c.present !== found.length > 0) return false;
  const eq = (a: Json, b: Json) => JSON.stringify(a) === JSON.stringify(b);
  if (c.is !== undefined && !found.some((v) => eq(v, c.is!))) return false;
  if (c.in !== undefined && !found.some((v) => c.in!.some((w) => eq(v, w)))) return false;
  if (c.size !== undefined && !found.some((v) => sizeHolds(v, c.size!))) return false;
  return true;
}

/** The value of each axis an exchange shows (an axis none of whose values holds is left out). */
export function classifyVariants(axes: readonly VariantAxis[], x: VariantExchange): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of axes) {
    const v = a.values.find((val) => val.when.some((conditions) => conditions.every((c) => holds(c, x))));
    if (v) out[a.axis] = v.value;
  }
  return out;
}

/**
 * Versions of one operation (`x-cn-version-of: family` on each, e.g. the holdings state's v0, v1 and v2):
 * the operationIds of each family among `ops`. A rule of one version holds on the others unless the
 * description tells them apart, so a record naming one names all, or says why not (Requirement.variants,
 * axis `version`, keyed by operationId).
 */
export const VERSION_AXIS = 'version';

export function versionFamilies(ops: Iterable<OperationSpec>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const op of ops) {
    const family = op.extensions['x-cn-version-of'];
    if (family === undefined) continue;
    if (typeof family !== 'string' || family === '') throw new Error(`${op.id}: x-cn-version-of is not a family name`);
    out.set(family, [...(out.get(family) ?? []), op.id]);
  }
  for (const [family, members] of out) if (members.length < 2) throw new Error(`x-cn-version-of ${family}: ${members[0]} is its only version`);
  return out;
}
