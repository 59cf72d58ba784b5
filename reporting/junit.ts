// junit.xml: one test case per requirement, one suite per interface, for CI systems. Each suite carries the
// run's verdict as properties, so a CI view of one suite still says whether the run judged everything.
import type { ConformanceReport } from './model.ts';
import type { RequirementResult } from '../engine/engine.ts';
import { reproduce } from '../engine/transport/evidence.ts';
import { dependentGroups } from './verdict.ts';

/** Text safe in XML and HTML text and attributes (control characters XML forbids dropped). */
export const esc = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

export function renderJunit(report: ConformanceReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const s = report.summary;
  const j = report.judgement;
  const properties = [
    ['verdict', report.verdict],
    ['mode', report.mode],
    ['judged', String(j.judged)],
    ['selected', String(j.selected)],
    ...(j.operations
      ? [
          ['operations-confirmed', `${j.operations.confirmed} of ${j.operations.total}`],
          ...j.operations.unconfirmed.map((u) => ['operation-unconfirmed', `${u.operation}: ${u.why}`]),
        ]
      : []),
    ...j.reasons.map((r) => ['verdict-reason', r]),
    // Skips a failure explains, apart from those for want of data: fixing the failure judges them.
    ...dependentGroups(report.requirements).map((g) => [
      'depends-on-failure',
      `${g.ids.length} skipped after ${g.failed.join(', ')} failed: ${g.ids.join(', ')}`,
    ]),
    ...j.warnings.map((w) => ['warning', w]),
  ];
  lines.push(
    `<testsuites name="cn-conformance" tests="${s.total}" failures="${mustFailed(report.requirements)}" errors="${s.error}" skipped="${s.skipped + s.unsupported + s.notApplicable + s.waived}" time="${seconds(report.requirements.reduce((t, r) => t + r.durationMs, 0))}">`,
  );
  for (const iface of Object.keys(s.byInterface)) {
    const rs = report.requirements.filter((r) => r.interface === iface);
    const c = s.byInterface[iface]!;
    lines.push(
      `  <testsuite name="${esc(iface)}" tests="${c.total}" failures="${mustFailed(rs)}" errors="${c.error}" skipped="${c.skipped + c.unsupported + c.notApplicable + c.waived}" time="${seconds(rs.reduce((t, r) => t + r.durationMs, 0))}">`,
    );
    lines.push('    <properties>');
    for (const [name, value] of properties) lines.push(`      <property name="${esc(name!)}" value="${esc(value!)}"/>`);
    lines.push('    </properties>');
    for (const r of rs) {
      lines.push(`    <testcase classname="${esc(`${iface}.${r.level}`)}" name="${esc(r.id)}" time="${seconds(r.durationMs)}">`);
      if (r.status === 'failed' && r.level === 'SHOULD') {
        // A SHOULD finding is a warning: no failure for a CI gate to count, the finding in the test's output.
        const detail = [
          r.sentence,
          r.section,
          r.evidence?.exchange && reproduce(r.evidence.exchange),
          r.evidence?.pointer ? `pointer ${r.evidence.pointer}` : undefined,
        ]
          .filter(Boolean)
          .join('\n');
        lines.push(`      <system-out>${esc(`WARNING (SHOULD finding; the verdict does not change): ${r.reason ?? ''}\n${detail}`)}</system-out>`);
      } else if (r.status === 'failed') {
        const detail = [
          r.sentence,
          r.section,
          r.evidence?.exchange && reproduce(r.evidence.exchange),
          r.evidence?.pointer ? `pointer ${r.evidence.pointer}` : undefined,
          r.evidence?.property ? `fast-check seed ${r.evidence.property.seed} path ${r.evidence.property.path ?? '-'}` : undefined,
        ]
          .filter(Boolean)
          .join('\n');
        lines.push(`      <failure message="${esc(r.reason ?? 'failed')}">${esc(detail)}</failure>`);
      } else if (r.status === 'error') {
        lines.push(`      <error message="${esc(r.reason ?? 'error')}">${esc(r.stack ?? '')}</error>`);
      } else if (r.status === 'unsupported') {
        // Not judged, never a failure: the target does not serve the operation. The message says which it is.
        const detail = [r.sentence, r.section, r.evidence?.exchange && reproduce(r.evidence.exchange)].filter(Boolean).join('\n');
        lines.push(`      <skipped message="${esc(`unsupported: ${r.reason ?? ''}`)}">${esc(detail)}</skipped>`);
      } else if (r.status === 'not-applicable') {
        lines.push(`      <skipped message="${esc(r.reason ?? 'not applicable')}"/>`);
      } else if (r.status === 'skipped' || r.status === 'waived') {
        lines.push(`      <skipped message="${esc(r.reason ?? 'skipped')}"/>`);
      }
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Failures as a CI gate counts them: MUST only (a SHOULD finding is a warning, see above). */
const mustFailed = (rs: readonly RequirementResult[]) => rs.filter((r) => r.status === 'failed' && r.level === 'MUST').length;
