import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Files that take far longer than the rest, longest first. Files are the unit two workers share, so a
 * long one that starts last (vitest orders a fresh clone by file size) ends long after all others.
 */
const LONGEST_FIRST = [
  'test/hostile/hostile-targets.test.ts',
  'test/suites/detection-wallet-scan.test.ts',
  'test/suites/detection.test.ts',
  'test/cli/read-only-safety.test.ts',
  'test/suites/release-matrix.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return (await super.sort(files))
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

/** Files that replace a module (vi.mock): they need a module registry of their own. */
const MOCKING = ['test/cli/check-isolation.test.ts'];

export default defineConfig({
  test: {
    // A worker runs its files one after another in one module registry: the documents are compiled and the
    // code imported once per worker, not once per file (half the suite's time went there). Tests leave no
    // state behind that another file reads; the files that mock a module run apart, each in a fresh registry.
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
    globalSetup: ['test/support/temp-root.ts'],
    // Budgets that catch a hang, never a slow machine: a loaded or one-core machine runs the longest tests
    // (a whole run through the command line) at a fraction of their usual pace.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker below the core count: one on a 2-core CI machine. Many test files wait on
    // sockets, timeouts and child processes as much as they compute (the hostile targets' half the time), so
    // a third worker fills two cores where two leave them idle (npm test: 344 s with two, see below with three).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
