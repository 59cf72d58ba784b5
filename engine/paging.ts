// Following a paging token: the one loop every page walk of the suite uses. It stops when the token is
// absent (complete), when a token comes back that was already used (cycle), or at a bound (the run's page
// bound or the caller's own); it never hangs. At the bound it tells a long walk from an endless one: a walk
// whose last half of pages brought no new item is `stalled` (fresh tokens leading nowhere).

export interface FetchedPage<P> {
  page: P;
  /** Keys of the items on the page, to tell progress from repetition. */
  keys: Iterable<string | number>;
  /** The page's next token; undefined when there is none. */
  next: unknown;
}

export interface TokenWalk<P> {
  pages: P[];
  end: 'complete' | 'cycle' | 'bound';
  /** At the bound: no new item appeared during the last half of the pages. */
  stalled: boolean;
}

/** Pages without a new item after which a walk at its page bound counts as endless. */
export const stallPages = (maxPages: number) => Math.max(2, Math.floor(maxPages / 2));

/**
 * Walks from the first page (token undefined) on. `fetch` receives the token to send; `atBound` lets the
 * caller end the walk on bounds of its own (items, bytes) after a page.
 */
export async function followTokens<P>(
  fetch: (token: unknown) => Promise<FetchedPage<P>>,
  maxPages: number,
  atBound: () => boolean = () => false,
): Promise<TokenWalk<P>> {
  const pages: P[] = [];
  const usedTokens = new Set<string>();
  const seen = new Set<string | number>();
  let lastProgress = 0;
  let token: unknown;
  for (;;) {
    const { page, keys, next } = await fetch(token);
    pages.push(page);
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      lastProgress = pages.length;
    }
    const done = (end: TokenWalk<P>['end']): TokenWalk<P> => ({ pages, end, stalled: end === 'bound' && pages.length - lastProgress >= stallPages(maxPages) });
    if (next === undefined) return done('complete');
    const key = JSON.stringify(next);
    if (usedTokens.has(key)) return done('cycle');
    usedTokens.add(key);
    if (pages.length >= maxPages || atBound()) return done('bound');
    token = next;
  }
}

/**
 * Page sizes around the count n: one below (a full page, then one of a single holding), at it (one full
 * page), one above (one short page), and for walks of several pages (at most `pages`) the largest divisor of n
 * below it (the last page exactly full) and the next size that does not divide n (the last page partial).
 */
export function endingPageSizes(n: number, pages: number): number[] {
  const sizes = new Set([n - 1, n, n + 1].filter((s) => s >= 1));
  const least = Math.max(1, Math.ceil(n / pages));
  for (let d = n - 1; d >= least; d--) {
    if (n % d !== 0) continue;
    sizes.add(d);
    for (let s = d + 1; s < n; s++) {
      if (n % s !== 0) {
        sizes.add(s);
        break;
      }
    }
    break;
  }
  return [...sizes].sort((a, b) => a - b);
}
