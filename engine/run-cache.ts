// A cache that belongs to one run: checks share what they fetched (history lookups, holdings walks) within
// the run, and nothing outlives it.
import { AsyncLocalStorage } from 'node:async_hooks';

/** The key of the shared value being made, while it is made: its answers belong to no one check alone. */
export const sharedRead = new AsyncLocalStorage<string>();

/**
 * What the checks of one run share: answers that cannot change while the run lasts (history looked up by id,
 * holdings walks of a snapshot), kept under a key that starts with the name of what keeps it. Created with
 * the run's ContextParts and dropped with them, so nothing outlives the run or reaches another.
 */
export class RunCache {
  readonly #entries = new Map<string, unknown>();
  readonly #askedBy = new Map<string, Map<string, number>>();

  /**
   * The value kept under `key`, made by `make` on first use (inside `sharedRead`). `by`: who asks and at
   * which of its steps, so that the answers of a shared read count as received by the first of them in the
   * run's order, whichever of them happened to ask first when checks run side by side.
   */
  memo<T>(key: string, make: () => T, by?: { id: string; step: () => number }): T {
    if (by) {
      const askers = this.#askedBy.get(key) ?? new Map<string, number>();
      if (!askers.has(by.id)) askers.set(by.id, by.step());
      this.#askedBy.set(key, askers);
    }
    if (this.#entries.has(key)) return this.#entries.get(key) as T;
    const value = sharedRead.run(key, make);
    this.#entries.set(key, value);
    return value;
  }

  /** Who asked for the value kept under `key`, each with the step it asked at (see memo). */
  askedBy(key: string): ReadonlyMap<string, number> {
    return this.#askedBy.get(key) ?? new Map();
  }

  /** Drops the value kept under `key` (the next memo makes it anew). */
  forget(key: string): void {
    this.#entries.delete(key);
  }
}

/**
 * The cache as a check shares through it (CheckContext.shared): `make` receives how to drop what it makes;
 * `by` says who asks, for the answer log's attribution.
 */
export function sharing(cache: RunCache, by?: { id: string; step: () => number }) {
  return <T>(key: string, make: (forget: () => void) => T): T => cache.memo(key, () => make(() => cache.forget(key)), by);
}
