// The run's default bounds, apart from the engine so the command line can show them in its help without
// loading the engine.
export const DEFAULT_BOUNDS = { seed: 1, runs: 12, timeoutMs: 10_000, maxRequests: 20_000, maxPages: 200, maxBodyBytes: 16 * 1024 * 1024, concurrency: 16 };

/** The bounds of `compare` by default: fewer pages and reads in flight than a run (two nodes are read side by side). */
export const COMPARE_BOUNDS = { maxPages: 20, concurrency: 4 };
