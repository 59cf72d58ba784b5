// docs/traceability.md, derived from the sentence lists (description/), the requirement records that cite
// them and the faults that break them: every normative sentence of the description with the requirements
// that enforce it, or why none can, and whether a fault breaking it was caught by those requirements.
import type { Requirement } from '../engine/model.ts';
import type { Sentence, SentenceSection } from '../description/model.ts';
import { citedBy, standing } from '../traceability/model.ts';
import { faultProof, provenBy, readProof, REGENERATE_PROOF, type CitingFault, type ProofRecord } from '../traceability/proof.ts';
import { BLIND_FAULTS, FAULT_CATALOG } from '../reference-node/faults.ts';

/** The faults (catalog, then blind) with the sentences they cite, and what the detection runs recorded of them. */
export interface SentenceProof {
  faults: readonly CitingFault[];
  caught: ProofRecord['faults'];
}

/** The faults of the catalog and the blind rounds, with what traceability/proof.json recorded of them. */
export const recordedProof = (): SentenceProof => ({ faults: [...FAULT_CATALOG, ...BLIND_FAULTS], caught: readProof().faults });

/** At most this many names are shown in a cell; the rest are counted. */
const NAMED = 3;
const someOf = (names: readonly string[]) => `${names.slice(0, NAMED).join(', ')}${names.length > NAMED ? ` and ${names.length - NAMED} more` : ''}`;

export function traceabilityMarkdown(sections: readonly SentenceSection[], requirements: readonly Requirement[], proof: SentenceProof): string {
  const all = sections.flatMap((s) => s.sentences);
  const links = citedBy(requirements);
  const ids = (n: string) => links.get(n) ?? [];
  const proven = provenBy(proof.faults, proof.caught, requirements);
  const count = (sentences: readonly Sentence[], k: ReturnType<typeof standing>) => sentences.filter((s) => standing(s, ids(s.n)) === k).length;
  const provenCount = (sentences: readonly Sentence[]) => sentences.filter((s) => standing(s, ids(s.n)) === 'enforced' && proven.has(s.n)).length;
  const levels = new Map(requirements.map((r) => [r.id, r.level]));
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const outcome = new Map(proof.faults.map((f) => [f.name, faultProof(f, proof.caught, proven)]));
  const ofOutcome = (k: ReturnType<typeof faultProof>) => proof.faults.filter((f) => outcome.get(f.name) === k);
  const lines = [
    '# Traceability',
    '',
    'Generated from the sentence lists in `description/`, the requirement records that cite them, the faults that cite the sentences they break and `traceability/proof.json` (`npx cn-conformance list --traceability`); do not edit by hand.',
    '',
    `${all.length} normative sentences of the description: ${count(all, 'enforced')} enforced by requirements, **${provenCount(all)} of them proven**, ${count(all, 'not checkable')} not checkable from outside a node (with the reason), ${count(all, 'gap')} gaps (checkable, no requirement yet).`,
    '',
    'A sentence is enforced when a requirement cites it; it is proven when a fault that breaks it (a fault of the catalog, `reference-node/{ledger,wallet,scan}/`, or a blind fault, `reference-node/blind/`, each citing the sentences it breaks) is caught by a requirement that cites it.',
    `What caught each fault is recorded in \`traceability/proof.json\` by the detection runs (regenerate: ${REGENERATE_PROOF}); ${proof.faults.length - ofOutcome('not run').length} of ${proof.faults.length} faults have a record.`,
    '',
    '| section | sentences | enforced | proven |',
    '|---|---|---|---|',
    ...sections.map((s) => `| ${cell(s.heading)} | ${s.sentences.length} | ${count(s.sentences, 'enforced')} | ${provenCount(s.sentences)} |`),
    `| all | ${all.length} | ${count(all, 'enforced')} | ${provenCount(all)} |`,
    '',
  ];
  for (const section of sections) {
    lines.push(
      `## ${section.heading}`,
      '',
      `${count(section.sentences, 'enforced')} of ${section.sentences.length} enforced, ${provenCount(section.sentences)} proven.`,
      '',
      '| no. | sentence | enforced by | proven by |',
      '|---|---|---|---|',
    );
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
      const faults = proven.get(s.n) ?? [];
      const provenBy = standingOf !== 'enforced' ? '' : faults.length === 0 ? '**not proven**' : someOf(faults);
      lines.push(`| ${s.n} | ${cell(s.text)} | ${by} | ${provenBy} |`);
    }
    lines.push('');
  }
  // The faults that prove none of their sentences: their citation, or the requirements' citations, or the checks need a look.
  const idle = [...ofOutcome('not caught'), ...ofOutcome('caught elsewhere')];
  lines.push(
    `## Faults that prove none of the sentences they cite (${idle.length})`,
    '',
    'Not caught at all, or caught only by requirements that cite none of the sentences the fault breaks.',
    '',
  );
  if (idle.length === 0) lines.push('None.', '');
  else {
    lines.push('| fault | cites | failed requirements |', '|---|---|---|');
    for (const f of idle) lines.push(`| ${f.name} | ${f.cites.join(', ')} | ${someOf(proof.caught[f.name]!) || 'none: not caught'} |`);
    lines.push('');
  }
  return lines.join('\n') + '\n';
}
