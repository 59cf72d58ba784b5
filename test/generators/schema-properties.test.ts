// For every schema of the three documents: generated valid values validate, generated invalid variants
// do not, and a schema yields no invalid variant only when it admits every JSON value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssues, invalidValue, validValue } from '../../generators/index.ts';
import { builtinSpec, BUILTIN_NAMES } from '../support/builtin-specs.ts';

const RUNS = 30;
const SEED = 20261121;
const ANNOTATION_ONLY = new Set(['description', 'title', 'default', 'examples', 'readOnly', 'writeOnly']);

for (const name of BUILTIN_NAMES) {
  const spec = await builtinSpec(name);
  const { validators } = spec;
  describe(`${name}: every schema`, () => {
    it.each(validators.converted.schemaLocations)('%s', (ptr) => {
      const schema = validators.schemaAt(ptr);
      fc.assert(
        // A generated value keeps the structure; the record facts inside a record are record-facts.test.ts's.
        fc.property(validValue(validators.document, schema), (value) => {
          const r = validators.variant({ structureOnly: true }).validate(ptr, value);
          if (!r.valid) throw new Error(`generated valid value rejected: ${formatIssues(r)}\nvalue: ${JSON.stringify(value)}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      let variants = 0;
      fc.assert(
        fc.property(invalidValue(validators.document, schema), (bad) => {
          if (bad === null) return;
          variants++;
          if (validators.validate(ptr, bad.value).valid) throw new Error(`invalid variant accepted: ${JSON.stringify(bad.mutation)}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (variants === 0) {
        // Only an open schema ("not shown" in the description) may offer nothing to break.
        const constraining = Object.keys(schema as object).filter((k) => !ANNOTATION_ONLY.has(k));
        expect(constraining, `${ptr} has constraints but no invalid variant`).toEqual([]);
      }
    });
  });
}
