// The completion stream of the ledger, one code path for both transports (POST /v2/commands/completions and
// command-completions, and their WebSocket channels): whose completions a request may read, and the records of
// those after beginExclusive, lazily, in offset order (World.completions only grows, in submission order).
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { isoMicros } from '../world/time.ts';
import { type Caller, requireReadRights } from './callers.ts';
import type { CompletionQuery } from './command-request.ts';
import { LedgerHttpError } from './errors.ts';
import { submittedOffset } from './offsets.ts';

/** Whose completions a request reads: a user's (any user's: undefined) commands acting as one of the parties. */
export interface CompletionReader {
  userId?: string;
  parties: ReadonlySet<string>;
  beginExclusive: number;
  /** The command-completions endpoint (release line 3.5), rather than the deprecated completions one. */
  since35: boolean;
}

/**
 * Checks that the caller may read what the request asks (read rights for its parties, and another user's
 * completions only with the right to read as any party), and who it reads.
 */
export function completionReader(caller: Caller, q: CompletionQuery, since35: boolean): CompletionReader {
  requireReadRights(caller, q.parties, false);
  const user = caller.kind === 'user' ? caller : undefined;
  const userId = q.userId ?? user?.user;
  if (user && userId !== user.user && user.readAs !== 'any')
    throw new LedgerHttpError(403, 'permissionDenied', `User '${user.user}' may not read the completions of user '${userId}'.`);
  return { userId, parties: new Set(q.parties), beginExclusive: q.beginExclusive, since35 };
}

/**
 * The reader's completions among World.completions from index `from` up to `to` (exclusive), as
 * CompletionStreamResponse records.
 */
export function* completionElements(ctx: NodeContext, reader: CompletionReader, from = 0, to = ctx.world.completions.length): Generator<JsonObject> {
  const { world } = ctx;
  for (let i = from; i < to; i++) {
    const c = world.completions[i]!;
    const offset = submittedOffset(world.count, c.submitted);
    if ((reader.userId !== undefined && c.userId !== reader.userId) || offset <= reader.beginExclusive || !c.actAs.some((p) => reader.parties.has(p))) continue;
    const tx = world.submitted[c.submitted]!;
    const value: JsonObject = {
      // ledger-command-completions-submission-id: the newer endpoint maps the submission id into the command id.
      commandId: reader.since35 && ctx.faults.has('ledger-command-completions-submission-id') ? c.submissionId : c.commandId,
      status: { code: 0, message: '' },
      updateId: c.updateId,
      userId: c.userId,
      actAs: c.actAs.filter((p) => reader.parties.has(p)),
      submissionId: c.submissionId,
      offset,
      synchronizerTime: { synchronizerId: tx.synchronizerId, recordTime: isoMicros(tx.recordTimeMicros) },
    };
    // ledger-completion-status-failed: every completion reports a failure, although its command succeeded.
    if (ctx.faults.has('ledger-completion-status-failed')) value.status = { code: 13, message: 'INTERNAL: the command could not be completed' };
    yield { completionResponse: { Completion: { value } } };
  }
}
