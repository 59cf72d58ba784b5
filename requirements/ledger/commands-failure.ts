// Failed submissions to the commands that wait for their result: "failed submissions propagate the gRPC
// error, including interpretation errors" (submit-and-wait; the for-transaction and, deprecated, for-tree
// variants are "the same" but for what they return). The failing command is an Archive of a contract the run
// archived already, which interpretation rejects on any conformant node; it is sent to every waiting endpoint,
// so a variant that swallows the error is caught whichever it is. An error status is what the rule asks (its
// body is the generic answer check's business); a 2xx reports a success that did not happen.
import { isObject, parseJson, type Json } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { notServed } from '../../engine/served.ts';
import { describeAnswer } from '../../engine/transport/http.ts';
import { PATHS, type Acting, acting, commandIdOf, jsCommands, transactionFormat } from '../../interfaces/ledger/commands.ts';
import { LEDGER_EFFECTS } from '../../interfaces/ledger/updates.ts';
import { archivedContract } from './archived-contract.ts';

/** The waiting endpoints, each with how its request wraps the commands. */
const WAITING: ReadonlyArray<{ op: string; path: string; request: (a: Acting, commands: Json) => Json }> = [
  { op: 'submitAndWait', path: PATHS.submitAndWait, request: (_a, commands) => commands },
  {
    op: 'submitAndWaitForTransaction',
    path: PATHS.forTransaction,
    request: (a, commands) => ({ commands, transactionFormat: transactionFormat(a.actAs, LEDGER_EFFECTS) }),
  },
  { op: 'submitAndWaitForTransactionTree', path: PATHS.forTree, request: (_a, commands) => commands },
];

export const COMMAND_FAILURE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger' }, [
  rule({
    id: 'LEDGER-COMMANDS-WAIT-FAILURE-PROPAGATED',
    operations: ['submitAndWaitForTransaction', 'submitAndWait', 'submitAndWaitForTransactionTree'],
    cites: ['A.overview.1', 'A.overview.4', 'A.overview.8'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands', 'errors'],
    async check(ctx) {
      const a = acting(ctx);
      const { contractId, archivedBy, archiveAgain } = await archivedContract(ctx, a, 'wait-failure-setup');
      const spec = ctx.spec('ledger');
      const unserved: string[] = [];
      for (const w of WAITING) {
        const commandId = commandIdOf(ctx, `wait-failure-${w.op}`);
        const x = await ctx.ledger.post(w.path, w.request(a, jsCommands(a, commandId, archiveAgain)), { auth: a.auth });
        if (x.status === 0) ctx.expect(x).fail(`no answer to POST ${w.path} (command ${commandId}): ${x.error}`);
        // A JSON error object is the handler's refusal; anything else that says "no such operation" leaves the variant unjudged.
        const op = spec.catalog.byId.get(w.op);
        const why = op && !isObject(parseJson(x.text)) ? notServed(spec, op, x) : undefined;
        if (why) {
          unserved.push(`${w.path} ${why}`);
          continue;
        }
        if (x.status >= 400) continue;
        ctx
          .expect(x)
          .fail(
            `POST ${w.path} of command ${commandId}, an Archive of contract ${contractId} that command ${archivedBy} archived already, was answered ${describeAnswer(x)}: ` +
              'the submission cannot succeed, and a failed submission propagates its error (interpretation errors included) instead of a success',
          );
      }
      if (unserved.length === WAITING.length) ctx.unsupported(`no endpoint that waits for a command's result is served: ${unserved.join('; ')}`);
    },
  }),
]);
