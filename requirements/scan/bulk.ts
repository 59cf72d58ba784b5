// Bulk history: POST /v0/history/bulk/updates (page size range, paging by token) and the objects it refers
// to (GET /v0/history/bulk/download/{object_key}: octet-stream bytes whose sha256 is the reference's digest).
// The listing is marked under development: a node answering 501 (not implemented) does not serve it.
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { isObject, type Json } from '../../common/json.ts';
import { Client, type Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { endingPageSizes, followTokens } from '../../engine/paging.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedObject } from '../../interfaces/scan/common.ts';

export const LIST_OP = 'listBulkHistoryUpdates';
export const DOWNLOAD_OP = 'downloadBulkHistoryObject';
const PATH = '/v0/history/bulk/updates';
const MAX_PAGE = 1000;

/** A record-time range of the listing's body. */
export interface BulkSpan {
  start_record_time: string;
  end_record_time: string;
}

const range = (ctx: CheckContext<'bulkRange'>): BulkSpan => ({ start_record_time: ctx.fixtures.bulkRange.start, end_record_time: ctx.fixtures.bulkRange.end });

async function listPage(ctx: CheckContext, span: BulkSpan, pageSize: number, token?: string): Promise<{ x: Exchange; refs: Json[]; next?: unknown }> {
  const x = await ctx.scan.post(PATH, { ...span, page_size: pageSize, ...(token === undefined ? {} : { next_page_token: token }) });
  // A listing not implemented (501) is no refusal: the operation is not served (ctx.accepted).
  const body = acceptedObject(
    ctx,
    x,
    `the bulk objects of (${span.start_record_time}, ${span.end_record_time}], a range of this scan's updates (fixtures.bulkRange; discovery: the record times of POST /v2/updates), page_size ${pageSize}${token === undefined ? '' : ', with the next_page_token of the page before'}`,
  );
  if (!Array.isArray(body.object_refs)) ctx.expect(x).fail('object_refs is not an array', '/object_refs');
  return { x, refs: body.object_refs, next: body.next_page_token ?? undefined };
}

export interface BulkWalk {
  pages: Array<{ x: Exchange; refs: Json[]; next?: unknown }>;
  refs: Json[];
}

/**
 * Follows next_page_token. A token used twice is a failure (the walk never ends), and so is a walk that reaches
 * the page bound without a new object in its last half (fresh tokens leading nowhere); a walk at the bound
 * that still finds objects is merely too long for the run.
 */
export async function walk(ctx: CheckContext, span: BulkSpan, pageSize: number): Promise<BulkWalk> {
  const w = await followTokens(async (token) => {
    const page = await listPage(ctx, span, pageSize, token as string | undefined);
    if (page.next !== undefined && typeof page.next !== 'string') ctx.expect(page.x).fail('next_page_token is not a string', '/next_page_token');
    return { page, keys: page.refs.map((ref) => JSON.stringify(ref)), next: page.next };
  }, ctx.maxPages);
  const last = w.pages.at(-1)!;
  if (w.end === 'cycle')
    ctx
      .expect(last.x)
      .fail(
        `page ${w.pages.length} (attached) returned next_page_token ${String(last.next)}, already used in this walk: the walk never ends`,
        '/next_page_token',
      );
  if (w.end === 'bound') {
    if (w.stalled)
      ctx
        .expect(last.x)
        .fail(
          `after ${w.pages.length} pages (page_size ${pageSize}) next_page_token is still present although no new object appeared for the last half of them: the walk never ends (last page attached)`,
          '/next_page_token',
        );
    ctx.skip(`the bulk walk with page_size ${pageSize} needs more than ${ctx.maxPages} pages; raise --max-pages or narrow fixtures.bulkRange`);
  }
  return { pages: w.pages, refs: w.pages.flatMap((p) => p.refs) };
}

const pageSizeRange = rule({
  id: 'SCAN-BULK-PAGE-SIZE-400',
  operations: [LIST_OP],
  cites: ['C.bulk-updates.5', 'C.bulk-updates.8', 'X.errors.9', 'X.limits.4'],
  needs: ['bulkRange'],
  tags: ['bulk', 'validation'],
  async check(ctx) {
    // Both bounds and their neighbours inside the range must be answered (the first skips when the listing is
    // not implemented); the neighbours outside are refused (description/bounds.ts).
    for (const size of [1, 2, MAX_PAGE - 1, MAX_PAGE]) await listPage(ctx, range(ctx), size);
    for (const size of [0, MAX_PAGE + 1]) {
      const x = await ctx.scan.post(PATH, { ...range(ctx), page_size: size });
      ctx.expect(x, `page_size ${size} is outside 1..1000`).status(400);
    }
  },
});

const digestsOf = (w: BulkWalk) => w.refs.map((r) => (isObject(r) ? String(r.digest) : JSON.stringify(r))).sort();

/**
 * A token promises more pages, unless its page was full: a node may hand out a token whenever a page reaches
 * page_size (as real scans do) and find nothing more. A token on a page short of page_size that opens an empty
 * page was put on the last page, where it must be absent.
 */
function tokenLeadsOn(ctx: CheckContext, w: BulkWalk, pageSize: number): void {
  for (const [k, page] of w.pages.entries()) {
    const before = w.pages[k - 1];
    if (before && page.refs.length === 0 && before.refs.length < pageSize)
      ctx
        .expect(page.x)
        .fail(
          `page ${k} of the walk (page_size ${pageSize}) held ${before.refs.length} objects and carried next_page_token ${JSON.stringify(before.next)}, and the page it opens (attached) holds no object: a token on the last page, where it must be absent`,
          '/object_refs',
        );
  }
}

const pagingComplete = rule({
  id: 'SCAN-BULK-PAGING-COMPLETE',
  operations: [LIST_OP],
  cites: ['C.bulk-updates.1', 'C.bulk-updates.4', 'C.bulk-updates.7'],
  needs: ['bulkRange'],
  tags: ['bulk', 'paging'],
  confirms: LIST_OP,
  async check(ctx) {
    const whole = await walk(ctx, range(ctx), MAX_PAGE);
    tokenLeadsOn(ctx, whole, MAX_PAGE);
    const want = digestsOf(whole);
    const min = Math.max(1, Math.ceil(want.length / Math.max(1, Math.floor(ctx.maxPages / 2))));
    // Walks that end on a partial and on an exactly full last page, their page sizes chosen from the total
    // (description/bounds.ts), and drawn ones.
    const endings = endingPageSizes(want.length, Math.max(1, Math.floor(ctx.maxPages / 2))).filter((s) => s <= MAX_PAGE);
    for (const size of endings) {
      const w = await walk(ctx, range(ctx), size);
      tokenLeadsOn(ctx, w, size);
      if (JSON.stringify(digestsOf(w)) !== JSON.stringify(want))
        ctx
          .expect(w.pages.at(-1)!.x)
          .fail(
            `the walk with page_size ${size} (${w.pages.length} pages, ${want.length % size === 0 ? 'the last exactly full' : 'the last partial'}) refers to ${digestsOf(w).length} objects, the walk with page_size ${MAX_PAGE} to ${want.length}; the sets of object digests differ`,
          );
    }
    await ctx.property(fc.integer({ min, max: Math.max(min, Math.min(MAX_PAGE, want.length + 1)) }), async (size) => {
      const w = await walk(ctx, range(ctx), size);
      tokenLeadsOn(ctx, w, size);
      const got = digestsOf(w);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        ctx
          .expect(w.pages.at(-1)!.x)
          .fail(
            `the walk with page_size ${size} (${w.pages.length} pages) refers to ${got.length} objects, the walk with page_size ${MAX_PAGE} to ${want.length}; the sets of object digests differ`,
          );
      }
    });
  },
});

/** sha256 digests may be written in hex or base64, with or without a `sha256:` label. */
function digestMatches(digest: unknown, bytes: Buffer): boolean {
  if (typeof digest !== 'string') return false;
  const d = digest.replace(/^sha-?256[:=-]/i, '');
  const hash = createHash('sha256').update(bytes).digest();
  return d.toLowerCase() === hash.toString('hex') || d === hash.toString('base64') || d.replace(/=+$/, '') === hash.toString('base64url');
}

const DOWNLOAD_PATH = '/v0/history/bulk/download/';

/**
 * Downloads an object by its url: through the scan client when the url is the scan's own download endpoint,
 * else with a client for the url's origin (the objects may live in other storage). `own` tells which.
 */
export async function download(ctx: CheckContext, url: string, k: number, listing: Exchange): Promise<{ x: Exchange; own: boolean }> {
  if (!URL.canParse(url, ctx.scan.base)) ctx.expect(listing).fail(`object_refs[${k}].url ${JSON.stringify(url)} is not a URL`, `/object_refs/${k}/url`);
  const u = new URL(url, ctx.scan.base);
  const base = new URL(ctx.scan.base);
  const prefix = base.pathname.replace(/\/+$/, '');
  if (u.origin === base.origin && u.pathname.startsWith(prefix + DOWNLOAD_PATH))
    return { x: await ctx.scan.get(u.pathname.slice(prefix.length) + u.search), own: true };
  // Another origin (object storage, a presigned URL) gets none of the scan's credentials or extra headers.
  const client = new Client({ ...ctx.scan.config, origin: u.origin, prefix: '', credentials: {}, bearerSource: undefined, headers: undefined });
  return { x: await client.get(u.pathname + u.search), own: false };
}

const DOWNLOADS = 4;

const downloadDigest = rule({
  id: 'SCAN-BULK-DOWNLOAD-DIGEST',
  operations: [LIST_OP, DOWNLOAD_OP],
  cites: ['R.scan.44', 'R.scan.45', 'C.bulk-updates.6', 'C.bulk-download.1'],
  needs: ['bulkRange'],
  tags: ['bulk'],
  confirms: DOWNLOAD_OP,
  async check(ctx) {
    const { x, refs } = await listPage(ctx, range(ctx), DOWNLOADS);
    if (refs.length === 0) ctx.skip('fixtures.bulkRange lists no bulk objects');
    for (const [k, ref] of refs.slice(0, DOWNLOADS).entries()) {
      if (!isObject(ref) || typeof ref.url !== 'string') ctx.expect(x).fail(`object_refs[${k}] has no url string`, `/object_refs/${k}`);
      const { x: d, own } = await download(ctx, ref.url, k, x);
      // The scan's own download endpoint must serve what its listing refers to (a 404 there is a refusal);
      // other storage is no operation of the document and is only asked for the bytes.
      if (own) ctx.accepted(d, `the object that object_refs[${k}].url names in this scan's bulk listing of fixtures.bulkRange (${x.method} ${x.url})`);
      else ctx.expect(d, `download of object_refs[${k}].url`).status(200);
      // The content type is the scan download endpoint's promise; other storage serves objects its own way.
      const type = (d.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (own && type !== 'application/octet-stream')
        ctx.expect(d).fail(`the object at ${ref.url} is served as ${JSON.stringify(d.headers['content-type'])}, not application/octet-stream`);
      if (d.truncated) ctx.skip(`the object at ${ref.url} is larger than the run's body bound`);
      if (!digestMatches(ref.digest, d.bytes)) {
        ctx
          .expect(x)
          .fail(
            `object_refs[${k}].digest ${JSON.stringify(ref.digest)} is not the sha256 of the ${d.bytes.length} bytes downloaded from its url (sha256 ${createHash('sha256').update(d.bytes).digest('hex')})`,
            `/object_refs/${k}/digest`,
          );
      }
    }
  },
});

export const BULK_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [pageSizeRange, pagingComplete, downloadDigest]);
