// The spec-level part of a conformance run: every document loads, every validator compiles and every
// example of the document validates against its own schema.
import { compileSpec, SpecLoadError, formatIssues, type CompiledSpec } from '../generators/index.ts';

export interface SpecCheckResult {
  name: string;
  source: string;
  sha256?: string;
  openapi?: string;
  operations: number;
  validators: number;
  examplesChecked: number;
  failures: string[];
  /** Set when the document could not be used at all. */
  loadError?: string;
  millis: number;
}

/** The document's checks, and the compiled document itself when it is usable (compiled once per run). */
export async function checkSpec(name: string, source: string): Promise<SpecCheckResult & { spec?: CompiledSpec }> {
  const started = performance.now();
  try {
    const spec = await compileSpec(source, { name });
    const failures: string[] = [];
    let examplesChecked = 0;
    for (const op of spec.catalog.operations) {
      const media = [
        ...op.responses.flatMap((r) => r.content.map((m) => ({ where: `${op.id} ${r.status} ${m.contentType}`, m }))),
        ...(op.requestBody?.content ?? []).map((m) => ({ where: `${op.id} request ${m.contentType}`, m })),
      ];
      for (const { where, m } of media) {
        if (!m.schemaPointer || !/json/i.test(m.contentType)) continue;
        for (const ex of m.examples) {
          examplesChecked++;
          const r = spec.validators.validate(m.schemaPointer, ex.value);
          if (!r.valid) failures.push(`${where} example "${ex.name}": ${formatIssues(r)}`);
        }
      }
    }
    return {
      name, source, sha256: spec.loaded.sha256, openapi: spec.loaded.document.openapi,
      operations: spec.catalog.operations.length, validators: spec.validatorCount, examplesChecked, failures,
      millis: Math.round(performance.now() - started), spec,
    };
  } catch (error) {
    if (!(error instanceof SpecLoadError)) throw error;
    return { name, source, operations: 0, validators: 0, examplesChecked: 0, failures: [], loadError: error.message, millis: Math.round(performance.now() - started) };
  }
}
