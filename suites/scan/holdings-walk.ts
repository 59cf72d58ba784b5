// A bounded walk over the pages of a holdings endpoint. It follows next_page_token until it is absent, and
// stops early (never hangs) when a token comes back that was already used (a cycle) or when the page or item
// bound of the run is reached. Callers decide what an unfinished walk means for their rule.
import type { Exchange } from '../http.ts';
import type { CheckContext } from '../model.ts';
import { isObject, type Json } from './common.ts';

export type HoldingsVersion = 'v0' | 'v1' | 'v2';
export const HOLDINGS_VERSIONS: readonly HoldingsVersion[] = ['v0', 'v1', 'v2'];
export const HOLDINGS_OP: Record<HoldingsVersion, string> = { v0: 'getHoldingsStateV0', v1: 'getHoldingsStateV1', v2: 'getHoldingsStateV2' };

export interface HoldingsQuery {
  migration_id: number;
  record_time: string;
  owner_party_ids: string[];
  page_size: number;
  record_time_match?: string;
}

export interface HoldingsPage {
  exchange: Exchange;
  events: Json[];
  token?: unknown;
}

export interface HoldingsWalk {
  version: HoldingsVersion;
  pageSize: number;
  pages: HoldingsPage[];
  /** complete: the last page had no token; cycle: a page returned a token already used; bound: the run's bounds ended the walk. */
  end: 'complete' | 'cycle' | 'bound';
  /** At the bound: no new contract appeared during the last half of the pages (the token leads nowhere). */
  stalled: boolean;
  /** Every contract of every page, in page order. */
  events: Json[];
}

/** Items a single walk may collect, whatever the page bound. */
export const MAX_WALK_ITEMS = 50_000;

export const holdingsPath = (v: HoldingsVersion) => `/${v}/holdings/state`;

export const contractIdOf = (e: Json): string => (isObject(e) && typeof e.contract_id === 'string' ? e.contract_id : JSON.stringify(e));

/**
 * Holdings at a snapshot time never change, so one run walks each (version, request) once and its
 * requirements share the walk (keyed by the run's fixtures object, which all checks of one run share). The
 * paging properties draw the same page sizes (same seed), so each rule is judged on the same walks.
 */
const walkCache = new WeakMap<object, Map<string, Promise<HoldingsWalk>>>();

export function walkHoldings(ctx: CheckContext, version: HoldingsVersion, query: HoldingsQuery, maxPages = ctx.maxPages): Promise<HoldingsWalk> {
  let runCache = walkCache.get(ctx.fixtures);
  if (!runCache) walkCache.set(ctx.fixtures, (runCache = new Map()));
  const key = JSON.stringify([ctx.scan.base, version, query, maxPages]);
  let w = runCache.get(key);
  if (!w) runCache.set(key, (w = walkPages(ctx, version, query, maxPages)));
  return w;
}

async function walkPages(ctx: CheckContext, version: HoldingsVersion, query: HoldingsQuery, maxPages: number): Promise<HoldingsWalk> {
  const pages: HoldingsPage[] = [];
  const seenTokens = new Set<string>();
  const seenIds = new Set<string>();
  let lastProgress = 0;
  let token: unknown;
  let items = 0;
  for (;;) {
    const x = await ctx.scan.post(holdingsPath(version), token === undefined ? query : { ...query, after: token });
    ctx.expectStatus(x, 200, `page ${pages.length + 1} of a valid ${version} holdings walk`);
    const body = ctx.json(x);
    if (!isObject(body) || !Array.isArray(body.created_events)) ctx.fail(`${version} holdings page without a created_events array`, { exchange: x, pointer: '/created_events' });
    const events = body.created_events as Json[];
    const next = body.next_page_token ?? undefined;
    pages.push({ exchange: x, events, token: next });
    items += events.length;
    for (const e of events) {
      const id = contractIdOf(e);
      if (!seenIds.has(id)) {
        seenIds.add(id);
        lastProgress = pages.length;
      }
    }
    const done = (end: HoldingsWalk['end']): HoldingsWalk => ({
      version, pageSize: query.page_size, pages, end, events: pages.flatMap((p) => p.events),
      stalled: end === 'bound' && pages.length - lastProgress >= Math.max(2, Math.floor(maxPages / 2)),
    });
    if (next === undefined) return done('complete');
    const key = JSON.stringify(next);
    if (seenTokens.has(key)) return done('cycle');
    seenTokens.add(key);
    if (pages.length >= maxPages || items >= MAX_WALK_ITEMS) return done('bound');
    token = next;
  }
}

/**
 * For rules about the whole set (completeness, versions agreeing): a walk that ended in a cycle still visited
 * every page once and is used as it is; a walk cut by the bounds cannot show the whole set, so the check is
 * skipped with the reason. Rules about each page or each contract judge the pages of any walk.
 */
export function usableWalk(ctx: CheckContext, walk: HoldingsWalk): HoldingsWalk {
  if (walk.end === 'bound') {
    ctx.skip(walk.stalled
      ? `the ${walk.version} holdings walk (page_size ${walk.pageSize}) did not end: its token kept leading to pages without new contracts (see SCAN-HOLDINGS-PAGING-TOKEN-ENDS)`
      : `the ${walk.version} holdings walk (page_size ${walk.pageSize}) needs more than ${walk.pages.length} pages or ${MAX_WALK_ITEMS} items; raise --max-pages or name fewer holding owners`);
  }
  return walk;
}

/** Page size of the reference walk of a rule: large enough to need few pages, small enough for any node. */
export const LARGE_PAGE = 100;

/** Pages one drawn walk should need at most: enough to cross many page boundaries, few enough to stay fast. */
export const DRAWN_WALK_PAGES = 16;
/** Largest page size a property draws (page sizes up to LARGE_PAGE are used only for large sets). */
export const MAX_DRAWN_PAGE = 64;

/**
 * Page sizes a property draws for walks over `count` contracts, and how many runs: normally walks of at most
 * DRAWN_WALK_PAGES pages with page sizes up to MAX_DRAWN_PAGE; for a set too large for that, a few walks with
 * page sizes up to LARGE_PAGE, each within half the run's page bound (the other half tells a slow walk from
 * an endless one).
 */
export function drawnPageSizes(ctx: CheckContext, count: number): { min: number; max: number; runs: number } {
  const halfBound = Math.max(1, Math.floor(ctx.maxPages / 2));
  const min = Math.max(2, Math.ceil(count / Math.min(DRAWN_WALK_PAGES, halfBound)));
  if (min <= MAX_DRAWN_PAGE) return { min, max: MAX_DRAWN_PAGE, runs: ctx.runs };
  const large = Math.min(LARGE_PAGE, Math.max(2, Math.ceil(count / halfBound)));
  return { min: large, max: LARGE_PAGE, runs: Math.min(ctx.runs, 3) };
}

export function baseQuery(ctx: CheckContext, pageSize: number, owners = ctx.fixtures.holdingOwners!): HoldingsQuery {
  return { migration_id: ctx.fixtures.migrationId!, record_time: ctx.fixtures.snapshotRecordTime!, owner_party_ids: owners, page_size: pageSize };
}

/** The three holdings operations, and the fixtures every holdings rule needs. */
export const HOLDINGS_OPS = HOLDINGS_VERSIONS.map((v) => HOLDINGS_OP[v]);
export const HOLDINGS_NEEDS = ['migrationId', 'snapshotRecordTime', 'holdingOwners'] as const;
