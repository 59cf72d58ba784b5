// A cache that belongs to one run: checks share what they fetched (history lookups, holdings walks) within
// the run, and nothing outlives it.

/**
 * What the checks of one run share: answers that cannot change while the run lasts (history looked up by id,
 * holdings walks of a snapshot), kept under a key that starts with the name of what keeps it. Created with
 * the run's ContextParts and dropped with them, so nothing outlives the run or reaches another.
 */
export class RunCache {
  readonly #entries = new Map<string, unknown>();

  /** The value kept under `key`, made by `make` on first use. */
  memo<T>(key: string, make: () => T): T {
    if (this.#entries.has(key)) return this.#entries.get(key) as T;
    const value = make();
    this.#entries.set(key, value);
    return value;
  }

  /** Drops the value kept under `key` (the next memo makes it anew). */
  forget(key: string): void {
    this.#entries.delete(key);
  }
}
