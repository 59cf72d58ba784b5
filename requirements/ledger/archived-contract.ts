// A command that cannot succeed, for the rules on failed submissions: an Archive of a contract of the
// fixture's template that the run created and archived in one transaction (gone for good, so interpreting the
// Archive fails on any conformant node).
import { isObject, type Json } from '../../common/json.ts';
import type { CheckContext } from '../../engine/model.ts';
import { PATHS, type Acting, commandIdOf, creationOf, jsCommands, submitted, transactionFormat } from '../../interfaces/ledger/commands.ts';
import { LEDGER_EFFECTS } from '../../interfaces/ledger/updates.ts';

export interface ArchivedContract {
  contractId: string;
  /** The command that created and archived it. */
  archivedBy: string;
  /** The commands that archive it again: they cannot succeed. */
  archiveAgain: Json[];
}

/** Creates and archives a contract of the fixture's template (skipped when the fixture creates none). */
export async function archivedContract(ctx: CheckContext<'ledgerCommands'>, a: Acting, name: string): Promise<ArchivedContract> {
  const creation = creationOf(a.given);
  if (!creation)
    return ctx.skip('fixtures.ledgerCommands has no CreateCommand or CreateAndExerciseCommand to create (and archive) a contract of its template with');
  const archivedBy = commandIdOf(ctx, name);
  const setup = await ctx.ledger.post(
    PATHS.forTransaction,
    {
      commands: jsCommands(a, archivedBy, [{ CreateAndExerciseCommand: { ...creation, choice: 'Archive', choiceArgument: {} } }]),
      transactionFormat: transactionFormat(a.actAs, LEDGER_EFFECTS),
    },
    { auth: a.auth },
  );
  const tx = submitted(ctx, setup, archivedBy, `a ${creation.templateId} contract created and archived in one transaction, command ${archivedBy}`)?.transaction;
  const events: unknown[] = isObject(tx) && Array.isArray(tx.events) ? tx.events : [];
  const contractId = events.map((e) => (isObject(e) && isObject(e.CreatedEvent) ? e.CreatedEvent.contractId : undefined)).find((c) => typeof c === 'string');
  // Archived as the ledger-effects shape shows it (a consuming exercise), or as an ACS delta would.
  const archived = events.some(
    (e) =>
      isObject(e) &&
      ((isObject(e.ExercisedEvent) && e.ExercisedEvent.contractId === contractId && e.ExercisedEvent.consuming === true) ||
        (isObject(e.ArchivedEvent) && e.ArchivedEvent.contractId === contractId)),
  );
  if (typeof contractId !== 'string' || !archived)
    return ctx.skip(
      `the transaction of command ${archivedBy} does not show a contract created and archived in it, so there is no archived contract to submit against`,
    );
  ctx.created(`contract ${contractId} (${creation.templateId}), created and archived by command ${archivedBy}`);
  const archiveAgain = [{ ExerciseCommand: { templateId: creation.templateId, contractId, choice: 'Archive', choiceArgument: {} } }];
  return { contractId, archivedBy, archiveAgain };
}
