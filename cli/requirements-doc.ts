// docs/requirements.md, derived from the requirement records and the fault catalog: rule by rule, the id
// that enforces it, the operation it confirms (its positive requirement), and the faults that prove the check
// can fail (those that name it; a refusal's incidental failures prove nothing).
import { expectationLabels, expectedFailures, names } from '../detection/expectations.ts';
import type { DeviationDefinition, FaultDefinition } from '../reference-node/faults.ts';
import type { Requirement } from '../engine/model.ts';

/** `deviations`: the real-world deviations, whose SHOULD findings they prove. */
export function requirementsMarkdown(
  requirements: readonly Requirement[],
  faults: readonly FaultDefinition[],
  deviations: readonly DeviationDefinition[] = [],
): string {
  const expectations = faults.map((f) => ({ fault: f, expectation: expectedFailures(f, requirements) }));
  const provenBy = (id: string) => [
    ...expectations.filter((x) => names(x.expectation, id)).map((x) => x.fault.name),
    ...deviations.filter((d) => d.findings.includes(id)).map((d) => `${d.name} (deviation)`),
  ];
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '# Requirements',
    '',
    'Generated from the requirement records (`npx cn-conformance list --markdown`); do not edit by hand.',
    '',
    `${requirements.length} requirements: ${requirements.filter((r) => r.level === 'MUST').length} MUST, ${requirements.filter((r) => r.level === 'SHOULD').length} SHOULD. ` +
      `${faults.length} faults of the reference node prove that the checks fail when their rule is broken.`,
    '',
  ];
  for (const iface of ['ledger', 'wallet', 'scan'] as const) {
    const own = requirements.filter((r) => r.interface === iface);
    lines.push(
      `## ${iface}`,
      '',
      '| id | level | rule (section) | operations (and WebSocket channels) | confirms | changes target | defined in | proven by faults (or deviations) |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const r of own) {
      lines.push(
        `| ${r.id} | ${r.level} | ${cell(r.sentence)} (${cell(r.section)}) | ${[...r.operations, ...(r.channels ?? []).map((c) => `ws ${c}`)].join(', ')} | ${r.confirms ?? ''} | ${r.mutates ? 'yes' : ''} | \`${r.definedIn}\` | ${provenBy(r.id).join(', ')} |`,
      );
    }
    lines.push('');
  }
  lines.push('## Faults', '', '| fault | family | rule it breaks | caught by |', '|---|---|---|---|');
  for (const { fault: f, expectation } of expectations)
    lines.push(`| ${f.name} | ${f.family} | ${cell(f.breaks)} | ${expectationLabels(expectation).join(', ')} |`);
  return lines.join('\n') + '\n';
}
