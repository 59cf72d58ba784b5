// The node's users: the wallet users (ledger user id -> party) and the ledger users of the ledger participant.
// The administrator reads as any party; the limited ledger user and, as on a validator node, every wallet user
// act and read as their own party only. Apart from world.ts, which calls it once while the world is built.
import type { LedgerUser, Party } from './model.ts';

export function addUsers(w: { readonly walletUsers: Map<string, string>; readonly ledgerUsers: Map<string, LedgerUser> }, users: Party[]): void {
  w.walletUsers.set('alice-wallet', users[0]!.id);
  w.walletUsers.set('bob-wallet', users[1]!.id);
  const limited = (party: string): LedgerUser => ({ primaryParty: party, actAs: [party], readAs: [party] });
  w.ledgerUsers.set('ledger-admin', { actAs: [], readAs: 'any' });
  w.ledgerUsers.set('alice-ledger', limited(users[0]!.id));
  for (const [user, party] of w.walletUsers) w.ledgerUsers.set(user, limited(party));
}
