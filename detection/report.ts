// reports/detection.json and reports/detection.md from one detection run: per fault the requirements that
// failed (expected or not), per requirement the faults that prove it, the scores, the rule families with
// their number of distinct faults, and the requirements no fault proves.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FaultDefinition } from '../reference-node/faults.ts';
import type { InterfaceName } from '../engine/model.ts';
import { isDetected, matchesExpectation, type DeviationOutcome, type DetectionScope, type MatrixRun, type RequirementInfo } from './matrix.ts';

const INTERFACES: readonly InterfaceName[] = ['ledger', 'wallet', 'scan'];

export interface Ratio {
  count: number;
  total: number;
}

export interface FaultRow {
  name: string;
  interface: InterfaceName;
  family: string;
  breaks: string;
  /** What the fault is expected to make fail (detection/expectations.ts): ids, and patterns of generic groups. */
  expected: string[];
  failed: string[];
  unexpected: string[];
  missed: string[];
  unmatchedPatterns: string[];
  /** Requirements that came out unsupported on the faulty node (a named one among them counts as missed). */
  unsupported: string[];
  detected: boolean;
  /** Exactly the named requirements failed. */
  exact: boolean;
}

export interface RequirementRow extends RequirementInfo {
  /** Faults (and deviations, for the SHOULD requirements that report them) whose node failed this requirement, as they named it. */
  provenBy: string[];
}

export interface DetectionReport {
  scope: DetectionScope;
  ok: boolean;
  clean: { ran: number; passed: boolean; notPassed: MatrixRun['clean']['notPassed'] };
  score: {
    faultsDetected: Ratio;
    faultsExact: Ratio;
    requirementsProven: Ratio;
    rulesProven: Ratio;
    genericProven: Ratio;
    byInterface: Record<InterfaceName, { faultsDetected: Ratio; rulesProven: Ratio; genericProven: Ratio; requirementsProven: Ratio }>;
  };
  faults: FaultRow[];
  /** Each real-world deviation: no MUST requirement may fail, exactly its findings (SHOULD) must. */
  deviations: DeviationOutcome[];
  requirements: RequirementRow[];
  /** Faults per family; ruleFamily is false when only checks derived from the documents notice its faults. */
  families: Array<{ interface: InterfaceName; family: string; ruleFamily: boolean; faults: string[] }>;
  unproven: RequirementInfo[];
}

const ratio = <T>(items: readonly T[], ok: (t: T) => boolean): Ratio => ({ count: items.filter(ok).length, total: items.length });

export function buildDetectionReport(run: MatrixRun, catalog: readonly FaultDefinition[]): DetectionReport {
  const byName = new Map(catalog.map((f) => [f.name, f]));
  const faults: FaultRow[] = run.outcomes.map((o) => ({
    name: o.fault,
    interface: o.interface,
    family: o.family,
    breaks: byName.get(o.fault)?.breaks ?? '',
    expected: o.expected,
    failed: o.failed,
    unexpected: o.unexpected,
    missed: o.missed,
    unmatchedPatterns: o.unmatchedPatterns,
    unsupported: o.unsupported,
    detected: isDetected(o),
    exact: matchesExpectation(o),
  }));
  const requirements: RequirementRow[] = run.requirements.map((r) => ({
    ...r,
    provenBy: [
      ...run.outcomes.filter((o) => o.failed.includes(r.id) && !o.unexpected.includes(r.id) && !o.incidental.includes(r.id)).map((o) => o.fault),
      ...run.deviations.filter((d) => d.ok && d.findings.includes(r.id)).map((d) => d.deviation),
    ],
  }));
  const proven = (r: RequirementRow) => r.provenBy.length > 0;
  const familyKey = (f: FaultRow) => `${f.interface}\u0000${f.family}`;
  const families = [...new Set(faults.map(familyKey))].sort().map((key) => {
    const [iface, family] = key.split('\u0000') as [InterfaceName, string];
    const own = faults.filter((f) => familyKey(f) === key);
    return { interface: iface, family, ruleFamily: own.some((f) => (byName.get(f.name)?.rules.length ?? 0) > 0), faults: own.map((f) => f.name) };
  });
  const byInterface = Object.fromEntries(
    INTERFACES.map((i) => {
      const own = requirements.filter((r) => r.interface === i);
      return [
        i,
        {
          faultsDetected: ratio(
            faults.filter((f) => f.interface === i),
            (f) => f.detected,
          ),
          rulesProven: ratio(
            own.filter((r) => r.kind === 'rule'),
            proven,
          ),
          genericProven: ratio(
            own.filter((r) => r.kind === 'generic'),
            proven,
          ),
          requirementsProven: ratio(own, proven),
        },
      ];
    }),
  ) as DetectionReport['score']['byInterface'];
  const cleanPassed = run.clean.notPassed.length === 0 && run.clean.ran === run.requirements.length;
  return {
    scope: run.scope,
    ok: cleanPassed && faults.every((f) => f.detected && f.exact) && run.deviations.every((d) => d.ok),
    clean: { ran: run.clean.ran, passed: cleanPassed, notPassed: run.clean.notPassed },
    score: {
      faultsDetected: ratio(faults, (f) => f.detected),
      faultsExact: ratio(faults, (f) => f.exact),
      requirementsProven: ratio(requirements, proven),
      rulesProven: ratio(
        requirements.filter((r) => r.kind === 'rule'),
        proven,
      ),
      genericProven: ratio(
        requirements.filter((r) => r.kind === 'generic'),
        proven,
      ),
      byInterface,
    },
    faults,
    deviations: run.deviations,
    requirements,
    families,
    unproven: requirements.filter((r) => !proven(r)).map(({ provenBy: _p, ...r }) => r),
  };
}

const pct = (r: Ratio) => (r.total === 0 ? '-' : `${r.count}/${r.total} (${Math.round((100 * r.count) / r.total)}%)`);
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const list = (xs: readonly string[]) => (xs.length ? xs.join(', ') : '');
/** Named requirements that did not fail, those that came out unsupported marked so. */
const missedShown = (f: FaultRow) => f.missed.map((id) => (f.unsupported.includes(id) ? `${id} (unsupported)` : id));

export function renderDetectionMarkdown(d: DetectionReport): string {
  const s = d.score;
  const lines = [
    '# Detection matrix',
    '',
    `Generated by \`npm run detection\`: the suite against the clean reference node, then against a node with each fault of its catalog (${d.scope === 'all' ? 'each fault with every requirement' : d.scope === 'interface' ? "each fault with its own interface's requirements" : "each fault with its own interface's requirements, a refusal with those calling its operation"}).`,
    '',
    `**Verdict: ${d.ok ? 'every fault detected, exactly as its record names' : 'NOT OK (see below)'}.**`,
    '',
    `- Clean run: ${d.clean.passed ? `all ${d.clean.ran} requirements passed` : `${d.clean.notPassed.length} of ${d.clean.ran} did not pass`}`,
    `- **Detection score: ${pct(s.faultsDetected)} faults detected**; ${pct(s.faultsExact)} failed exactly the requirements they name`,
    `- Requirements proven by at least one fault (or, for the SHOULD findings of real-world deviations, by a deviation): ${pct(s.requirementsProven)} (rules of the description ${pct(s.rulesProven)}, generic checks ${pct(s.genericProven)})`,
    `- Real-world deviations: ${d.deviations.filter((x) => x.ok).length}/${d.deviations.length} fail no MUST requirement and exactly their findings`,
    '',
    '| interface | faults detected | rules proven | generic checks proven | requirements proven |',
    '|---|---|---|---|---|',
    ...INTERFACES.map((i) => {
      const b = s.byInterface[i];
      return `| ${i} | ${pct(b.faultsDetected)} | ${pct(b.rulesProven)} | ${pct(b.genericProven)} | ${pct(b.requirementsProven)} |`;
    }),
    `| all | ${pct(s.faultsDetected)} | ${pct(s.rulesProven)} | ${pct(s.genericProven)} | ${pct(s.requirementsProven)} |`,
    '',
  ];
  if (!d.clean.passed) {
    lines.push('## Clean run: requirements that did not pass', '', ...d.clean.notPassed.map((r) => `- ${r.id} ${r.status}: ${cell(r.reason ?? '')}`), '');
  }
  const wrong = d.faults.filter((f) => !f.detected || !f.exact);
  if (wrong.length) {
    lines.push(
      '## Faults not matching their record',
      '',
      '| fault | undetected | unexpected failures | named but not failed | patterns matching nothing |',
      '|---|---|---|---|---|',
    );
    for (const f of wrong)
      lines.push(`| ${f.name} | ${f.detected ? '' : 'yes'} | ${list(f.unexpected)} | ${list(missedShown(f))} | ${list(f.unmatchedPatterns)} |`);
    lines.push('');
  }
  lines.push('## Faults and the requirements that caught them', '');
  for (const i of INTERFACES) {
    const own = d.faults.filter((f) => f.interface === i);
    lines.push(`### ${i} (${own.length} faults)`, '', '| fault | family | failed requirements | verdict |', '|---|---|---|---|');
    for (const f of own) {
      const failed = f.failed.map((id) => (f.unexpected.includes(id) ? `**${id} (unexpected)**` : id));
      const verdict = !f.detected ? 'undetected' : f.exact ? 'exact' : `named but not failed: ${list([...missedShown(f), ...f.unmatchedPatterns])}`;
      lines.push(`| ${f.name} | ${cell(f.family)} | ${failed.join(', ')} | ${verdict} |`);
    }
    lines.push('');
  }
  lines.push('## Real-world deviations', '', '| deviation | findings | failed | MUST requirements gone wrong | verdict |', '|---|---|---|---|---|');
  for (const x of d.deviations)
    lines.push(`| ${x.deviation} | ${list(x.findings)} | ${list(x.failed)} | ${cell(list(x.mustWrong))} | ${x.ok ? 'ok' : '**NOT OK**'} |`);
  lines.push('');
  lines.push('## Requirements and the faults that prove them', '');
  for (const i of INTERFACES) {
    const own = d.requirements.filter((r) => r.interface === i);
    lines.push(`### ${i} (${own.filter((r) => r.provenBy.length).length}/${own.length} proven)`, '', '| requirement | kind | proven by |', '|---|---|---|');
    for (const r of own) lines.push(`| ${r.id} | ${r.kind} | ${r.provenBy.length ? r.provenBy.join(', ') : '**none**'} |`);
    lines.push('');
  }
  lines.push('## Rule families and their distinct faults', '', '| interface | family | faults | names |', '|---|---|---|---|');
  for (const f of d.families)
    lines.push(`| ${f.interface} | ${cell(f.family)}${f.ruleFamily ? '' : ' (document checks only)'} | ${f.faults.length} | ${f.faults.join(', ')} |`);
  lines.push('', `## Requirements no fault (or deviation) proves (${d.unproven.length})`, '');
  if (d.unproven.length === 0) lines.push('None.');
  for (const i of INTERFACES) {
    const own = d.unproven.filter((r) => r.interface === i);
    if (own.length) lines.push(`- ${i}: ${own.map((r) => r.id).join(', ')}`);
  }
  return lines.join('\n') + '\n';
}

/** Writes detection.json and detection.md into `dir`; returns their paths. */
export async function writeDetectionReports(dir: string, d: DetectionReport): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'detection.json');
  const markdown = join(dir, 'detection.md');
  await writeFile(json, JSON.stringify(d, null, 2) + '\n');
  await writeFile(markdown, renderDetectionMarkdown(d));
  return { json, markdown };
}
