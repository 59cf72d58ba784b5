// A bounded walk over the pages of a holdings endpoint. It follows next_page_token until it is absent, and
// stops early (never hangs) when a token comes back that was already used (a cycle) or when the run's page
// bound or a walk's item or size bound is reached. Callers decide what an unfinished walk means for their rule.
//
// Memory: a run keeps its walks until it ends (the rules of a run share them), so a page keeps its body only
// deflated (about a tenth of the JSON: ~100 bytes per contract instead of ~4 KB as text, copy and parsed
// objects) and decodes it on each use. Nothing decoded is kept: a rule's pass over a walk holds one page of
// objects at a time, and a rule that needs the whole set builds what it compares (an id set) for itself.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { isObject, type Json } from '../../../common/json.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import type { CheckContext } from '../../../engine/model.ts';
import { followTokens } from '../../../engine/paging.ts';

export type HoldingsVersion = 'v0' | 'v1' | 'v2';
export const HOLDINGS_VERSIONS: readonly HoldingsVersion[] = ['v0', 'v1', 'v2'];
export const HOLDINGS_OP: Record<HoldingsVersion, string> = { v0: 'getHoldingsStateV0', v1: 'getHoldingsStateV1', v2: 'getHoldingsStateV2' };

/**
 * Why a rule of the ActiveContract record leaves v0 out (Requirement.variants, axis `version`): v0 answers
 * CreatedEvents, which name no creating update; its contracts are held field by field to v1's, which the rule
 * judges, by SCAN-HOLDINGS-V0-MATCHES-V1.
 */
export const V0_HELD_TO_V1 = {
  version: {
    [HOLDINGS_OP.v0]:
      'v0 answers CreatedEvents (no created_in_update_id); SCAN-HOLDINGS-V0-MATCHES-V1 holds each of its contracts to the same contract of v1, which this rule judges',
  },
};

/** Why a rule of one version's answer leaves the others out: each version is judged by its record of its own. */
export function judgedPerVersion(version: HoldingsVersion): Record<string, Record<string, string>> {
  const others = (Object.keys(HOLDINGS_OP) as HoldingsVersion[]).filter((v) => v !== version);
  return {
    version: Object.fromEntries(
      others.map((v) => [HOLDINGS_OP[v], `${v} is judged by a record of its own, so a report names the version that breaks the rule`]),
    ),
  };
}

export interface HoldingsQuery {
  migration_id: number;
  record_time: string;
  owner_party_ids: string[];
  page_size: number;
  record_time_match?: string;
}

/** One page of a walk: its exchange without the body, the body deflated, and what the walk read from it. */
export interface HoldingsPage {
  /** The request and answer of the page, all but the body: pageExchange(page) restores the whole exchange. */
  head: Omit<Exchange, 'bytes' | 'text'>;
  /** The body as received, deflated (raw deflate). */
  packed: Buffer;
  /** Length of its created_events array. */
  count: number;
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
  /** Contracts on all pages (repeats counted). */
  count: number;
}

/**
 * Bounds of a single walk, whatever the page bound: room for a million holdings and more (the reference node
 * at scale 10 000 has 1 000 213). Items bound what rules build from a walk (an id set costs ~120 bytes per
 * contract); deflated bytes bound what the walk itself keeps, whatever a node puts in its pages (a
 * reference-node contract deflates to ~100 bytes, so two million of them stay below it).
 */
export const MAX_WALK_ITEMS = 2_000_000;
export const MAX_WALK_PACKED_BYTES = 256 * 1024 * 1024;

/** Deflate level of the kept pages: level 1 deflates a 100-contract page (87 KB) 9:1 in ~0.1 ms; higher levels gain <10% for 3x the time. */
const PACK_LEVEL = 1;

/**
 * A 32-bit hash of a contract id (FNV-1a): the walk's set of ids seen costs ~25 bytes per contract instead of
 * ~120 for the id itself. A new contract whose hash collides with a seen one counts as no progress, but a walk
 * is judged stalled only when no page of the last half of a bounded walk brought a new one: every new contract
 * of at least two pages would have to collide.
 */
function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h;
}

/** A small deflated body is a view of zlib's 16 KB output buffer, which it would keep alive: copied then. */
function pack(body: Buffer): Buffer {
  const packed = deflateRawSync(body, { level: PACK_LEVEL });
  return packed.byteLength < packed.buffer.byteLength ? Buffer.from(packed) : packed;
}

/** The page's exchange as it was received, body included (decoded anew on each call: the caller's to drop). */
export function pageExchange(page: HoldingsPage): Exchange {
  const bytes = inflateRawSync(page.packed);
  return { ...page.head, bytes, text: bytes.toString('utf8') };
}

/** The page's created_events, parsed anew on each call (the walk checked that they are an array). */
export function pageEvents(page: HoldingsPage): Json[] {
  return (JSON.parse(inflateRawSync(page.packed).toString('utf8')) as { created_events: Json[] }).created_events;
}

/** Every contract of every page, in page order, one page decoded at a time. */
export function* walkEvents(walk: HoldingsWalk): Generator<Json> {
  for (const page of walk.pages) yield* pageEvents(page);
}

/** The first page of the walk carrying a contract with this id. */
export function pageWith(walk: HoldingsWalk, id: string): HoldingsPage | undefined {
  return walk.pages.find((p) => pageEvents(p).some((e) => contractIdOf(e) === id));
}

export const holdingsPath = (v: HoldingsVersion) => `/${v}/holdings/state`;

export const contractIdOf = (e: Json): string => (isObject(e) && typeof e.contract_id === 'string' ? e.contract_id : JSON.stringify(e));

/**
 * Holdings at a snapshot time never change, so one run walks each (version, request) once and its
 * requirements share the walk (in the run's cache). The paging properties draw the same page sizes (same
 * seed), so each rule is judged on the same walks.
 */
export function walkHoldings(ctx: CheckContext, version: HoldingsVersion, query: HoldingsQuery, maxPages = ctx.maxPages): Promise<HoldingsWalk> {
  const key = `holdings-walk ${JSON.stringify([ctx.scan.base, version, query, maxPages])}`;
  return ctx.shared(key, () => walkPages(ctx, version, query, maxPages));
}

/**
 * The matches that, at a snapshot's own time, name that snapshot: the default (exact) and at_or_before (the
 * latest snapshot at or before it is itself). A rule asking at the fixture snapshot asks in both.
 */
export const SNAPSHOT_MATCHES: ReadonlyArray<{ record_time_match?: string }> = [{}, { record_time_match: 'at_or_before' }];

/**
 * The body of a walk's page `k` (0-based). A walk at a snapshot's own time asks every other page with
 * record_time_match at_or_before: the latest snapshot at or before a snapshot's time is that snapshot, so both
 * matches answer the same pages, and every rule judged on walks is judged on both (C.holdings-v1.5-6). A walk
 * that names its match keeps it.
 */
function pageQuery(query: HoldingsQuery, k: number, token: unknown): HoldingsQuery & { after?: unknown } {
  const body = query.record_time_match === undefined ? { ...query, ...SNAPSHOT_MATCHES[k % 2] } : query;
  return token === undefined ? body : { ...body, after: token };
}

async function walkPages(ctx: CheckContext, version: HoldingsVersion, query: HoldingsQuery, maxPages: number): Promise<HoldingsWalk> {
  let fetched = 0;
  let items = 0;
  let packedBytes = 0;
  const walk = await followTokens<HoldingsPage>(
    async (token) => {
      const x = await ctx.scan.post(holdingsPath(version), pageQuery(query, fetched, token));
      ctx.expect(x, `page ${++fetched} of a valid ${version} holdings walk`).status(200);
      const body = ctx.expect(x).json();
      if (!isObject(body) || !Array.isArray(body.created_events))
        ctx.expect(x).fail(`${version} holdings page without a created_events array`, '/created_events');
      const events = body.created_events as Json[];
      const { bytes: _bytes, text: _text, ...head } = x;
      const packed = pack(x.bytes);
      items += events.length;
      packedBytes += packed.byteLength;
      const page = { head, packed, count: events.length, token: body.next_page_token ?? undefined };
      return { page, keys: events.map((e) => idHash(contractIdOf(e))), next: page.token };
    },
    maxPages,
    () => items >= MAX_WALK_ITEMS || packedBytes >= MAX_WALK_PACKED_BYTES,
  );
  return { version, pageSize: query.page_size, pages: walk.pages, end: walk.end, stalled: walk.stalled, count: items };
}

/**
 * For rules about the whole set (completeness, versions agreeing): a walk that ended in a cycle still visited
 * every page once and is used as it is; a walk cut by the bounds cannot show the whole set, so the check is
 * skipped with the reason. Rules about each page or each contract judge the pages of any walk.
 */
export function usableWalk(ctx: CheckContext, walk: HoldingsWalk): HoldingsWalk {
  if (walk.end === 'bound') {
    ctx.skip(
      walk.stalled
        ? `the ${walk.version} holdings walk (page_size ${walk.pageSize}) did not end: its token kept leading to pages without new contracts (see SCAN-HOLDINGS-PAGING-TOKEN-ENDS)`
        : `the ${walk.version} holdings walk (page_size ${walk.pageSize}) needs more than ${walk.pages.length} pages, ${MAX_WALK_ITEMS} items or ${MAX_WALK_PACKED_BYTES / 1024 / 1024} MB of deflated pages; raise --max-pages or name fewer holding owners`,
    );
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

export function baseQuery(ctx: CheckContext<HoldingsNeed>, pageSize: number): HoldingsQuery {
  return snapshotQuery(ctx, pageSize, ctx.fixtures.holdingOwners);
}

/** The fixture snapshot's query for other owners than the fixture's. */
export function snapshotQuery(ctx: CheckContext<'migrationId' | 'snapshotRecordTime'>, pageSize: number, owners: string[]): HoldingsQuery {
  return { migration_id: ctx.fixtures.migrationId, record_time: ctx.fixtures.snapshotRecordTime, owner_party_ids: owners, page_size: pageSize };
}

/** The three holdings operations, and the fixtures every holdings rule needs. */
export const HOLDINGS_OPS = HOLDINGS_VERSIONS.map((v) => HOLDINGS_OP[v]);
export const HOLDINGS_NEEDS = ['migrationId', 'snapshotRecordTime', 'holdingOwners'] as const;
/** The fixtures every holdings rule reads. */
export type HoldingsNeed = (typeof HOLDINGS_NEEDS)[number];
