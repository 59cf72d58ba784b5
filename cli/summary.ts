// The console's account of a run: the verdict first (with how much was judged), the counts, why what was
// not judged was not, then every failure and error with the evidence to reproduce it.
import { type ConformanceReport, releasesLine } from '../reporting/model.ts';
import type { SpecCheckResult } from '../runner/documents.ts';
import { carriesExtras, redactUrl } from '../runner/redaction.ts';
import { originFor, type TargetConfig } from '../engine/target.ts';
import { reproduce } from '../engine/transport/evidence.ts';
import { dependentGroups, headline, notApplicableGroups, skipGroups, unsupportedGroups } from '../reporting/verdict.ts';
import type { WaiverNotes } from '../reporting/waivers.ts';

/** Skip-reason groups shown on the console; the rest is in report.json. */
const SHOWN_GROUPS = 12;

export function printSummary(report: ConformanceReport, waiverNotes: WaiverNotes, say: (line: string) => void): void {
  const j = report.judgement;
  const s = report.summary;
  say('Summary:');
  say(
    `  ${headline(report.verdict)}: ${j.judged} of ${j.selected} selected requirements judged (${s.passed} passed, ${s.failed} failed${s.waived ? `, ${s.waived} waived` : ''}${s.unsupported ? `; ${s.unsupported} unsupported` : ''}${s.notApplicable ? `; ${s.notApplicable} not applicable to the nodes' releases` : ''})${report.mode === 'certify' ? ' [certification run]' : ''}`,
  );
  for (const r of j.reasons) say(`    - ${r}`);
  for (const w of j.warnings) say(`    warning: ${w}`);
  if (j.operations)
    say(
      `  operations confirmed: ${j.operations.confirmed} of ${j.operations.total} (a valid request built from the target's data answered 2xx and judged)${j.operations.notApplicable?.length ? `; ${j.operations.notApplicable.length} not of the nodes' releases: ${j.operations.notApplicable.map((o) => o.operation.split(' (')[0]).join(', ')}` : ''}`,
    );
  const channels = report.channels ?? [];
  if (channels.length) {
    const judged = channels.filter((c) => c.judged > 0);
    const not = channels.find((c) => c.judged === 0 && c.requirements > 0);
    say(
      `  WebSocket channels judged: ${judged.length} of ${channels.length} (${judged.map((c) => c.channel).join(', ') || 'none'})${not?.notJudged ? `; not judged: ${not.notJudged}` : ''}`,
    );
  }
  if (report.releases?.length) say(`  releases the nodes state: ${releasesLine(report.releases)}`);
  for (const j of report.judgedBy ?? []) if (j.warning) say(`    warning: ${j.warning}`);
  for (const n of report.applicability) say(`    by release: ${n}`);
  for (const iface of ['ledger', 'wallet', 'scan'] as const) {
    for (const level of ['MUST', 'SHOULD'] as const) {
      const rs = report.requirements.filter((r) => r.interface === iface && r.level === level);
      if (rs.length === 0) continue;
      const count = (status: string) => rs.filter((r) => r.status === status).length;
      const extra = [
        count('unsupported') ? `${count('unsupported')} unsupported` : '',
        count('not-applicable') ? `${count('not-applicable')} not applicable` : '',
        count('waived') ? `${count('waived')} waived` : '',
        count('error') ? `${count('error')} error` : '',
      ]
        .filter(Boolean)
        .map((x) => `, ${x}`)
        .join('');
      const dependent = rs.filter((r) => r.skipKind === 'depends').length;
      say(
        `  ${iface.padEnd(8)} ${level.padEnd(6)} ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped${dependent ? ` (${dependent} after a failure)` : ''}${extra}`,
      );
    }
  }
  const dependent = dependentGroups(report.requirements);
  if (dependent.length) {
    say(`Not judged: depends on a failed requirement: ${s.dependent} (skipped because of a failure below, not for want of data), by failure:`);
    for (const g of dependent.slice(0, SHOWN_GROUPS))
      say(`  ${String(g.ids.length).padStart(4)}  after ${g.failed.join(', ')} failed  (${g.ids.slice(0, 3).join(', ')}${g.ids.length > 3 ? ', ...' : ''})`);
    if (dependent.length > SHOWN_GROUPS) say(`        ... ${dependent.length - SHOWN_GROUPS} more in report.json (dependsOn of each requirement)`);
  }
  const groups = skipGroups(report.requirements);
  if (groups.length) {
    say(`Not judged (${s.skipped - s.dependent} skipped${s.dependent ? ' for other reasons' : ''}), by reason:`);
    for (const g of groups.slice(0, SHOWN_GROUPS))
      say(`  ${String(g.ids.length).padStart(4)}  ${g.reason}  (${g.ids.slice(0, 3).join(', ')}${g.ids.length > 3 ? ', ...' : ''})`);
    if (groups.length > SHOWN_GROUPS) say(`        ... ${groups.length - SHOWN_GROUPS} more reasons in report.json`);
  }
  const unserved = unsupportedGroups(report.requirements);
  if (unserved.length) {
    say(`Not served by the target (${s.unsupported} unsupported, not failed), by operation:`);
    for (const g of unserved.slice(0, SHOWN_GROUPS))
      say(`  ${String(g.ids.length).padStart(4)}  ${g.operations}  (${g.ids.slice(0, 3).join(', ')}${g.ids.length > 3 ? ', ...' : ''})`);
    if (unserved.length > SHOWN_GROUPS)
      say(`        ... ${unserved.length - SHOWN_GROUPS} more operations in report.json (each with the answer that showed it)`);
  }
  const inapplicable = notApplicableGroups(report.requirements);
  if (inapplicable.length) {
    say(`Not applicable to the releases the nodes state (${s.notApplicable}; nothing of those releases left unjudged), by reason:`);
    for (const g of inapplicable)
      say(`  ${String(g.ids.length).padStart(4)}  ${g.reason}  (${g.ids.slice(0, 3).join(', ')}${g.ids.length > 3 ? ', ...' : ''})`);
  }
  const unconfirmed = j.operations?.unconfirmed ?? [];
  if (unconfirmed.length) {
    say(`Operations not confirmed (${unconfirmed.length}${report.mode === 'certify' ? '; a certification needs every one' : ''}):`);
    for (const u of unconfirmed.slice(0, SHOWN_GROUPS)) say(`  ${u.operation}: ${u.why.length > 200 ? `${u.why.slice(0, 200)}...` : u.why}`);
    if (unconfirmed.length > SHOWN_GROUPS) say(`        ... ${unconfirmed.length - SHOWN_GROUPS} more in report.json (judgement.operations)`);
  }
  if (j.unjudgedMust?.length)
    say(
      `Certification: ${j.unjudgedMust.length} MUST requirement(s) of the targeted interfaces not judged, e.g. ${j.unjudgedMust
        .slice(0, 3)
        .map((u) => `${u.id} (${u.why})`)
        .join('; ')}`,
    );
  const failed = report.requirements.filter((x) => x.status === 'failed');
  for (const r of failed) {
    // A SHOULD failure is a finding: a warning that never changes the verdict.
    say(`  ${r.level === 'SHOULD' ? 'WARN' : 'FAIL'} ${r.id} [${r.level}] ${r.reason}`);
    if (r.evidence?.exchange) say(`       ${reproduce(r.evidence.exchange)}`);
    if (r.evidence?.property)
      say(`       fast-check seed ${r.evidence.property.seed} path ${r.evidence.property.path ?? '-'}: ${r.evidence.property.counterexample.slice(0, 200)}`);
  }
  const variables = new Set(failed.flatMap((r) => (r.evidence?.exchange ? reproduce(r.evidence.exchange).match(/\$CN_CONFORMANCE_[A-Z_]+/g) : null) ?? []));
  if (variables.size)
    say(
      `  (curl lines read credentials from the environment: export ${[...variables]
        .map((v) => v.slice(1))
        .sort()
        .join(', ')} before pasting them)`,
    );
  const created = report.requirements.flatMap((r) => (r.created ?? []).map((c) => `${r.id}: ${c}`));
  if (created.length) {
    say(`Created on the target by this run (${created.length}):`);
    for (const c of created) say(`  ${c}`);
  }
  for (const r of report.requirements.filter((x) => x.status === 'error'))
    say(`  ERROR ${r.id}: ${r.reason} (stack in report.json; please report this bug of the suite)`);
  for (const r of report.requirements.filter((x) => x.status === 'waived')) say(`  WAIVED ${r.id}: ${r.reason}`);
  for (const w of waiverNotes.expired) say(`  waiver EXPIRED on ${w.expires} for ${w.id} (${w.reason}): the failure counts again; renew or remove it`);
  for (const w of waiverNotes.stale) say(`  waiver no longer needed for ${w.id}: it passes; remove the waiver`);
  for (const w of waiverNotes.unknown) say(`  waiver for ${w.id} unused: the requirement was not selected in this run`);
}

export function printSpecChecks(checks: readonly SpecCheckResult[]): void {
  console.log('Spec-level checks:');
  for (const r of checks) {
    if (r.loadError) console.log(`  ${r.name.padEnd(8)} UNUSABLE  ${redactUrl(r.loadError)}`);
    else if (r.asyncapi)
      console.log(
        `  ${r.name.padEnd(8)} AsyncAPI ${r.asyncapi}  ${r.channels} channels  ${r.validators} validators  ${r.examplesChecked} examples  ${r.failures.length} failed  (${r.millis} ms)`,
      );
    else
      console.log(
        `  ${r.name.padEnd(8)} OpenAPI ${r.openapi}  ${r.operations} operations  ${r.validators} validators  ${r.examplesChecked} examples  ${r.failures.length} failed  (${r.millis} ms)`,
      );
    for (const f of r.failures) console.log(`    FAIL ${f}`);
    for (const w of r.warnings) console.log(`    WARN ${w}`);
  }
}

/** Prints where each interface is (URLs without their secrets) and returns that account for the report. */
export function printTargets(target: TargetConfig, embedded: boolean, say: (line: string) => void): Record<string, string> {
  const targets: Record<string, string> = {};
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    const t = target[name];
    targets[name] = t ? (embedded ? `embedded reference node ${t.url}` : redactUrl(t.url)) : 'not given';
  }
  say('Targets:');
  for (const [name, t] of Object.entries(targets)) say(`  ${name.padEnd(8)} ${t}`);
  for (const name of ['ledger', 'wallet', 'scan'] as const) {
    const t = target[name];
    if (t && carriesExtras(t.url))
      say(
        `  note: credentials and query parameters in the ${name} URL are not sent; requests go to ${originFor(name, t.url)} (give tokens with the token options)`,
      );
  }
  return targets;
}
