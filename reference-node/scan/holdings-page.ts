// One page of the holdings state: the world's holdings in creation order, filtered to those active at the
// snapshot and owned by one of the requested parties. A page walks forward from the position after the
// `after` token; it stops at page_size matches (plus one look-ahead match to know whether more remain) or at
// a hard bound of positions visited, so a request costs the same at 100k holdings as at 100.
import type { NodeContext } from '../context.ts';
import type { Contract, Snapshot } from '../world/model.ts';

/** Positions one request may visit. A page that reaches it before page_size matches ends early, with a
 *  token to continue from, so a sparse owner at scale 1000 costs several short requests, not one long one. */
export const MAX_POSITIONS_PER_PAGE = 10_000;

export interface HoldingsPageRequest {
  snapshot: Snapshot;
  owners: ReadonlySet<string>;
  pageSize: number;
  /** Sequence number of the last position the previous page covered; -1 to start at the first holding. */
  after: number;
}

export interface HoldingsPage {
  items: Array<{ seq: number; contract: Contract }>;
  /** Present iff more holdings may follow: pass as `after`. */
  next?: number;
}

/** Whether a holding the snapshot covers (created at or before it) is still active in it. */
export function activeAt(h: { archivedIn?: number }, snapshot: Snapshot): boolean {
  return h.archivedIn === undefined || h.archivedIn > snapshot.upToIndex;
}

export function holdingsPage(ctx: NodeContext, req: HoldingsPageRequest): HoldingsPage {
  const { world } = ctx;
  const upTo = req.snapshot.upToIndex;
  const lostItem = ctx.faults.has('scan-holdings-lost-item');
  let leakLeft = ctx.faults.has('scan-holdings-owner-leak') ? 1 : 0;
  const capacity = req.pageSize + (ctx.faults.has('scan-holdings-page-too-large') ? 1 : 0);
  const owners = ctx.faults.has('scan-holdings-cohosted-owners') ? cohosted(ctx, req.owners) : req.owners;

  const items: HoldingsPage['items'] = [];
  let matches = 0;
  let lastVisited = req.after;
  let more = false;
  for (let seq = req.after + 1, visited = 0; ; seq++, visited++) {
    if (visited >= MAX_POSITIONS_PER_PAGE) {
      more = true;
      break;
    }
    const h = world.holdingAt(seq);
    // Holdings are numbered in creation order, so the first one created after the snapshot ends the walk.
    if (!h || h.contract.createdIn > upTo) break;
    // scan-holdings-archived-included: contracts archived before the snapshot are returned as active.
    const active = activeAt(h, req.snapshot) || ctx.faults.has('scan-holdings-archived-included');
    let owned = active && owners.has(world.holdingOwner(h.contract));
    if (active && !owned && leakLeft > 0) {
      leakLeft--;
      owned = true;
    }
    if (owned) {
      if (items.length >= capacity) {
        more = true;
        break;
      }
      matches++;
      if (!(lostItem && matches === 2)) items.push({ seq, contract: h.contract });
    }
    lastVisited = seq;
  }

  const full = items.length >= capacity;
  let next: number | undefined = more ? (full ? items[items.length - 1]!.seq : lastVisited) : undefined;
  if (next === undefined && ctx.faults.has('scan-holdings-endless-token')) next = Math.max(lastVisited, req.after, 0);
  // The token points one element early, so the last contract of this page opens the next one as well.
  if (next !== undefined && full && items.length >= 2 && ctx.faults.has('scan-holdings-duplicate')) next = items[items.length - 1]!.seq - 1;
  if (items.length >= 2 && ctx.faults.has('scan-holdings-wrong-order')) items.reverse();
  // scan-holdings-grouped-by-owner: ordered as an (owner, creation) index would return them.
  if (ctx.faults.has('scan-holdings-grouped-by-owner')) {
    const owner = (c: Contract) => world.holdingOwner(c);
    items.sort((a, b) => (owner(a.contract) < owner(b.contract) ? -1 : owner(a.contract) > owner(b.contract) ? 1 : a.seq - b.seq));
  }
  return next === undefined ? { items } : { items, next };
}

/** The scan-holdings-cohosted-owners fault: the owners and every party sharing a participant with one of them. */
function cohosted(ctx: NodeContext, owners: ReadonlySet<string>): ReadonlySet<string> {
  const participants = new Set(ctx.world.parties.filter((p) => owners.has(p.id)).flatMap((p) => p.hostedOn));
  return new Set([...owners, ...ctx.world.parties.filter((p) => p.hostedOn.some((h) => participants.has(h))).map((p) => p.id)]);
}
