// The WebSocket update channel (/v2/updates; the deprecated /flats and /trees on release line 3.4): the request
// of POST /v2/updates, read by the same window walk (update-window.ts), one element a message and without the
// list limit, which is what the channel is for. A bounded read (endInclusive) closes once delivered; an
// open-ended one delivers what exists up to the ledger end, then what is committed later, until the client closes.
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeContext } from '../../context.ts';
import { type Caller, requireReadRights } from '../callers.ts';
import { currentLedgerEnd } from '../offsets.ts';
import { Projector } from '../projection.ts';
import { parseStreamRequest } from '../stream-request.ts';
import { asTree, chainStages, type Element, requestedParties, type StreamForm, trailingGap, windowElements, windowEnd, wireFaults } from '../update-window.ts';
import type { Channel } from './channel.ts';
import { channelFaultStages, ignoreTemplateFilters } from './update-faults.ts';

/** How often an open-ended read looks for updates committed since it last looked. */
export const LIVE_POLL_MS = 20;

export async function serveUpdates(ctx: NodeContext, channel: Channel, caller: Caller, body: unknown, form: StreamForm): Promise<void> {
  const request = parseStreamRequest(ctx, body);
  if (form === 'trees' && request.transactions) request.transactions.shape = 'ledger-effects';
  const { parties, anyParty } = requestedParties(request);
  requireReadRights(caller, parties, anyParty);
  if (ctx.faults.has('ledger-ws-filter-ignored')) {
    ignoreTemplateFilters(request.transactions?.format);
    ignoreTemplateFilters(request.reassignments);
  }
  const projector = new Projector(ctx, request);
  const stages = chainStages(trailingGap(ctx, request), wireFaults(ctx, request), channelFaultStages(ctx));
  // A read that goes backwards cannot go on past the ledger end: it is bounded by it.
  const bounded = request.endInclusive !== undefined || request.descending;
  // ledger-ws-stops-at-list-limit: a bounded read ends where HTTP's list limit would have refused it.
  const most = bounded && ctx.faults.has('ledger-ws-stops-at-list-limit') ? ctx.settings.listLimit : Number.POSITIVE_INFINITY;
  let delivered = 0;
  const deliver = async (elements: Element[]) => {
    for (const e of elements) {
      if (!channel.open || delivered >= most) return;
      await channel.send(form === 'trees' ? asTree(e.json) : e.json);
      delivered++;
    }
  };
  const more = () => channel.open && delivered < most;

  let upTo = windowEnd(ctx, request);
  for (const e of windowElements(ctx, request, projector, upTo)) {
    if (!more()) break;
    await deliver(stages.push(e));
  }
  if (bounded) {
    if (more()) await deliver(stages.end(true));
    return channel.close(1000);
  }
  // ledger-ws-no-live-updates: what is committed later never comes; the channel stays open, silent.
  if (ctx.faults.has('ledger-ws-no-live-updates')) return channel.gone;
  while (channel.open) {
    await Promise.race([sleep(LIVE_POLL_MS), channel.gone]);
    const end = currentLedgerEnd(ctx.world);
    if (end <= upTo) continue;
    for (const e of windowElements(ctx, request, projector, end, upTo)) {
      if (!channel.open) break;
      await deliver(stages.push(e));
    }
    upTo = end;
  }
}
