// POST /v2/updates (and the deprecated /flats and /trees): the ledger participant's filtered update stream as one JSON array.
// Order of checks: credentials (401), request (plain-text 400), read rights (403), then the read itself
// (update-window.ts, shared with the WebSocket channel), which stops as soon as it has enough elements, so a
// million-update history is never materialised (a checkpoint every CHECKPOINT_EVERY updates also bounds how far
// a narrow filter scans for `cap` elements). The list limit, the query parameters and the plain-text 400 are HTTP's.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { identify, requireReadRights } from './callers.ts';
import { LedgerHttpError, sendCantonError, sendStreamBadRequest } from './errors.ts';
import { Projector } from './projection.ts';
import { InvalidStreamRequest, parseStreamQuery, parseStreamRequest, type StreamQuery, type StreamRequest } from './stream-request.ts';
import { asTree, type Element, requestedParties, type StreamForm, throughStage, trailingGap, windowElements, windowEnd, wireFaults } from './update-window.ts';

/** Longest an open-ended read waits for new elements, whatever the request asks. */
export const MAX_IDLE_WAIT_MS = 5_000;
/** How long the idle-timeout-ignored fault holds a read open: past any client's request timeout, unless it hangs up first. */
const IDLE_IGNORED_HOLD_MS = 60_000;

export async function getUpdates(ctx: NodeContext, req: FastifyRequest, reply: FastifyReply, form: StreamForm = 'updates'): Promise<FastifyReply> {
  try {
    const caller = await identify(ctx, req, !ctx.faults.has('ledger-no-auth'));
    // updates-missing-body-500: the body's fields are read before anything is validated; a missing one throws.
    if (ctx.faults.has('ledger-updates-missing-body-500') && req.body === undefined)
      throw new TypeError("Cannot read properties of undefined (reading 'beginExclusive')");
    const query = parseStreamQuery(ctx, req.query);
    const request = parseStreamRequest(ctx, req.body);
    if (form === 'trees' && request.transactions) request.transactions.shape = 'ledger-effects';
    if (!ctx.faults.has('ledger-read-rights-unchecked')) {
      const { parties, anyParty } = requestedParties(request);
      // any-party-read-unchecked: only the parties the request names are checked.
      requireReadRights(caller, parties, anyParty && !ctx.faults.has('ledger-any-party-read-unchecked'));
    }
    let result = read(ctx, request, query);
    if (result.overLimit) {
      const as500 = ctx.faults.has('ledger-list-limit-500');
      return sendCantonError(
        ctx,
        reply,
        as500 ? 500 : 413,
        as500 ? 'internal' : 'listLimit',
        `The number of matching elements is greater than the node limit (${ctx.settings.listLimit}); narrow the read, pass a limit, or use the WebSocket stream.`,
      );
    }
    // An open-ended read is completed once no new element arrived for the idle timeout: what exists up to the
    // ledger end, sent after that wait, with what commands submitted meanwhile added (read again, still bounded).
    if (request.endInclusive === undefined && !result.completedByLimit) {
      const submitted = ctx.world.submitted.length;
      if (query.limit === undefined && ctx.faults.has('ledger-idle-timeout-ignored')) await heldOpen(reply, IDLE_IGNORED_HOLD_MS);
      await sleep(Math.min(query.idleTimeoutMs ?? ctx.settings.defaultIdleTimeoutMs, MAX_IDLE_WAIT_MS));
      const again = ctx.world.submitted.length > submitted ? read(ctx, request, query) : result;
      if (!again.overLimit) result = again;
    }
    return reply
      .code(200)
      .type('application/json; charset=utf-8')
      .send(form === 'trees' ? finish(ctx, request, result.elements).map(asTree) : finish(ctx, request, result.elements));
  } catch (e) {
    if (e instanceof InvalidStreamRequest) return sendStreamBadRequest(ctx, reply, e.message);
    if (e instanceof LedgerHttpError) return sendCantonError(ctx, reply, e.status, e.kind, e.message, e.codeOverride);
    throw e;
  }
}

/** Waits `ms`, or until the client hangs up. */
function heldOpen(reply: FastifyReply, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    reply.raw.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function read(ctx: NodeContext, r: StreamRequest, q: StreamQuery): { elements: Element[]; overLimit: boolean; completedByLimit: boolean } {
  const { settings } = ctx;
  const no413 = ctx.faults.has('ledger-no-413');
  // limit-takes-window-tail: a bounded window with a limit is read whole, and its last `limit` elements kept.
  const tail = q.limit !== undefined && r.endInclusive !== undefined && ctx.faults.has('ledger-limit-takes-window-tail') ? q.limit : undefined;
  // list-limit-one-over-accepted: a result of one more than the list limit still passes (`> limit + 1`).
  const allowed = settings.listLimit + (ctx.faults.has('ledger-list-limit-one-over-accepted') ? 1 : 0);
  // Collect one more than allowed to know that it is exceeded (the no-413 fault reads on, bounded).
  const cap = tail === undefined ? (q.limit ?? (no413 ? 4 * settings.listLimit : allowed + 1)) : allowed + 1;
  const collected: Element[] = [];
  for (const e of windowElements(ctx, r, new Projector(ctx, r), windowEnd(ctx, r))) {
    if (collected.length >= cap) break;
    collected.push(e);
  }
  const elements = throughStage(trailingGap(ctx, r), collected, collected.length < cap);
  if (tail !== undefined) return { elements: elements.slice(-tail), overLimit: false, completedByLimit: true };
  // list-limit-at-bound-413: a result of exactly the list limit counts as beyond it (`>=`).
  const beyond = ctx.faults.has('ledger-list-limit-at-bound-413') ? elements.length >= allowed : elements.length > allowed;
  const overLimit = q.limit === undefined && !no413 && beyond;
  // list-limit-truncates: the first list-limit elements, answered as if they were all.
  if (overLimit && ctx.faults.has('ledger-list-limit-truncates'))
    return { elements: elements.slice(0, settings.listLimit), overLimit: false, completedByLimit: false };
  // list-limit-overflow-only: only the elements beyond the list limit, answered as if they were all.
  if (overLimit && ctx.faults.has('ledger-list-limit-overflow-only'))
    return { elements: elements.slice(settings.listLimit), overLimit: false, completedByLimit: false };
  return { elements, overLimit, completedByLimit: elements.length >= cap };
}

/** The answer array, with the element-level faults applied. */
function finish(ctx: NodeContext, r: StreamRequest, elements: Element[]): JsonObject[] {
  return throughStage(wireFaults(ctx, r), elements, true).map((e) => e.json);
}
