// GET /v0/ans-entries: the name prefix, the page size, expiry and the url of the listed entries.
//
// "Older non-expired entries first" is not checked as an order: an entry's creation time is no field of
// AnsEntry and no scan endpoint reveals it. What it implies for pages of different sizes is (ans-pages.ts).
import fc from 'fast-check';
import { isObject, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule, type RuleOf } from '../../engine/requirement.ts';
import { acceptedObject, timeNanos } from '../../interfaces/scan/common.ts';
import { urlAllowed } from '../../generators/record-facts.ts';

export const OP = 'listAnsEntries';
export const LIST_SIZE = 100;

export async function list(ctx: CheckContext, pageSize: number, prefix?: string): Promise<{ x: Exchange; entries: Json[] }> {
  const x = await ctx.scan.get('/v0/ans-entries', { query: { page_size: pageSize, name_prefix: prefix } });
  const body = ctx
    .expect(x, `page_size ${pageSize}${prefix === undefined ? '' : `, name_prefix ${JSON.stringify(prefix)}`}`)
    .status(200)
    .object();
  if (!Array.isArray(body.entries)) ctx.expect(x).fail('entries is not an array', '/entries');
  return { x, entries: body.entries };
}

export const nameOf = (e: Json) => (isObject(e) && typeof e.name === 'string' ? e.name : undefined);

/** A listing as a rule judges it, and how its failures name it: nothing without a prefix, else the prefix. */
export interface Listing {
  x: Exchange;
  entries: Json[];
  label: string;
}

/**
 * The listing without name_prefix and with one (the first letter of the first listed name, so that entries
 * match): name_prefix is a filter of the same listing (C.ans.2), so what the listing promises of its entries
 * holds in both. Only the first without a listed name to take a prefix from.
 */
export async function listings(ctx: CheckContext): Promise<Listing[]> {
  const whole = await list(ctx, LIST_SIZE);
  const prefix = whole.entries
    .map(nameOf)
    .find((n) => !!n)
    ?.slice(0, 1);
  const out = [{ ...whole, label: '' }];
  if (prefix) out.push({ ...(await list(ctx, LIST_SIZE, prefix)), label: `name_prefix ${JSON.stringify(prefix)}: ` });
  return out;
}

/** Up to three of the prefixes with their letter case swapped, where that changes them (the longest first). */
function caseFlipped(prefixes: string[]): string[] {
  const swap = (p: string) => [...p].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  const flipped = prefixes.map(swap).filter((f, k) => f !== prefixes[k] && !prefixes.includes(f));
  return [...new Set(flipped)].sort((a, b) => b.length - a.length).slice(0, 3);
}

const namePrefix: RuleOf<'scan'> = {
  id: 'SCAN-ANS-NAME-PREFIX',
  cites: ['C.ans.2'],
  tags: ['ans'],
  async check(ctx) {
    // Prefixes of the names the node lists (so that some entries match and others do not), and arbitrary text.
    const names = (await list(ctx, LIST_SIZE)).entries.map(nameOf).filter((n): n is string => !!n);
    const prefixes = [...new Set(names.flatMap((n) => [1, 2, 4].map((len) => n.slice(0, len))))];
    const arb = prefixes.length > 0 ? fc.oneof(fc.constantFrom(...prefixes), fc.string({ maxLength: 3 })) : fc.string({ maxLength: 3 });
    const judge = async (prefix: string) => {
      const { x, entries } = await list(ctx, LIST_SIZE, prefix);
      const k = entries.findIndex((e) => !nameOf(e)?.startsWith(prefix));
      if (k >= 0)
        ctx.expect(x).fail(`name_prefix ${JSON.stringify(prefix)}: entry ${JSON.stringify(nameOf(entries[k]))} does not start with it`, `/entries/${k}/name`);
    };
    await ctx.property(arb, judge);
    // The boundary of "starts with": a prefix of a listed name that differs from it only in letter case.
    for (const flipped of caseFlipped(prefixes)) await judge(flipped);
  },
};

const pageSize: RuleOf<'scan'> = {
  id: 'SCAN-ANS-PAGE-SIZE',
  cites: ['C.ans.4'],
  tags: ['ans'],
  async check(ctx) {
    const [whole, prefixed] = await listings(ctx);
    const total = whole!.entries.length;
    // At the count of the listing, one below and one above (description/bounds.ts), then drawn sizes.
    for (const size of [total - 1, total, total + 1].filter((s) => s >= 1 && total < LIST_SIZE)) {
      const { x, entries } = await list(ctx, size);
      if (entries.length > size)
        ctx.expect(x).fail(`page_size ${size} (the listing holds ${total} entries) answered with ${entries.length} entries`, '/entries');
    }
    // Every other page with the name_prefix of the prefixed listing: the page size bounds a filtered listing too.
    const prefix = prefixed ? nameOf(prefixed.entries[0]!)?.slice(0, 1) : undefined;
    let n = 0;
    await ctx.property(fc.integer({ min: 1, max: Math.max(2, Math.min(LIST_SIZE, total + 1)) }), async (size) => {
      const asked = n++ % 2 ? prefix : undefined;
      const { x, entries } = await list(ctx, size, asked);
      if (entries.length > size)
        ctx
          .expect(x)
          .fail(`${asked === undefined ? '' : `name_prefix ${JSON.stringify(asked)}, `}page_size ${size} answered with ${entries.length} entries`, '/entries');
    });
  },
};

/**
 * Tolerance for clocks: an entry counts as expired only this long before a time the node has already reported.
 * Record times are the synchronizer's clock and the scan's own clock is synchronized with it to well within this.
 */
const EXPIRY_MARGIN_NS = 60n * 1_000_000_000n;

const noExpired = rule({
  id: 'SCAN-ANS-NO-EXPIRED',
  cites: ['C.ans.1'],
  needs: ['snapshotRecordTime'],
  tags: ['ans'],
  async check(ctx) {
    // The node's clock is not visible, but it has already passed every record time it reports: the fixture
    // snapshot time is a lower bound of "now". An entry that expired before it (by more than the clock margin) is expired for the node too.
    const snapshot = timeNanos(ctx.fixtures.snapshotRecordTime);
    if (snapshot === undefined) return ctx.skip(`fixtures.snapshotRecordTime is not an ISO 8601 timestamp: ${ctx.fixtures.snapshotRecordTime}`);
    const bound = snapshot - EXPIRY_MARGIN_NS;
    for (const { x, entries, label } of await listings(ctx))
      for (const [k, e] of entries.entries()) {
        const expires = isObject(e) ? timeNanos(e.expires_at) : undefined;
        if (expires !== undefined && expires < bound) {
          ctx
            .expect(x)
            .fail(
              `${label}entry ${nameOf(e)} expired at ${e.expires_at}, more than a minute before the snapshot time ${ctx.fixtures.snapshotRecordTime} the node already reports, yet it is listed`,
              `/entries/${k}/expires_at`,
            );
        }
      }
  },
});

const urlShape: RuleOf<'scan'> = {
  id: 'SCAN-ANS-URL',
  cites: ['R.scan.41', 'C.ans.6'],
  tags: ['ans'],
  async check(ctx) {
    for (const { x, entries, label } of await listings(ctx)) {
      const k = entries.findIndex((e) => !urlAllowed(isObject(e) ? e.url : undefined));
      if (k >= 0)
        ctx
          .expect(x)
          .fail(`${label}entry ${nameOf(entries[k])} has url ${JSON.stringify(entries[k]?.url)}, neither empty nor an http/https URL`, `/entries/${k}/url`);
    }
  },
};

/** Listed names looked up by name_prefix: a few, enough to see a filter that drops matches. */
const LOOKUPS = 3;

// The positive request: the entries listed, then a few of their names asked for as name_prefix. A name starts
// with itself, so its entry is among the answers, unless the page is full of other names that extend it (not
// judged) or the entry expired meanwhile (the whole list is asked again before a failure).
const lookupByName: RuleOf<'scan'> = {
  id: 'SCAN-ANS-LOOKUP-BY-NAME',
  cites: ['C.ans.1', 'C.ans.2'],
  tags: ['ans'],
  confirms: OP,
  async check(ctx) {
    const x = await ctx.scan.get('/v0/ans-entries', { query: { page_size: LIST_SIZE } });
    const listed = acceptedObject(ctx, x, `the name-service entries, page_size ${LIST_SIZE} and no name_prefix`).entries;
    if (!Array.isArray(listed)) return ctx.expect(x).fail('entries is not an array', '/entries');
    const names = [...new Set(listed.map(nameOf).filter((n): n is string => !!n))].slice(0, LOOKUPS);
    for (const name of names) {
      const found = await list(ctx, LIST_SIZE, name);
      if (found.entries.some((e) => nameOf(e) === name) || found.entries.length >= LIST_SIZE) continue;
      if (!(await list(ctx, LIST_SIZE)).entries.some((e) => nameOf(e) === name)) continue; // expired meanwhile
      ctx
        .expect(found.x)
        .fail(
          `name_prefix ${JSON.stringify(name)}, the name of a listed entry, does not list that entry (${found.entries.length} entries answered)`,
          '/entries',
        );
    }
  },
};

export const ANS_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: [OP] }, [
  namePrefix,
  pageSize,
  noExpired,
  urlShape,
  lookupByName,
]);
