// The ledger transactions of the offers created through the wallet: each is recorded at the clock's now as
// the next update of the participant's stream (World.submitted, after the commands submitted so far), by the
// wallet on behalf of the party that acts. The wallet's commands are not the caller's ledger commands, so
// they have no completion in the caller's completion stream.
import type { NodeContext } from '../context.ts';
import { effectiveAt, transactionAt } from '../ledger/submission.ts';
import type { TransactionUpdate, TxNode } from '../world/model.ts';
import { derivedHex } from '../world/rng.ts';

/** Where a transaction is recorded: what its contracts' ids and creation times derive from. */
export interface LedgerSlot {
  /** Its index in the world's numbering (after the history). */
  index: number;
  createdAtMicros: number;
  contractId(nodeId: number): string;
}

export function recordWalletTransaction(ctx: NodeContext, actor: string, nodesAt: (slot: LedgerSlot) => TxNode[]): TransactionUpdate {
  const { world } = ctx;
  const k = world.submitted.length;
  const index = world.count + k;
  const recordTimeMicros = ctx.clock.now();
  const nodes = nodesAt({ index, createdAtMicros: effectiveAt(recordTimeMicros), contractId: (nodeId) => world.contractId(index, nodeId) });
  const commandId = `wallet-${derivedHex(ctx.settings.seed, `wallet-command:${index}`, 8)}`;
  const tx = transactionAt(world, k, recordTimeMicros, { workflowId: 'wallet', commandId, submitters: [actor], rootNodeIds: [0], nodes });
  world.submitted.push(tx);
  return tx;
}
