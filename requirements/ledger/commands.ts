// The commands that wait for their result: submit-and-wait ("submit one composite command and wait for its
// result"), and the same returning the transaction or (deprecated) its tree. Waited for, the result is there
// once the answer is: the update the answer names is in the stream of the acting parties at the offset it names
// (read in the ledger-effects shape, which shows a contract created and archived in one transaction), carrying
// the submitted command id, and a returned transaction or tree holds the events the stream shows of it. The
// commands are the user's or discovery's (fixtures.ledgerCommands): the description shows no command payload,
// and what a ledger accepts depends on its packages and the user's rights.
import { isObject, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { STREAM_LOOKUP_VARIANTS } from './stream-lookup.ts';
import {
  PATHS,
  acting,
  commandIdOf,
  eventKeys,
  expectOffset,
  fateOfCommands,
  findUpdate,
  jsCommands,
  readAt,
  submitted,
  transactionFormat,
  type Acting,
} from '../../interfaces/ledger/commands.ts';
import { LEDGER_EFFECTS } from '../../interfaces/ledger/updates.ts';

/**
 * The transaction `updateId` at `offset` on the stream of the acting parties, in the ledger-effects shape, with
 * the submitted command id (shown to the submitting parties).
 */
async function expectOnStream(
  ctx: CheckContext,
  a: Acting,
  commandId: string,
  updateId: string,
  offset: number,
  answeredBy: string,
): Promise<{ record: Json; x: Exchange; at: string }> {
  const { x, els } = await readAt(ctx, offset, a.actAs, ['transactions'], LEDGER_EFFECTS, a.auth);
  const found = findUpdate(els, updateId);
  if (!found)
    return ctx
      .expect(x)
      .fail(
        `${answeredBy} answered 200 with updateId ${updateId} at offset ${offset}, yet the update stream of ${a.actAs.join(', ')} at that offset (read right after, attached) does not hold it`,
      );
  const at = `/${found.index}/update/${found.kind}/value`;
  if (found.kind !== 'Transaction')
    ctx.expect(x).fail(`the update ${updateId} of command ${commandId} is a ${found.kind} on the stream, not a Transaction`, at);
  if (found.record.commandId !== commandId)
    ctx
      .expect(x)
      .fail(
        `the transaction ${updateId} on the stream of the submitting parties carries commandId ${JSON.stringify(found.record.commandId)}, not the submitted ${commandId}`,
        `${at}/commandId`,
      );
  return { record: found.record, x, at };
}

export const COMMANDS_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', variants: STREAM_LOOKUP_VARIANTS }, [
  rule({
    id: 'LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE',
    operations: ['submitAndWait', 'getUpdates'],
    confirms: 'submitAndWait',
    cites: ['A.overview.2'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const commandId = commandIdOf(ctx, 'submit-and-wait');
      const x = await ctx.ledger.post(PATHS.submitAndWait, jsCommands(a, commandId), { auth: a.auth });
      const answer = submitted(ctx, x, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
      const updateId: Json = answer?.updateId;
      if (typeof updateId !== 'string' || updateId === '') ctx.expect(x).fail('the answer names no updateId: no result to look for', '/updateId');
      ctx.created(`update ${updateId} of command ${commandId}: ${fateOfCommands(a.given)}`);
      const offset = expectOffset(ctx, answer.completionOffset, x, '/completionOffset', 'the answer names no completion offset to look for its result at');
      await expectOnStream(ctx, a, commandId, updateId, offset, 'submit-and-wait');
    },
  }),
  rule({
    id: 'LEDGER-COMMANDS-FOR-TRANSACTION-VISIBLE',
    operations: ['submitAndWaitForTransaction', 'getUpdates'],
    confirms: 'submitAndWaitForTransaction',
    cites: ['A.overview.4'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const commandId = commandIdOf(ctx, 'for-transaction');
      // The ledger-effects shape for the acting parties: the default (an ACS delta) shows nothing of a contract
      // created and archived in one transaction, and the stream is read in the same format to compare.
      const request = { commands: jsCommands(a, commandId), transactionFormat: transactionFormat(a.actAs, LEDGER_EFFECTS) };
      const x = await ctx.ledger.post(PATHS.forTransaction, request, { auth: a.auth });
      const answer = submitted(
        ctx,
        x,
        commandId,
        `the commands of fixtures.ledgerCommands with a ledger-effects format for ${a.actAs.join(', ')}, command ${commandId}`,
      );
      const tx: Json = answer?.transaction;
      if (!isObject(tx)) ctx.expect(x).fail('the answer carries no transaction object', '/transaction');
      const updateId = tx.updateId;
      if (typeof updateId !== 'string' || updateId === '') ctx.expect(x).fail('the returned transaction names no updateId', '/transaction/updateId');
      ctx.created(`update ${updateId} of command ${commandId}: ${fateOfCommands(a.given)}`);
      if (tx.commandId !== commandId)
        ctx
          .expect(x)
          .fail(`the returned transaction carries commandId ${JSON.stringify(tx.commandId)}, not the submitted ${commandId}`, '/transaction/commandId');
      const offset = expectOffset(ctx, tx.offset, x, '/transaction/offset', 'the returned transaction has no offset to look for it at');
      const returned = eventKeys(tx.events);
      if (returned.length === 0)
        ctx
          .expect(x)
          .fail(
            `the returned transaction has no events, although the acting parties ${a.actAs.join(', ')} see the commands they submitted in the ledger-effects shape`,
            '/transaction/events',
          );
      const stream = await expectOnStream(ctx, a, commandId, updateId, offset, 'submit-and-wait-for-transaction');
      const streamed = eventKeys(stream.record.events);
      if (returned.join('\n') !== streamed.join('\n'))
        ctx
          .expect(stream.x)
          .fail(
            `the transaction returned for command ${commandId} is not the one the stream shows in the same format: returned [${returned.join('; ')}], the stream (attached) [${streamed.join('; ')}]`,
            `${stream.at}/events`,
          );
    },
  }),
  rule({
    id: 'LEDGER-COMMANDS-FOR-TREE-VISIBLE',
    operations: ['submitAndWaitForTransactionTree', 'getUpdates'],
    confirms: 'submitAndWaitForTransactionTree',
    cites: ['A.overview.8'],
    mutates: true,
    needs: ['ledgerCommands'],
    tags: ['commands'],
    async check(ctx) {
      const a = acting(ctx);
      const commandId = commandIdOf(ctx, 'for-tree');
      const x = await ctx.ledger.post(PATHS.forTree, jsCommands(a, commandId), { auth: a.auth });
      const answer = submitted(ctx, x, commandId, `the commands of fixtures.ledgerCommands, command ${commandId}`);
      const tree: Json = answer?.transactionTree;
      if (!isObject(tree)) ctx.expect(x).fail('the answer carries no transactionTree object', '/transactionTree');
      const updateId = tree.updateId;
      if (typeof updateId !== 'string' || updateId === '') ctx.expect(x).fail('the returned tree names no updateId', '/transactionTree/updateId');
      ctx.created(`update ${updateId} of command ${commandId}: ${fateOfCommands(a.given)}`);
      if (tree.commandId !== commandId)
        ctx
          .expect(x)
          .fail(`the returned tree carries commandId ${JSON.stringify(tree.commandId)}, not the submitted ${commandId}`, '/transactionTree/commandId');
      const offset = expectOffset(ctx, tree.offset, x, '/transactionTree/offset', 'the returned tree has no offset to look for it at');
      // A tree event is `{CreatedTreeEvent | ExercisedTreeEvent: {value: event}}`, keyed by its node id.
      const byId = isObject(tree.eventsById) ? tree.eventsById : {};
      const nodes = Object.entries(byId).map(([nodeId, wrapped]) => {
        const [kind, inner] = isObject(wrapped) ? (Object.entries(wrapped)[0] ?? []) : [];
        const ev = isObject(inner) && isObject(inner.value) ? inner.value : {};
        return { nodeId, key: `${String(kind).replace(/TreeEvent$/, 'Event')} node ${nodeId} of ${ev.contractId}` };
      });
      if (nodes.length === 0)
        ctx
          .expect(x)
          .fail(
            `the returned tree has no events, although the acting parties ${a.actAs.join(', ')} see the commands they submitted`,
            '/transactionTree/eventsById',
          );
      // The tree is the ledger-effects view of the transaction: each of its nodes is an event the stream shows.
      const stream = await expectOnStream(ctx, a, commandId, updateId, offset, 'submit-and-wait-for-transaction-tree');
      const streamed = new Set(eventKeys(stream.record.events));
      const missing = nodes.filter((n) => !streamed.has(n.key));
      if (missing.length > 0)
        ctx
          .expect(stream.x)
          .fail(
            `the tree returned for command ${commandId} holds ${missing.map((n) => n.key).join('; ')}, which the stream's ledger-effects transaction (attached) does not: [${[...streamed].join('; ')}]`,
            `${stream.at}/events`,
          );
    },
  }),
]);
