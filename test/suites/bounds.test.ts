// Boundary closure (description/bounds.ts): every numeric bound the description states and every bound the
// built-in documents put on a request is in the table, each probed at the bound, one below and one above by
// requirements of its operations that cite it (or its side says why it is open); every paged operation (its
// 200 answer carries next_page_token) has walks ending on a partial and on an exactly full last page.
//
// The table is held to the records statically, which is cheap. Once the `variants` library can tell which
// requests each requirement sent in a clean run, the sides' `by` should be checked against what was sent too
// (a requirement named for a side but never sending its probe would then fail here).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isProbed, LIMITS_WITHOUT_BOUND, PAGED_OPERATIONS, type SpecBound, STATED_BOUNDS } from '../../description/bounds.ts';
import { unknownSentences } from '../../description/cite.ts';
import { SENTENCE_SECTIONS } from '../../description/index.ts';
import { DESCRIPTION_REQUIREMENTS } from '../../requirements/catalog.ts';
import { endingPageSizes } from '../../engine/paging.ts';

type Node = Record<string, unknown>;
const BUILTIN = ['ledger-api', 'wallet-api', 'scan-api'];
const KEYWORDS = ['minimum', 'maximum', 'minItems', 'maxItems'] as const;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

const documents = BUILTIN.map((name) => parse(readFileSync(fileURLToPath(new URL(`../../specs/${name}.yaml`, import.meta.url)), 'utf8')) as Node);

/** A local $ref resolved (one level at a time, as often as needed). */
function resolve(doc: Node, v: unknown): Node | undefined {
  let n = v as Node | undefined;
  while (n && typeof n.$ref === 'string')
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((o, k) => (o as Node)?.[k], doc) as Node | undefined;
  return n;
}

function* operations(): Generator<{ doc: Node; id: string; op: Node }> {
  for (const doc of documents)
    for (const item of Object.values((doc.paths ?? {}) as Record<string, Node>))
      for (const m of METHODS) {
        const op = item[m] as Node | undefined;
        if (op && typeof op.operationId === 'string') yield { doc, id: op.operationId, op };
      }
}

const jsonSchema = (doc: Node, holder: unknown) =>
  resolve(doc, ((resolve(doc, holder)?.content as Node | undefined)?.['application/json'] as Node | undefined)?.schema);

/** The bounds the built-in documents put on requests: keywords on query parameters and on body fields. */
function specBounds(): string[] {
  const out: string[] = [];
  for (const { doc, id, op } of operations()) {
    for (const p of (op.parameters ?? []) as unknown[]) {
      const param = resolve(doc, p);
      const schema = resolve(doc, param?.schema);
      for (const k of KEYWORDS) if (schema?.[k] !== undefined) out.push(`${id} ${param?.in}.${param?.name} ${k}`);
    }
    const body = jsonSchema(doc, op.requestBody);
    for (const [field, s] of Object.entries((body?.properties ?? {}) as Record<string, unknown>)) {
      const schema = resolve(doc, s);
      for (const k of KEYWORDS) if (schema?.[k] !== undefined) out.push(`${id} body.${field} ${k}`);
    }
  }
  return out.sort();
}

/** Operations whose 200 answer carries a next_page_token. */
function pagedOperations(): string[] {
  const out: string[] = [];
  for (const { doc, id, op } of operations()) {
    const ok = jsonSchema(doc, (op.responses as Node | undefined)?.['200']);
    if (ok && 'next_page_token' in ((ok.properties ?? {}) as Node)) out.push(id);
  }
  return out.sort();
}

const byId = new Map(DESCRIPTION_REQUIREMENTS.map((r) => [r.id, r]));

/** Problems of naming `ids` for a probe of `operations` that cites one of `cites`. */
function probeProblems(what: string, ids: readonly string[], operations: readonly string[], cites: readonly string[]): string[] {
  if (ids.length === 0) return [`${what}: no requirement probes it`];
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [`${what}: ${id} is no requirement`];
    const missing = operations.filter((o) => !r.operations.includes(o));
    return [
      ...(missing.length ? [`${what}: ${id} does not name operation(s) ${missing.join(', ')}`] : []),
      ...(r.cites.some((c) => cites.includes(c)) ? [] : [`${what}: ${id} cites none of ${cites.join(', ')}`]),
    ];
  });
}

describe('boundary closure', () => {
  it('every sentence of the Limits section is a stated bound or says why it is none', () => {
    const limits = SENTENCE_SECTIONS.filter((s) => s.key === 'X.limits').flatMap((s) => s.sentences.map((x) => x.n));
    expect(limits.length).toBeGreaterThan(3);
    const cited = new Set(STATED_BOUNDS.flatMap((b) => b.cites));
    expect(limits.filter((n) => !cited.has(n) && !(n in LIMITS_WITHOUT_BOUND))).toEqual([]);
    expect(Object.keys(LIMITS_WITHOUT_BOUND).filter((n) => cited.has(n))).toEqual([]);
    expect(unknownSentences([...cited, ...Object.keys(LIMITS_WITHOUT_BOUND), ...PAGED_OPERATIONS.flatMap((p) => p.cites)])).toEqual([]);
  });

  it('every bound the built-in documents put on a request is stated in the table, and only those', () => {
    const stated = STATED_BOUNDS.flatMap((b) => b.spec ?? []).map((s: SpecBound) => `${s.operation} ${s.field} ${s.keyword}`);
    expect(stated.sort()).toEqual(specBounds());
  });

  it('every stated bound is probed at it, one below and one above, by requirements of its operations citing it (or says why a side is open)', () => {
    const ids = STATED_BOUNDS.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    const problems = STATED_BOUNDS.flatMap((b) =>
      (['below', 'at', 'above'] as const).flatMap((side) => {
        const s = b.sides[side];
        if (!isProbed(s)) return s.open.length > 10 ? [] : [`${b.id} ${side}: an open side says why`];
        return probeProblems(`${b.id} ${side} (${s.probe})`, s.by, b.operations, b.cites);
      }),
    );
    expect(problems).toEqual([]);
  });

  it('every paged operation has walks ending on a partial and on an exactly full last page', () => {
    expect(PAGED_OPERATIONS.map((p) => p.operation).sort()).toEqual(pagedOperations());
    const problems = PAGED_OPERATIONS.flatMap((p) => [
      ...probeProblems(`${p.operation} partial last page`, p.partial, [p.operation], p.cites),
      ...probeProblems(`${p.operation} exactly full last page`, p.exactlyFull, [p.operation], p.cites),
    ]);
    expect(problems).toEqual([]);
  });

  it('the walks chosen from a total end both ways: a divisor (exactly full) and a size that does not divide it (partial)', () => {
    for (const n of [1, 2, 7, 12, 200, 1009]) {
      const sizes = endingPageSizes(n, 16);
      expect(sizes, `${n}`).toContain(n);
      if (n > 1) expect(sizes.some((s) => n % s !== 0)).toBe(true);
      expect(sizes.every((s) => s >= 1 && Math.ceil(n / s) <= Math.max(16, 2))).toBe(true);
    }
    // Several pages ending exactly full where the total has a divisor in reach.
    expect(endingPageSizes(200, 16)).toEqual(expect.arrayContaining([100, 101, 199, 200, 201]));
  });
});
