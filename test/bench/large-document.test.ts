// The official documents are far larger than ours; a generated document of their size and shape must
// load, compile and generate just as well. (Its speed is measured by `npm run bench`, not here.)
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileSpec, formatIssues, invalidValue, validValue, type CompiledSpec } from '../../generators/index.ts';
import { makeLargeDocument, writeLargeDocument } from '../../bench/large-document.ts';

const dir = mkdtempSync(join(tmpdir(), 'cn-large-'));
const file = join(dir, 'large-ledger-like.json');
let spec: CompiledSpec;
let stats: ReturnType<typeof writeLargeDocument>;

beforeAll(async () => {
  stats = writeLargeDocument(file);
  spec = await compileSpec(file, { name: 'large' });
});

describe('a generated document the size and shape of the official ledger document', () => {
  it('is about 300 KB with about 250 schemas and over a hundred operations', () => {
    expect(stats.bytes).toBeGreaterThan(250_000);
    expect(stats.bytes).toBeLessThan(400_000);
    expect(stats.schemas).toBe(250);
    expect(stats.operations).toBeGreaterThan(100);
    expect(spec.catalog.operations.length).toBe(stats.operations);
  });

  it('has one-of wrappers, discriminators and recursive records', () => {
    const text = readFileSync(file, 'utf8');
    expect((text.match(/"oneOf"/g) ?? []).length).toBeGreaterThanOrEqual(10);
    expect(text).toContain('"discriminator"');
    const schemas = (spec.loaded.document.components!.schemas ?? {}) as Record<string, unknown>;
    const selfRecursive = Object.entries(schemas).filter(([n, s]) => JSON.stringify(s).includes(`"#/components/schemas/${n}"`));
    expect(selfRecursive.length).toBeGreaterThan(0);
  });

  it('compiles a validator for every schema location', () => {
    expect(spec.validatorCount).toBe(spec.validators.converted.schemaLocations.length);
    expect(spec.validatorCount).toBeGreaterThan(stats.schemas);
  });

  it('generates valid values and invalid variants for every component schema', () => {
    const names = Object.keys(spec.loaded.document.components!.schemas ?? {});
    let withInvalid = 0;
    for (const n of names) {
      const ptr = `/components/schemas/${n}`;
      const schema = spec.validators.schemaAt(ptr);
      for (const v of fc.sample(validValue(spec.validators.document, schema), { numRuns: 5, seed: 7 })) {
        const r = spec.validators.validate(ptr, v);
        expect(r.valid, `${n}: ${formatIssues(r)}`).toBe(true);
      }
      for (const bad of fc.sample(invalidValue(spec.validators.document, schema), { numRuns: 5, seed: 7 })) {
        if (!bad) continue;
        withInvalid++;
        expect(spec.validators.validate(ptr, bad.value).valid, `${n}: ${JSON.stringify(bad.mutation)}`).toBe(false);
      }
    }
    expect(withInvalid).toBeGreaterThan(names.length);
  });

  it('is byte-for-byte deterministic', () => {
    expect(JSON.stringify(makeLargeDocument())).toBe(JSON.stringify(makeLargeDocument()));
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(makeLargeDocument()) + '\n');
  });
});
