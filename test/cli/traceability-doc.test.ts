// docs/traceability.md: every normative sentence of the description, numbered, with the requirements that
// enforce it or the reason none can; the list is checked here, the document regenerated from it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { traceabilityMarkdown } from '../../cli/traceability-doc.ts';
import { catalog } from '../../requirements/catalog.ts';
import { standing } from '../../traceability/model.ts';
import { SENTENCE_SECTIONS } from '../../description/index.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

const sentences = SENTENCE_SECTIONS.flatMap((s) => s.sentences);

describe('docs/traceability.md', () => {
  it('is what the sentence lists generate (regenerate with: npx cn-conformance list --traceability > docs/traceability.md)', async () => {
    const generated = traceabilityMarkdown(SENTENCE_SECTIONS, catalog(await loadedSpecs()));
    expect(readFileSync(new URL('../../docs/traceability.md', import.meta.url), 'utf8')).toBe(generated);
  });

  it('maps every sentence: to requirements, to the reason it cannot be checked, or to a named gap', () => {
    expect(sentences.filter((s) => standing(s) === 'unmapped').map((s) => s.n)).toEqual([]);
    // One standing only: a sentence enforced is not also called uncheckable.
    expect(sentences.filter((s) => [s.ids?.length, s.notCheckable, s.gap].filter(Boolean).length > 1).map((s) => s.n)).toEqual([]);
  });

  it('numbers sentences uniquely within their section, and names only requirements that exist', async () => {
    const numbers = sentences.map((s) => s.n);
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
    for (const section of SENTENCE_SECTIONS) for (const s of section.sentences) expect(s.n.startsWith(`${section.key}.`), s.n).toBe(true);
    const ids = new Set(catalog(await loadedSpecs()).map((r) => r.id));
    expect(sentences.flatMap((s) => s.ids ?? []).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('traces every rule requirement of the description to a sentence it enforces', async () => {
    const traced = new Set(sentences.flatMap((s) => s.ids ?? []));
    const rules = catalog(await loadedSpecs()).filter((r) => !r.id.startsWith('GENERIC-'));
    expect(rules.filter((r) => !traced.has(r.id)).map((r) => r.id)).toEqual([]);
  });
});
