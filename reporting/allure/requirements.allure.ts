// Replays a finished report.json as one vitest test per requirement, so allure-vitest writes Allure
// results with the requirement's id, level and interface as labels. Nothing is checked here again: each
// test ends as the conformance run decided (passed, failed with its reason, skipped, unsupported or waived;
// the last two show as skipped, their message saying which).
import { readFileSync } from 'node:fs';
import * as allure from 'allure-js-commons';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../model.ts';
import { reproduction } from '../../engine/transport/evidence.ts';

const file = process.env.CN_CONFORMANCE_ALLURE_REPORT;
if (!file) throw new Error('CN_CONFORMANCE_ALLURE_REPORT is not set');
const report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;

const SEVERITY = { MUST: 'critical', SHOULD: 'normal' } as const;

for (const iface of [...new Set(report.requirements.map((r) => r.interface))]) {
  describe(iface, () => {
    for (const r of report.requirements.filter((x) => x.interface === iface)) {
      it(r.id, async (ctx) => {
        await allure.displayName(r.id);
        await allure.label('requirement', r.id);
        await allure.label('level', r.level);
        await allure.label('interface', r.interface);
        await allure.epic(r.interface);
        for (const op of r.operations) await allure.feature(op);
        await allure.story(r.section);
        await allure.severity(SEVERITY[r.level]);
        if (r.mutates) await allure.tag('mutates');
        // Allure keeps no reason for a skipped test, so the outcome goes into the description as well.
        const outcome = r.reason ? `\n\nOutcome: ${r.status}: ${r.reason}` : '';
        await allure.description(`${r.level}: ${r.sentence}\n\nSection: ${r.section}${outcome}`);
        await allure.parameter('seed', String(report.seed));
        // The run's verdict on every result, so a filtered Allure view still says whether the run judged everything.
        await allure.label('verdict', report.verdict);
        await allure.label('mode', report.mode);
        await allure.parameter('duration in the run (ms)', String(r.durationMs), { excluded: true });
        if (r.evidence) {
          await allure.attachment('evidence.json', JSON.stringify(r.evidence, null, 2), 'application/json');
          if (r.evidence.exchange) {
            const { tool, line } = reproduction(r.evidence.exchange);
            await allure.attachment(tool, line, 'text/plain');
          }
        }
        if (r.status === 'waived') {
          await allure.tag('waived');
          ctx.skip(`waived: ${r.reason ?? ''}`);
        }
        if (r.status === 'unsupported') {
          await allure.tag('unsupported');
          ctx.skip(`unsupported: ${r.reason ?? ''}`);
        }
        if (r.status === 'not-applicable') {
          await allure.tag('not applicable');
          ctx.skip(r.reason ?? 'not applicable');
        }
        if (r.status === 'skipped') ctx.skip(r.reason ?? 'skipped');
        // Allure has no warning state: a SHOULD finding stays visible as failed, tagged as the warning it is.
        if (r.status === 'failed' && r.level === 'SHOULD') await allure.tag('warning');
        if (r.status === 'failed')
          expect.fail(`${r.level === 'SHOULD' ? 'warning (SHOULD finding; the verdict does not change): ' : ''}${r.reason ?? 'failed'}`);
        // Not an assertion failure, so Allure shows it as broken: the suite's own check failed.
        if (r.status === 'error') throw Object.assign(new Error(r.reason ?? 'error'), { stack: r.stack });
      });
    }
  });
}
