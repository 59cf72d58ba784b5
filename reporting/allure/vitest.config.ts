// Vitest configuration of the Allure replay (reporting/allure-results.ts): one file, the allure-vitest
// reporter only, so the replay prints nothing of its own.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { ConformanceReport } from '../model.ts';

const resultsDir = process.env.CN_CONFORMANCE_ALLURE_DIR;
if (!resultsDir) throw new Error('CN_CONFORMANCE_ALLURE_DIR is not set');
const reportFile = process.env.CN_CONFORMANCE_ALLURE_REPORT;
if (!reportFile) throw new Error('CN_CONFORMANCE_ALLURE_REPORT is not set');
const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;

// Allure's environment panel (environment.properties): the run's verdict and what it was judged against.
const environmentInfo: Record<string, string> = {
  verdict: report.verdict,
  mode: report.mode,
  judged: `${report.judgement.judged} of ${report.judgement.selected}`,
  ...Object.fromEntries(report.judgement.reasons.map((r, i) => [`verdict reason ${i + 1}`, r])),
  ...Object.fromEntries(Object.entries(report.targets).map(([k, v]) => [`target ${k}`, v])),
  tool: `${report.tool.name} ${report.tool.version}`,
  seed: String(report.seed),
};

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    // .ts in a checkout, .js in the compiled package.
    include: ['reporting/allure/requirements.allure.{ts,js}'],
    reporters: [['allure-vitest/reporter', { resultsDir, environmentInfo }]],
    pool: 'threads',
    maxWorkers: 1,
    testTimeout: 10_000,
    // Nothing is written beside the package: an installed one may be read-only (a global install).
    cache: false,
  },
});
