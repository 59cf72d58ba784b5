// Vitest configuration of the Allure replay (reporting/allure-results.ts): one file, the allure-vitest
// reporter only, so the replay prints nothing of its own.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const resultsDir = process.env.CN_CONFORMANCE_ALLURE_DIR;
if (!resultsDir) throw new Error('CN_CONFORMANCE_ALLURE_DIR is not set');

export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['reporting/allure/requirements.allure.ts'],
    reporters: [['allure-vitest/reporter', { resultsDir }]],
    pool: 'threads',
    maxWorkers: 1,
    testTimeout: 10_000,
  },
});
