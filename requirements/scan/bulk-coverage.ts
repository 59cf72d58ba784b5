// Bulk history objects against the update history: the objects listed for a record-time range hold every
// update inside it. Ranges are kept tiny, one microsecond ending at the record time of a fixture update
// (start exclusive, end inclusive), so a listing refers to a few objects whatever the history's size. An
// empty listing for such a range breaks the rule whatever the objects hold; beyond that, the update must be
// found in the objects' bytes, judged only where they name updates as text (the object format is not shown:
// opaque or compressed objects leave that part open).
import * as zlib from 'node:zlib';
import { isObject } from '../../common/json.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { download, DOWNLOAD_OP, LIST_OP, walk, type BulkSpan } from './bulk.ts';
import { plusMicros, timeNanos } from '../../interfaces/scan/common.ts';
import { fetchServedUpdates, LABEL, OP, updateOf, type Where } from './history.ts';

/** Fixture updates whose ranges are listed, and objects downloaded per range: enough to see a gap, and fast. */
const UPDATES = 3;
const DOWNLOADS = 4;
const PAGE_SIZE = 10;

/** V2 renderings first: the deprecated path is asked only when the scan serves no other. */
const PREFERRED: Where[] = ['v2', 'events', 'v0'];

interface Dated {
  id: string;
  where: Where;
  recordTime: string;
}

/** Fixture updates with the record time the scan reports for them. */
async function datedUpdates(ctx: CheckContext<'transactionUpdateIds'>): Promise<Dated[]> {
  // Transactions and reassignments: an update of either type in the range is in the bulk history.
  const served = await fetchServedUpdates(ctx, [...ctx.fixtures.transactionUpdateIds, ...(ctx.fixtures.reassignmentUpdateIds ?? [])]);
  served.sort((a, b) => PREFERRED.indexOf(a.where) - PREFERRED.indexOf(b.where));
  const out: Dated[] = [];
  for (const { where, updates } of served.slice(0, 1)) {
    for (const u of updates) {
      const t = updateOf(u.body, where)?.record_time;
      if (typeof t === 'string' && timeNanos(t) !== undefined && out.length < UPDATES) out.push({ id: u.id, where, recordTime: t });
    }
  }
  return out;
}

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** An object's bytes as text: gzip and (where the runtime decodes it) zstd are unpacked; anything else as is. */
function objectText(bytes: Buffer): string {
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) return zlib.gunzipSync(bytes).toString('utf8');
    const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
    if (zstd && bytes.subarray(0, 4).equals(ZSTD_MAGIC)) return zstd(bytes).toString('utf8');
  } catch {
    // Not what the magic number promised: read as is.
  }
  return bytes.toString('utf8');
}

/** Text that names updates the way the scan writes ids (hex ids: any hex run of the id's length). */
function namesUpdates(text: string, id: string, known: readonly string[]): boolean {
  if (/^[0-9a-f]+$/i.test(id)) return new RegExp(`[0-9a-f]{${id.length}}`, 'i').test(text);
  return known.some((k) => text.includes(k));
}

export const BULK_COVERAGE_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'scan', operations: [LIST_OP, DOWNLOAD_OP, OP.v2, OP.events, OP.v0] },
  [
    rule({
      id: 'SCAN-BULK-COVERS-RANGE',
      cites: ['C.bulk-updates.1', 'C.bulk-updates.3'],
      needs: ['transactionUpdateIds'],
      tags: ['bulk', 'history'],
      async check(ctx) {
        const dated = await datedUpdates(ctx);
        if (dated.length === 0) ctx.skip('no fixture update is answered with a record time');
        const unread: string[] = [];
        for (const u of dated) {
          const span: BulkSpan = { start_record_time: plusMicros(u.recordTime, -1)!, end_record_time: u.recordTime };
          const { pages, refs } = await walk(ctx, span, PAGE_SIZE);
          const listing = pages.at(-1)!.x;
          const where = `update ${u.id} (record_time ${u.recordTime} on ${LABEL[u.where]}) lies in the range (${span.start_record_time}, ${span.end_record_time}]`;
          if (refs.length === 0) ctx.expect(listing).fail(`${where}, but the bulk listing for the range refers to no object`, '/object_refs');
          // Absence is judged only on every object of the listing.
          if (refs.length > DOWNLOADS) continue;
          let text = '';
          for (const [k, ref] of refs.entries()) {
            if (!isObject(ref) || typeof ref.url !== 'string') ctx.expect(listing).fail(`object_refs[${k}] has no url string`, `/object_refs/${k}`);
            const { x } = await download(ctx, ref.url, k, listing);
            ctx.expect(x, `download of object_refs[${k}].url`).status(200);
            if (x.truncated) ctx.skip(`the object at ${ref.url} is larger than the run's body bound`);
            text += objectText(x.bytes);
          }
          if (text.includes(u.id)) continue;
          if (!namesUpdates(text, u.id, ctx.fixtures.transactionUpdateIds)) {
            unread.push(u.id);
            continue;
          }
          ctx
            .expect(listing)
            .fail(
              `${where}, but none of the ${refs.length} objects listed for the range (listing attached) holds it, though they name other updates`,
              '/object_refs',
            );
        }
        if (unread.length === dated.length)
          ctx.skip('the bulk objects name no update as text (their format is not shown): only non-empty listings could be checked');
      },
    }),
  ],
);
