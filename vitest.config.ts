import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker below the core count: one on a 2-core CI machine. Most test files wait
    // on sockets and child processes as much as they compute, so two make better use of two cores.
    maxWorkers: 2,
  },
});
