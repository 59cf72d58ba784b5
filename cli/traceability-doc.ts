// docs/traceability.md, derived from the sentence lists (description/) and the requirement records:
// every normative sentence of the description with the requirements that enforce it, or why none can.
import type { Requirement } from '../engine/model.ts';
import type { SentenceSection } from '../description/model.ts';
import { standing } from '../traceability/model.ts';

export function traceabilityMarkdown(sections: readonly SentenceSection[], requirements: readonly Requirement[]): string {
  const all = sections.flatMap((s) => s.sentences);
  const count = (k: ReturnType<typeof standing>) => all.filter((s) => standing(s) === k).length;
  const levels = new Map(requirements.map((r) => [r.id, r.level]));
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '# Traceability',
    '',
    'Generated from the sentence lists in `description/` and the requirement records (`npx cn-conformance list --traceability`); do not edit by hand.',
    '',
    `${all.length} normative sentences of the description: ${count('enforced')} enforced by requirements, ${count('not checkable')} not checkable from outside a node (with the reason), ${count('gap')} gaps (checkable, no requirement yet).`,
    '',
  ];
  for (const section of sections) {
    lines.push(`## ${section.heading}`, '', '| no. | sentence | enforced by |', '|---|---|---|');
    for (const s of section.sentences) {
      const by =
        standing(s) === 'enforced'
          ? s.ids!.map((id) => `${id}${levels.get(id) === 'SHOULD' ? ' (SHOULD)' : ''}`).join(', ')
          : standing(s) === 'not checkable'
            ? `not checkable: ${cell(s.notCheckable!)}`
            : standing(s) === 'gap'
              ? `**gap**: ${cell(s.gap!)}`
              : '**unmapped**';
      lines.push(`| ${s.n} | ${cell(s.text)} | ${by} |`);
    }
    lines.push('');
  }
  return lines.join('\n') + '\n';
}
