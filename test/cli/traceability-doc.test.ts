// docs/traceability.md: every normative sentence of the description, numbered, with the requirements that
// cite it or the reason none can; the links are read from the records' citations, checked here, and the
// document regenerated from them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recordedProof, traceabilityMarkdown } from '../../cli/traceability-doc.ts';
import { SENTENCE_SECTIONS } from '../../description/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import { citedBy, standing } from '../../traceability/model.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

const sentences = SENTENCE_SECTIONS.flatMap((s) => s.sentences);

describe('docs/traceability.md', () => {
  it('is what the sentence lists, the citing records and faults and traceability/proof.json generate (regenerate with: npx cn-conformance list --traceability > docs/traceability.md)', async () => {
    const generated = traceabilityMarkdown(SENTENCE_SECTIONS, catalog(await loadedSpecs()), recordedProof());
    expect(readFileSync(new URL('../../docs/traceability.md', import.meta.url), 'utf8')).toBe(generated);
  });

  it('maps every sentence: cited by a requirement, or with the reason it cannot be checked, or with a named gap', async () => {
    const links = citedBy(catalog(await loadedSpecs()));
    expect(sentences.filter((s) => standing(s, links.get(s.n)) === 'unmapped').map((s) => s.n)).toEqual([]);
    // One standing only: a sentence a requirement enforces is not also called uncheckable, nor a gap.
    expect(sentences.filter((s) => [links.has(s.n), s.notCheckable, s.gap].filter(Boolean).length > 1).map((s) => s.n)).toEqual([]);
  });

  it('numbers sentences uniquely within their section', () => {
    const numbers = sentences.map((s) => s.n);
    expect(numbers.filter((n, i) => numbers.indexOf(n) !== i)).toEqual([]);
    for (const section of SENTENCE_SECTIONS) for (const s of section.sentences) expect(s.n.startsWith(`${section.key}.`), s.n).toBe(true);
  });

  it('has every rule cite at least one sentence, and every sentence not marked uncheckable or a gap cited by a record that exists', async () => {
    const requirements = catalog(await loadedSpecs());
    expect(requirements.filter((r) => r.kind === 'rule' && r.cites.length === 0).map((r) => r.id)).toEqual([]);
    const cited = new Set(requirements.flatMap((r) => r.cites));
    expect(sentences.filter((s) => !s.notCheckable && !s.gap && !cited.has(s.n)).map((s) => s.n)).toEqual([]);
    // Every number cited is a sentence's (the builder refuses any other at load).
    const numbers = new Set(sentences.map((s) => s.n));
    expect([...cited].filter((n) => !numbers.has(n))).toEqual([]);
  });
});
