// POST /v2/commands/submit-and-wait: "submit one composite command and wait for its result". Waited for, the
// result is there once the answer is: the update it names is in the stream of the acting parties at the
// completion offset it names (read in the ledger-effects shape, which shows a contract created and archived in
// one transaction). The command is the user's or discovery's (fixtures.ledgerCommands): the description shows
// no command payload, and what a ledger accepts depends on its packages and the user's rights.
import { describeAnswer } from '../http.ts';
import type { Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';
import { IDLE_MS, LEDGER_EFFECTS, body, elementsOf, expectReadable, limitedAuth, postUpdates, recordOf, updateFormat } from './updates/client.ts';

const PATH = '/v2/commands/submit-and-wait';

export const COMMANDS_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE',
    kind: 'rule',
    level: 'MUST',
    interface: 'ledger',
    operations: ['submitAndWait'],
    section: 'A. Ledger interface > Other ledger endpoints (overview)',
    sentence: '/v2/commands/submit-and-wait: Submit one composite command and wait for its result',
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const given = ctx.fixtures.ledgerCommands!;
      // The user that may act: the limited user where one is given (a validator's wallet user acts as its party).
      const auth = ctx.fixtures.ledgerLimitedToken ? limitedAuth(ctx) : undefined;
      const commandId = `cnc-${ctx.runId}-submit-and-wait`;
      const x = await ctx.ledger.post(PATH, { ...given, commandId }, { auth });
      // A command id is used once: a run with the same run id against this node already submitted it.
      if (x.status === 409)
        ctx.skip(`commandId ${commandId} was already used on this node (409); a run with another run id (another --seed, or a later start) uses a fresh one`);
      // Whether the ledger accepts the command is its packages' and the user's business (a copy discovery made
      // of a contract may break a template's rules); the rule is about the result of an accepted one.
      if (x.status !== 200)
        ctx.skip(`the command of fixtures.ledgerCommands (commandId ${commandId}) was answered ${describeAnswer(x)}, not accepted: no result to look for`);
      const answer = ctx.json(x);
      const updateId: unknown = answer?.updateId;
      const offset: unknown = answer?.completionOffset;
      if (typeof updateId !== 'string' || !Number.isSafeInteger(offset) || (offset as number) < 1)
        ctx.fail('the answer names no updateId and positive completionOffset: no result to look for', { exchange: x, pointer: '/completionOffset' });
      const at = offset as number;
      const read = await postUpdates(
        ctx,
        body({ beginExclusive: at - 1, endInclusive: at }, updateFormat(given.actAs, ['transactions'], LEDGER_EFFECTS)),
        { stream_idle_timeout_ms: IDLE_MS },
        auth,
      );
      expectReadable(ctx, read);
      if (!elementsOf(ctx, read).some((e) => recordOf(e)?.updateId === updateId))
        ctx.fail(
          `submit-and-wait answered 200 with updateId ${updateId} at completionOffset ${at}, yet the update stream of ${given.actAs.join(', ')} at that offset (read right after, attached) does not hold it`,
          { exchange: read },
        );
    },
  },
]);
