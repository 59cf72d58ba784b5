// docs/traceability.md, derived from the sentence lists (description/) and the requirement records that cite
// them: every normative sentence of the description with the requirements that enforce it, or why none can.
import type { Requirement } from '../engine/model.ts';
import type { SentenceSection } from '../description/model.ts';
import { citedBy, standing } from '../traceability/model.ts';

export function traceabilityMarkdown(sections: readonly SentenceSection[], requirements: readonly Requirement[]): string {
  const all = sections.flatMap((s) => s.sentences);
  const links = citedBy(requirements);
  const ids = (n: string) => links.get(n) ?? [];
  const count = (k: ReturnType<typeof standing>) => all.filter((s) => standing(s, ids(s.n)) === k).length;
  const levels = new Map(requirements.map((r) => [r.id, r.level]));
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '# Traceability',
    '',
    'Generated from the sentence lists in `description/` and the requirement records that cite them (`npx cn-conformance list --traceability`); do not edit by hand.',
    '',
    `${all.length} normative sentences of the description: ${count('enforced')} enforced by requirements, ${count('not checkable')} not checkable from outside a node (with the reason), ${count('gap')} gaps (checkable, no requirement yet).`,
    '',
  ];
  for (const section of sections) {
    lines.push(`## ${section.heading}`, '', '| no. | sentence | enforced by |', '|---|---|---|');
    for (const s of section.sentences) {
      const standingOf = standing(s, ids(s.n));
      const by =
        standingOf === 'enforced'
          ? ids(s.n)
              .map((id) => `${id}${levels.get(id) === 'SHOULD' ? ' (SHOULD)' : ''}`)
              .join(', ')
          : standingOf === 'not checkable'
            ? `not checkable: ${cell(s.notCheckable!)}`
            : standingOf === 'gap'
              ? `**gap**: ${cell(s.gap!)}`
              : '**unmapped**';
      lines.push(`| ${s.n} | ${cell(s.text)} | ${by} |`);
    }
    lines.push('');
  }
  return lines.join('\n') + '\n';
}
