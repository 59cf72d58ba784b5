// The command endpoints of the ledger interface, simulated for real: a submission is checked (credentials 401,
// body as the official document shapes it, plain-text 400, act and read rights 403), interpreted against the
// world and recorded as the next update of the participant's stream, with its completion (submission.ts; a
// reassignment's in reassignment.ts).
// The completion endpoints answer the completions of the user's own commands (completion-stream.ts, shared with
// their WebSocket channels), waiting for new ones as the update stream does.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { ReassignmentUpdate } from '../world/model.ts';
import { derivedHex } from '../world/rng.ts';
import { isoMicros } from '../world/time.ts';
import type { UserCaller } from './authenticated-route.ts';
import { requireActRights, requireReadRights } from './callers.ts';
import {
  parseCommands,
  parseCommandsForTransaction,
  parseCompletionQuery,
  parseReassignment,
  type SubmittedCommands,
  type SubmittedReassignment,
} from './command-request.ts';
import { completionElements, completionReader } from './completion-stream.ts';
import { LedgerHttpError } from './errors.ts';
import { overviewRoute } from './overview.ts';
import { Projector } from './projection.ts';
import { releaseStyle, styleRecord } from './release-style.ts';
import { reassignmentRecord, transactionRecord, transactionTree } from './render.ts';
import { namedParties, queryInt, type EventFormatSpec, type Shape } from './stream-request.ts';
import { reassign } from './reassignment.ts';
import { submit, type Recorded, type Submission, type SubmitOptions } from './submission.ts';
import { MAX_IDLE_WAIT_MS } from './update-stream.ts';

type Handler = (req: FastifyRequest, caller: UserCaller) => unknown | Promise<unknown>;

export function commandRoutes(app: FastifyInstance, ctx: NodeContext): void {
  const route = (handler: Handler) => overviewRoute<UserCaller>(ctx, handler);
  /** Submits the commands of a request after checking the caller's rights; returns what was recorded. */
  const submitted = (caller: UserCaller, cmds: SubmittedCommands, options: SubmitOptions = {}): Submission => {
    requireActRights(caller, cmds.actAs);
    requireReadRights(caller, cmds.readAs, false);
    requireUserId(caller, cmds.userId);
    return submit(ctx, cmds, caller.user, options);
  };

  app.post(
    '/commands/submit-and-wait',
    route((req, caller) => {
      const s = submitted(caller, parseCommands(req.body));
      // ledger-submit-and-wait-offset-ahead: the answer names the offset after the one the update took.
      return { updateId: s.update.updateId, completionOffset: s.offset + (ctx.faults.has('ledger-submit-and-wait-offset-ahead') ? 1 : 0) };
    }),
  );
  app.post(
    '/commands/submit-and-wait-for-transaction',
    route((req, caller) => {
      const { commands, format } = parseCommandsForTransaction(req.body);
      const asked = format ?? defaultFormat(commands);
      requireReadRights(caller, asked.format.byParty.keys(), asked.format.anyParty !== undefined);
      const transaction = transactionOf(ctx, submitted(caller, commands), asked);
      // ledger-for-transaction-phantom-update: the answer names an update id the stream never shows.
      if (ctx.faults.has('ledger-for-transaction-phantom-update'))
        transaction.updateId = `1220${derivedHex(ctx.settings.seed, `phantom:${transaction.updateId}`, 32)}`;
      return { transaction };
    }),
  );
  app.post(
    '/commands/submit-and-wait-for-transaction-tree',
    route((req, caller) => {
      const commands = parseCommands(req.body);
      let s: Submission;
      try {
        s = submitted(caller, commands);
      } catch (e) {
        // ledger-tree-failure-swallowed: a command that fails interpretation (a contract not found) is answered
        // as a success with an empty tree, its error lost.
        if (!(e instanceof LedgerHttpError && e.status === 404 && ctx.faults.has('ledger-tree-failure-swallowed'))) throw e;
        const at = isoMicros(0);
        return {
          transactionTree: { updateId: '', commandId: commands.commandId, effectiveAt: at, offset: 0, eventsById: {}, synchronizerId: '', recordTime: at },
        };
      }
      const tree = transactionTree(transactionOf(ctx, s, { ...defaultFormat(commands), shape: 'ledger-effects' }));
      // ledger-transaction-tree-empty: the tree leaves out every event of the transaction.
      if (ctx.faults.has('ledger-transaction-tree-empty')) tree.eventsById = {};
      return { transactionTree: tree };
    }),
  );
  app.post(
    '/commands/async/submit',
    route((req, caller) => {
      submitted(caller, parseCommands(req.body), { async: true });
      return {};
    }),
  );
  const reassigned = (caller: UserCaller, cmds: SubmittedReassignment, options: SubmitOptions = {}): Recorded<ReassignmentUpdate> => {
    requireActRights(caller, [cmds.submitter]);
    requireUserId(caller, cmds.userId);
    return reassign(ctx, cmds, caller.user, options);
  };
  app.post(
    '/commands/submit-and-wait-for-reassignment',
    route((req, caller) => {
      const { commands, eventFormat } = parseReassignment(req.body);
      if (eventFormat) {
        const named = namedParties(eventFormat);
        requireReadRights(caller, named.parties, named.anyParty);
      }
      return { reassignment: reassignmentOf(ctx, reassigned(caller, commands), eventFormat) };
    }),
  );
  app.post(
    '/commands/async/submit-reassignment',
    route((req, caller) => {
      reassigned(caller, parseReassignment(req.body).commands, { async: true });
      return {};
    }),
  );
  app.post(
    '/commands/completions',
    route((req, caller) => completions(ctx, req, caller, false)),
  );
  // Since 3.5 (X.versioning.2): a node playing 3.4 has no such route, so it answers as any unknown path.
  if (ctx.release.ledger !== '3.4')
    app.post(
      '/commands/command-completions',
      route((req, caller) => {
        // command-completions-unserved: a node that states 3.5 but never implemented the endpoint.
        if (ctx.faults.has('ledger-command-completions-unserved'))
          throw new LedgerHttpError(501, 'internal', 'Command completions are not implemented by this participant.', 'UNIMPLEMENTED');
        return completions(ctx, req, caller, true);
      }),
    );
}

/** The documented default: the submitting and reading parties' whole view, as an ACS delta, verbose. */
function defaultFormat(cmds: SubmittedCommands): { format: EventFormatSpec; shape: Shape } {
  const wildcard = () => ({ wildcard: true, wildcardBlob: false, templates: new Map(), interfaces: new Map() });
  const parties = [...new Set([...cmds.actAs, ...cmds.readAs])];
  return { format: { byParty: new Map(parties.map((p) => [p, wildcard()])), verbose: true }, shape: 'acs-delta' };
}

/** The submitted transaction as the stream shows it to `asked` (with no events when it shows nothing of it). */
function transactionOf(ctx: NodeContext, s: Submission, asked: { format: EventFormatSpec; shape: Shape }): JsonObject {
  const el = new Projector(ctx, { beginExclusive: 0, descending: false, transactions: asked }).project(s.update, s.offset);
  const rendered = (el?.update as JsonObject | undefined)?.Transaction as JsonObject | undefined;
  if (rendered) return rendered.value as JsonObject;
  const rec = transactionRecord(s.update, { offset: s.offset, events: [], commandId: true, dropRecordTime: false });
  const style = releaseStyle(ctx);
  if (style) styleRecord('Transaction', rec, style);
  return rec;
}

/**
 * Completions of the asking user's commands for the requested parties, after `beginExclusive`; waits for new
 * ones. `since35`: the command-completions endpoint (its body has no userId in the official document, which
 * this node reads all the same).
 */
async function completions(ctx: NodeContext, req: FastifyRequest, caller: UserCaller, since35: boolean): Promise<JsonObject[]> {
  const query = isObject(req.query) ? req.query : {};
  const limit = queryInt(query.limit, 'limit');
  const idle = queryInt(query.stream_idle_timeout_ms, 'stream_idle_timeout_ms');
  const reader = completionReader(caller, parseCompletionQuery(req.body), since35);
  const cap = limit ?? ctx.settings.listLimit + 1;
  const read = () => {
    const out: JsonObject[] = [];
    for (const c of completionElements(ctx, reader)) {
      if (out.length >= cap) break;
      out.push(c);
    }
    return out;
  };
  let out = read();
  // Open-ended like the update stream: complete once no new completion arrived for the idle timeout.
  if (out.length < cap) {
    await sleep(Math.min(idle ?? ctx.settings.defaultIdleTimeoutMs, MAX_IDLE_WAIT_MS));
    out = read();
  }
  if (limit === undefined && out.length > ctx.settings.listLimit)
    throw new LedgerHttpError(413, 'listLimit', `The number of completions is greater than the node limit (${ctx.settings.listLimit}); pass a limit.`);
  return out;
}

/** A command names its user only as the token's. */
function requireUserId(caller: UserCaller, userId: string | undefined): void {
  if (userId !== undefined && userId !== caller.user)
    throw new LedgerHttpError(403, 'permissionDenied', `User '${caller.user}' may not submit as user '${userId}'.`);
}

/** The recorded reassignment as the stream shows it to `format`; without a format (or nothing seen), with no events. */
function reassignmentOf(ctx: NodeContext, s: Recorded<ReassignmentUpdate>, format: EventFormatSpec | undefined): JsonObject {
  if (format) {
    const el = new Projector(ctx, { beginExclusive: 0, descending: false, reassignments: format }).project(s.update, s.offset);
    const rendered = (el?.update as JsonObject | undefined)?.Reassignment as JsonObject | undefined;
    if (rendered) return rendered.value as JsonObject;
  }
  const rec = { ...reassignmentRecord(s.update, { offset: s.offset, eventOffset: s.offset, witnessParties: [], blob: false, commandId: true }), events: [] };
  const style = releaseStyle(ctx);
  if (style) styleRecord('Reassignment', rec, style);
  return rec;
}
