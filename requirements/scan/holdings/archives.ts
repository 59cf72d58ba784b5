// Archives of holdings found by reading the scan's update list (POST /v2/updates) forward from the earliest
// creation looked at up to the snapshot, within a fixed number of pages: a consuming exercise of a contract
// archives it. What lies beyond the bound is not read, so an archive found is certain and one not found is not
// a proof of activity. A scan that does not serve the list gives no archives.
import { isObject, parseJson, pointer, type Json } from '../../../common/json.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import { isInt64 } from '../../../engine/int64.ts';
import type { CheckContext } from '../../../engine/model.ts';
import { timeNanos } from '../../../interfaces/scan/common.ts';

/** Pages of the update list one run reads for archives, and their size. */
const PAGES = 4;
const PAGE_SIZE = 500;

export interface Archive {
  updateId: string;
  recordTime: string;
  migration: number;
  exchange: Exchange;
  pointer: string;
}

interface Position {
  migration: number;
  at: bigint;
}

const before = (a: Position, b: Position) => a.migration < b.migration || (a.migration === b.migration && a.at <= b.at);

/** Where an item of the list stands: a transaction's migration, or a reassignment event's. */
function positionOf(item: Record<string, Json>): (Position & { text: string }) | undefined {
  const m = isObject(item.event) ? item.event.migration_id : item.migration_id;
  const at = timeNanos(item.record_time);
  return isInt64(m) && at !== undefined ? { migration: Number(m), at, text: String(item.record_time) } : undefined;
}

/**
 * The archives, by contract id, of the contracts in `from` made at or before `upTo`, read from just after the
 * earliest of their creating transactions.
 */
export async function archivesUpTo(
  ctx: CheckContext,
  from: ReadonlyArray<{ contract: Record<string, Json>; source: { tx: Record<string, Json> } }>,
  upTo: Position,
): Promise<Map<string, Archive>> {
  const wanted = new Set(from.map((c) => String(c.contract.contract_id)));
  const starts = from.map((c) => positionOf(c.source.tx)).filter((p) => p !== undefined);
  const out = new Map<string, Archive>();
  if (starts.length === 0) return out;
  let after = starts.reduce((a, b) => (before(a, b) ? a : b));
  for (let page = 0; page < PAGES; page++) {
    const x = await ctx.scan.post('/v2/updates', {
      page_size: PAGE_SIZE,
      after: { after_migration_id: after.migration, after_record_time: after.text },
      daml_value_encoding: 'compact_json',
    });
    // The list's own answers are no rule of this check: an unreadable page ends the search.
    const body = x.status === 200 ? parseJson(x.text) : undefined;
    if (x.status === 200 && body === undefined) return out;
    const items: Json[] = isObject(body) && Array.isArray(body.transactions) ? body.transactions : [];
    for (const [k, item] of items.entries()) {
      if (!isObject(item)) continue;
      const p = positionOf(item);
      if (!p || !before(p, upTo)) return out;
      after = p;
      if (!isObject(item.events_by_id)) continue;
      for (const [key, e] of Object.entries(item.events_by_id)) {
        if (isObject(e) && e.consuming === true && typeof e.contract_id === 'string' && wanted.has(e.contract_id) && !out.has(e.contract_id))
          out.set(e.contract_id, {
            updateId: String(item.update_id),
            recordTime: p.text,
            migration: p.migration,
            exchange: x,
            pointer: pointer('transactions', String(k), 'events_by_id', key),
          });
      }
    }
    if (items.length < PAGE_SIZE) return out;
  }
  return out;
}
