// The world of a node that diverges from its network (scan-divergent-holding-amount): changed once, in the
// world itself, so that every interface and every shape of the node tells the same changed story and no rule
// of a single node breaks.
import type { World } from './world.ts';

/** One unit more on the first active holding's initial amount. */
export function divergeHoldingAmount(world: World): void {
  const holding = world.baseHoldings.find((h) => h.archivedIn === undefined);
  if (!holding) return;
  const args = holding.contract.createArguments as { amount: { initialAmount: string } };
  const [units, fraction] = args.amount.initialAmount.split('.');
  // The contract object is shared by its creating transaction and the holdings, so one assignment changes both.
  holding.contract.createArguments = {
    ...args,
    amount: { ...args.amount, initialAmount: `${BigInt(units!) + 1n}${fraction === undefined ? '' : `.${fraction}`}` },
  };
}
