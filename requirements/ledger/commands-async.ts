// Commands submitted without waiting, and the completion streams that report what became of them. An async
// submission's outcome is a completion of its command id on the completion stream of the acting parties (the
// deprecated `/v2/commands/completions` and, since 3.5, `/v2/commands/command-completions`): an OK one names
// the update it resulted in, which the update stream holds at the completion's offset. A command that cannot
// succeed (an Archive of a contract this run archived already) is refused at once with an error, or completes
// with a non-OK status: never an OK completion, never a transaction. Waited-for commands complete too: their
// completion names the update and offset the submit-and-wait answer named.
import { isObject, parseJson } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { STREAM_LOOKUP_VARIANTS } from './stream-lookup.ts';
import { archivedContract } from './archived-contract.ts';
import { notServed, unsupportedReason } from '../../engine/served.ts';
import {
  PATHS,
  acting,
  awaitCompletion,
  commandIdOf,
  completedOk,
  expectOffset,
  expectOkCompletion,
  fateOfCommands,
  findUpdate,
  jsCommands,
  ledgerEnd,
  noCompletion,
  readAt,
  readCompletions,
  statusText,
  submitted,
} from '../../interfaces/ledger/commands.ts';
import { LEDGER_EFFECTS, postUpdates, body, updateFormat, elementsOf, recordOf } from '../../interfaces/ledger/updates.ts';

export const ASYNC_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger' }, [
  rule({
    id: 'LEDGER-COMMANDS-ASYNC-COMPLETES',
    operations: ['submitAsync', 'getCompletions', 'getUpdates'],
    variants: STREAM_LOOKUP_VARIANTS,
    confirms: 'submitAsync',
    cites: ['A.overview.10', 'A.overview.14'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const commandId = commandIdOf(ctx, 'async');
      const begin = await ledgerEnd(ctx, a.auth);
      const x = await ctx.ledger.post(PATHS.async, jsCommands(a, commandId), { auth: a.auth });
      submitted(ctx, x, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
      ctx.created(`command ${commandId}, submitted without waiting: ${fateOfCommands(a.given)}`);
      // The deprecated stream: every release line that serves the async endpoint serves it.
      const { found, last } = await awaitCompletion(ctx, PATHS.completions, a.actAs, begin, commandId, a.auth);
      if (!found) return noCompletion(ctx, PATHS.completions, commandId, begin, last, 'POST /v2/commands/async/submit');
      expectOkCompletion(ctx, found, commandId, a.actAs);
      const offset = expectOffset(ctx, found.value.offset, found.x, `${found.pointer}/offset`, `the completion of command ${commandId}`);
      const updateId = found.value.updateId as string;
      const { x: read, els } = await readAt(ctx, offset, a.actAs, ['transactions'], LEDGER_EFFECTS, a.auth);
      const update = findUpdate(els, updateId);
      if (!update)
        return ctx
          .expect(read)
          .fail(
            `the OK completion of command ${commandId} names update ${updateId} at offset ${offset}, yet the update stream of ${a.actAs.join(', ')} at that offset (attached) does not hold it`,
          );
      if (update.record.commandId !== commandId)
        ctx
          .expect(read)
          .fail(
            `the update ${updateId} on the stream of the submitting parties carries commandId ${JSON.stringify(update.record.commandId)}, not ${commandId}`,
            `/${update.index}/update/${update.kind}/value/commandId`,
          );
    },
  }),
  rule({
    id: 'LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK',
    operations: ['submitAndWaitForTransaction', 'submitAsync', 'getCompletions', 'getUpdates'],
    cites: ['A.overview.10'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const { contractId, archivedBy, archiveAgain } = await archivedContract(ctx, a, 'async-failure-setup');

      const commandId = commandIdOf(ctx, 'async-failure');
      const begin = await ledgerEnd(ctx, a.auth);
      const x = await ctx.ledger.post(PATHS.async, jsCommands(a, commandId, archiveAgain), { auth: a.auth });
      if (x.status === 0) ctx.expect(x).fail(`no answer to the async submission of command ${commandId}: ${x.error}`);
      // A JSON error object is the handler's refusal whatever its shape (the generic answer check judges that);
      // anything else that says "no such operation" leaves the rule unjudged.
      const op = ctx.spec('ledger').catalog.byId.get('submitAsync');
      const why = op && !isObject(parseJson(x.text)) ? notServed(ctx.spec('ledger'), op, x) : undefined;
      if (why && op) ctx.unsupported(unsupportedReason(op, why, `an async submission (command ${commandId})`), { exchange: x });
      // Refused at once with an error: what the rule asks of it (its body is the generic answer check's business).
      if (x.status >= 400) return;
      if (x.status < 200 || x.status >= 300)
        ctx
          .expect(x)
          .fail(
            `the async submission of command ${commandId} (an Archive of contract ${contractId}, archived already) was answered ${x.status}, neither accepted nor refused`,
          );
      const { found, last } = await awaitCompletion(ctx, PATHS.completions, a.actAs, begin, commandId, a.auth);
      if (!found)
        return ctx
          .expect(last)
          .fail(
            `the async submission of command ${commandId} (an Archive of contract ${contractId}, archived already by command ${archivedBy}) was accepted, yet no completion of it showed after offset ${begin}: its failure is reported nowhere (the last read attached)`,
          );
      if (completedOk(found.value) || (typeof found.value.updateId === 'string' && found.value.updateId !== ''))
        ctx
          .expect(found.x)
          .fail(
            `command ${commandId} archives contract ${contractId}, which command ${archivedBy} archived already, yet its completion carries ${statusText(found.value)}${found.value.updateId ? ` and names update ${found.value.updateId}` : ''}: it cannot have succeeded`,
            found.pointer,
          );
      // A failed command makes no transaction: nothing of it between the submission and its completion.
      const end = expectOffset(ctx, found.value.offset, found.x, `${found.pointer}/offset`, `the completion of command ${commandId}`);
      const read = await postUpdates(
        ctx,
        body({ beginExclusive: begin, endInclusive: end }, updateFormat(a.actAs, ['transactions'], LEDGER_EFFECTS)),
        undefined,
        a.auth,
      );
      ctx.expect(read, `a read of the stream between the submission of ${commandId} and its completion`).status(200);
      const index = elementsOf(ctx, read).findIndex((e) => recordOf(e)?.commandId === commandId);
      if (index >= 0)
        ctx
          .expect(read)
          .fail(`command ${commandId} completed with ${statusText(found.value)}, yet the stream holds a transaction of it (attached)`, `/${index}`);
    },
  }),
  rule({
    id: 'LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT',
    operations: ['getCompletions', 'submitAndWait'],
    confirms: 'getCompletions',
    cites: ['A.overview.2', 'A.overview.14'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const begin = await ledgerEnd(ctx, a.auth);
      // The stream at the ledger end: a read the node must accept whatever the commands do.
      await readCompletions(ctx, PATHS.completions, a.actAs, begin, a.auth, `the completions of ${a.actAs.join(', ')} after the ledger end (${begin})`);
      const commandId = commandIdOf(ctx, 'completions');
      const x = await ctx.ledger.post(PATHS.submitAndWait, jsCommands(a, commandId), { auth: a.auth });
      const answer = submitted(ctx, x, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
      const updateId: unknown = answer?.updateId;
      if (typeof updateId !== 'string' || updateId === '') ctx.expect(x).fail('the answer names no updateId: no completion to compare', '/updateId');
      ctx.created(`update ${updateId} of command ${commandId}: ${fateOfCommands(a.given)}`);
      const offset = expectOffset(ctx, answer.completionOffset, x, '/completionOffset', 'the submit-and-wait answer names no completion offset');
      const { found, last } = await awaitCompletion(ctx, PATHS.completions, a.actAs, begin, commandId, a.auth);
      if (!found) return noCompletion(ctx, PATHS.completions, commandId, begin, last, 'POST /v2/commands/submit-and-wait');
      expectOkCompletion(ctx, found, commandId, a.actAs);
      if (found.value.updateId !== updateId)
        ctx
          .expect(found.x)
          .fail(
            `the completion of command ${commandId} names update ${found.value.updateId}, yet submit-and-wait answered updateId ${updateId}`,
            `${found.pointer}/updateId`,
          );
      if (found.value.offset !== offset)
        ctx
          .expect(found.x)
          .fail(
            `the completion of command ${commandId} is at offset ${found.value.offset}, yet submit-and-wait answered completionOffset ${offset}`,
            `${found.pointer}/offset`,
          );
    },
  }),
  rule({
    id: 'LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC',
    operations: ['getCommandCompletions', 'submitAsync'],
    confirms: 'getCommandCompletions',
    cites: ['A.overview.10', 'A.overview.17'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const begin = await ledgerEnd(ctx, a.auth);
      // The stream at the ledger end: a read the node must accept whatever the commands do (a node before 3.5
      // does not serve it: unsupported).
      await readCompletions(ctx, PATHS.commandCompletions, a.actAs, begin, a.auth, `the completions of ${a.actAs.join(', ')} after the ledger end (${begin})`);
      const commandId = commandIdOf(ctx, 'command-completions');
      const x = await ctx.ledger.post(PATHS.async, jsCommands(a, commandId), { auth: a.auth });
      submitted(ctx, x, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
      ctx.created(`command ${commandId}, submitted without waiting: ${fateOfCommands(a.given)}`);
      const { found, last } = await awaitCompletion(ctx, PATHS.commandCompletions, a.actAs, begin, commandId, a.auth);
      if (!found) return noCompletion(ctx, PATHS.commandCompletions, commandId, begin, last, 'POST /v2/commands/async/submit');
      expectOkCompletion(ctx, found, commandId, a.actAs);
      expectOffset(ctx, found.value.offset, found.x, `${found.pointer}/offset`, `the completion of command ${commandId}`);
    },
  }),
]);
