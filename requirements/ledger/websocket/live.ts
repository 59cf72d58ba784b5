// What only a stream that stays open can show: an open-ended read over the channel delivers an update
// committed after it opened (the stream "does not terminate"; its purpose is to follow the ledger) and stops
// when the client closes it; the completion channels deliver the completion of a command submitted while
// they are open, under its command id. Both submit the fixture's commands, so they run with mutations allowed.
import type { Json } from '../../../common/json.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { CheckUnsupported } from '../../../engine/model.ts';
import type { ChannelExchange } from '../../../engine/transport/websocket.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import {
  COMPLETION_WAIT_MS,
  PATHS,
  acting,
  commandIdOf,
  completionsIn,
  expectOkCompletion,
  fateOfCommands,
  jsCommands,
  ledgerEnd,
  submitted,
  type Acting,
} from '../../../interfaces/ledger/commands.ts';
import { channelElements, UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import { LEDGER_EFFECTS, body, recordOf, updateFormat } from '../../../interfaces/ledger/updates.ts';

/** How long an open stream must stay quiet to count as caught up before the suite commits its update. */
const CAUGHT_UP_MS = 500;
/** Operation ids of the completion endpoints whose channels these are (the release rule dates the newer). */
const COMMAND_COMPLETIONS = 'getCommandCompletions';

/** A message carrying the update of `commandId` (a transaction of the stream). */
const carries = (commandId: string) => (m: unknown) => recordOf(m)?.commandId === commandId;
/** A message carrying the completion of `commandId`. */
const completes = (commandId: string) => (m: unknown) => completionsIn([m]).some((c) => c.value.commandId === commandId);

/** The client's close was answered: the node stopped the stream when asked. */
function expectStopped(ctx: CheckContext, x: ChannelExchange, cite: ReturnType<typeof channelElements>['cite']): void {
  if (x.closeHandshake === 'unanswered')
    ctx.fail(`the node did not answer the client's close of ${x.path} within the wait: the stream did not stop when the client closed it`, { exchange: cite });
}

/** Submits the fixture's commands: the answer, once the channel it is committed under caught up. */
function submitter(ctx: CheckContext, a: Acting, path: string, commandId: string): { act: () => Promise<void>; answer: () => Exchange | undefined } {
  let answer: Exchange | undefined;
  return {
    act: async () => {
      answer = await ctx.ledger.post(path, jsCommands(a, commandId), { auth: a.auth });
    },
    answer: () => answer,
  };
}

export const LIVE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger' }, [
  rule({
    id: 'LEDGER-WEBSOCKET-LIVE-UPDATE',
    operations: ['submitAndWait'],
    cites: ['R.ledger.9', 'X.errors.2'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['websocket', 'commands'],
    channels: [UPDATES_CHANNEL],
    async check(ctx) {
      const a = acting(ctx);
      const commandId = commandIdOf(ctx, 'ws-live');
      const begin = await ledgerEnd(ctx, a.auth);
      const submit = submitter(ctx, a, PATHS.submitAndWait, commandId);
      // Open-ended: from the ledger end, the acting parties' transactions (ledger effects: a contract the commands
      // create and archive at once leaves no ACS delta); the update is committed once the stream caught up.
      const x = await ctx.ledger.channel(UPDATES_CHANNEL, {
        request: body({ beginExclusive: begin }, updateFormat(a.actAs, ['transactions'], LEDGER_EFFECTS)),
        auth: a.auth,
        idleMs: CAUGHT_UP_MS,
        until: carries(commandId),
        live: { act: submit.act, waitMs: COMPLETION_WAIT_MS },
      });
      const { els, cite } = channelElements(ctx, x, 'sample');
      const answer = submit.answer();
      if (!answer)
        return ctx.fail(
          `the open-ended stream of ${UPDATES_CHANNEL} from offset ${begin} ended before the suite could commit an update to it: ${x.error ?? 'closed by the node'}`,
          {
            exchange: cite,
          },
        );
      submitted(ctx, answer, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
      ctx.created(`command ${commandId}, submitted while a WebSocket stream was open: ${fateOfCommands(a.given)}`);
      if (x.close?.by === 'node')
        ctx.fail(`the open-ended stream of ${UPDATES_CHANNEL} from offset ${begin} was closed by the node (${x.close.code}) instead of following the ledger`, {
          exchange: cite,
        });
      if (!els.some(carries(commandId)))
        ctx.fail(
          `the open-ended stream of ${UPDATES_CHANNEL} from offset ${begin} did not deliver the transaction of command ${commandId} within ${COMPLETION_WAIT_MS} ms of its submission, committed after the stream opened`,
          { exchange: cite },
        );
      expectStopped(ctx, x, cite);
    },
  }),
  rule({
    id: 'LEDGER-WEBSOCKET-COMPLETIONS',
    operations: ['submitAsync'],
    cites: ['A.overview.13', 'A.overview.14', 'A.overview.15', 'A.overview.17'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['websocket', 'commands'],
    channels: [PATHS.completions, PATHS.commandCompletions],
    async check(ctx) {
      const a = acting(ctx);
      const commandId = commandIdOf(ctx, 'ws-completion');
      const begin = await ledgerEnd(ctx, a.auth);
      const submit = submitter(ctx, a, PATHS.async, commandId);
      const request: Json = { parties: a.actAs, beginExclusive: begin };
      // Both channels open before the command goes out: the first commits it once caught up, the second waits.
      const [deprecated, newer] = await Promise.all([
        ctx.ledger.channel(PATHS.completions, {
          request,
          auth: a.auth,
          idleMs: CAUGHT_UP_MS,
          until: completes(commandId),
          live: { act: submit.act, waitMs: COMPLETION_WAIT_MS },
        }),
        // Quiet from its start, it waits as long as the first: its caught-up gap and then the completion's wait.
        ctx.ledger.channel(PATHS.commandCompletions, { request, auth: a.auth, idleMs: 2 * CAUGHT_UP_MS + COMPLETION_WAIT_MS, until: completes(commandId) }),
      ]);
      const answer = submit.answer();
      if (answer) {
        submitted(ctx, answer, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
        ctx.created(`command ${commandId}, submitted without waiting while the completion streams were open: ${fateOfCommands(a.given)}`);
      }
      for (const x of [deprecated, newer]) {
        let read: ReturnType<typeof channelElements>;
        try {
          read = channelElements(ctx, x, 'sample');
        } catch (e) {
          // The newer channel, of a node whose release predates it, need not be there.
          if (e instanceof CheckUnsupported && x === newer && ctx.notOfRelease(COMMAND_COMPLETIONS)) continue;
          throw e;
        }
        if (!answer)
          ctx.fail(`the completion stream ${x.path} from offset ${begin} ended before the suite could submit a command: ${x.error ?? 'closed by the node'}`, {
            exchange: read.cite,
          });
        const hit = completionsIn(read.els).find((c) => c.value.commandId === commandId);
        if (!hit)
          return ctx.fail(
            `the completion stream ${x.path}, open from offset ${begin}, did not deliver the completion of command ${commandId} within ${COMPLETION_WAIT_MS} ms of its submission`,
            { exchange: read.cite },
          );
        expectOkCompletion(ctx, { ...hit, x: read.cite }, commandId, a.actAs);
        expectStopped(ctx, x, read.cite);
      }
    },
  }),
]);
