// The WebSocket completion channels (/v2/commands/completions; /v2/commands/command-completions on release line
// 3.5): the request of their HTTP endpoints, the same reader checks and records (completion-stream.ts), one
// completion a message: those after beginExclusive, then those of commands submitted later, until the client closes.
import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeContext } from '../../context.ts';
import type { Caller } from '../callers.ts';
import { parseCompletionQuery } from '../command-request.ts';
import { completionElements, completionReader } from '../completion-stream.ts';
import type { Channel } from './channel.ts';
import { LIVE_POLL_MS } from './updates.ts';

export async function serveCompletions(ctx: NodeContext, channel: Channel, caller: Caller, body: unknown, since35: boolean): Promise<void> {
  const reader = completionReader(caller, parseCompletionQuery(body), since35);
  const { completions } = ctx.world;
  // ledger-ws-completions-missing: only the completions that existed when the channel opened.
  const known = ctx.faults.has('ledger-ws-completions-missing') ? completions.length : Number.POSITIVE_INFINITY;
  let read = 0;
  while (channel.open) {
    const to = Math.min(completions.length, known);
    for (const c of completionElements(ctx, reader, read, to)) {
      if (!channel.open) return;
      await channel.send(c);
    }
    read = to;
    await Promise.race([sleep(LIVE_POLL_MS), channel.gone]);
  }
}
