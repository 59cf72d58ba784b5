// Requests that reach what they mean to: no path value a URL rewrites, no refusal demanded for a GET body a
// proxy may drop, and an invalid waiting parameter sent as broken (not replaced by the bounded wait).
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileSpec, invalidRequest, validRequest } from '../../generators/index.ts';
import { bounded } from '../../requirements/generic/request-values.ts';

const source = fileURLToPath(new URL('../fixtures/request-edges/api.yaml', import.meta.url));

describe('generated requests at the edges of HTTP', async () => {
  const spec = await compileSpec(source, { name: 'fixture' });
  const op = (id: string) => spec.catalog.byId.get(id)!;

  it('never give a path parameter the value "." or "..", which a URL removes', () => {
    const ids = fc.sample(validRequest(op('getItem'), spec.validators), { numRuns: 300, seed: 7 }).map((r) => r.pathParams.id);
    expect(ids).toContain('a');
    expect(ids.filter((id) => id === '.' || id === '..')).toEqual([]);
    const broken = fc.sample(invalidRequest(op('getItem'), spec.validators)!, { numRuns: 300, seed: 7 }).map((r) => r.pathParams.id);
    expect(broken.filter((id) => id === '.' || id === '..')).toEqual([]);
  });

  it('break the body of a GET but never ask for its refusal when it is left out', () => {
    const details = fc.sample(invalidRequest(op('listWithBody'), spec.validators)!, { numRuns: 100, seed: 7 }).map((r) => r.mutation?.detail ?? '');
    expect(details.some((d) => /body/.test(d))).toBe(true);
    expect(details.filter((d) => /body omitted/.test(d))).toEqual([]);
  });

  it('keep a waiting parameter broken when the break is the point, and bound it otherwise', () => {
    const stream = op('readStream');
    const broken = fc
      .sample(invalidRequest(stream, spec.validators)!, { numRuns: 50, seed: 7 })
      .find((r) => r.mutation?.parameter === 'stream_idle_timeout_ms')!;
    const sent = bounded(stream, broken).query.filter(([n]) => n === 'stream_idle_timeout_ms');
    expect(sent).toEqual(broken.query.filter(([n]) => n === 'stream_idle_timeout_ms'));
    expect(sent.map(([, v]) => v)).not.toContain('50');
    const valid = bounded(stream, { pathParams: {}, query: [['stream_idle_timeout_ms', '3600000']], headers: {} });
    expect(valid.query).toEqual([['stream_idle_timeout_ms', '50']]);
  });
});
