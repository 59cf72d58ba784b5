// The run's default bounds, apart from the engine so the command line can show them in its help without
// loading the engine.
export const DEFAULT_BOUNDS = { seed: 1, runs: 12, timeoutMs: 10_000, maxRequests: 20_000, maxPages: 200, maxBodyBytes: 16 * 1024 * 1024, concurrency: 16 };
