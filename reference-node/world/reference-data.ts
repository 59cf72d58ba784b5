// The reference data of the scan and wallet interfaces that no update of the history carries: name-service
// entries, transfer preapprovals, member traffic, super-validator reward weights and development fund coupons.
// Apart from world.ts, which calls it once while the world is built.
import type { AnsEntryRecord, Contract, MemberTraffic, Party, Synchronizer, Validator } from './model.ts';
import type { Rng } from './rng.ts';
import { GENESIS_MICROS, isoMicros } from './time.ts';

/** What of the world the reference data is made from and added to. */
export interface ReferenceDataWorld {
  readonly seed: number;
  readonly dso: Party;
  readonly svParties: Party[];
  readonly validators: Validator[];
  readonly synchronizers: Synchronizer[];
  readonly ansEntries: AnsEntryRecord[];
  readonly preapprovals: Map<string, { contract: Contract; domainId: string }>;
  readonly memberTraffic: Map<string, MemberTraffic>;
  readonly svRewardWeights: Map<string, Array<{ effectiveAtMicros: number; weight: string }>>;
  readonly coupons: Contract[];
  ledgerEndMicros(): number;
  contractId(index: number, nodeId: number): string;
  contract(index: number, nodeId: number, template: string, args: Record<string, unknown>, signatories: string[], observers: string[]): Contract;
}

export function addReferenceData(w: ReferenceDataWorld, rng: Rng, users: Party[]): void {
  const end = w.ledgerEndMicros();
  const day = 86_400_000_000;
  let n = 0;
  const entry = (user: string, name: string, url: string, description: string, expires: number | undefined, special = false) => {
    w.ansEntries.push({
      contractId: special ? undefined : w.contractId(0, 1000 + n),
      user,
      name,
      url,
      description,
      expiresAtMicros: expires,
      createdAtMicros: GENESIS_MICROS + (n + 1) * 3_600_000_000,
    });
    n++;
  };
  entry(w.dso.id, 'dso.ans', '', '', undefined, true);
  entry(w.svParties[0]!.id, 'sv1.sv.ans', 'https://sv1.example.com', 'Super validator 1', undefined, true);
  entry(users[0]!.id, 'alice.unverified.ans', 'https://alice.example.com', 'Alice', end + 90 * day);
  entry(users[1]!.id, 'bob.unverified.ans', 'http://bob.example.org/profile', '', end + 30 * day);
  entry(users[2]!.id, 'carol.unverified.ans', '', 'Carol', end - 2 * day); // expired
  entry(users[3]!.id, 'dave.unverified.ans', 'https://dave.example.net', 'Dave', end + 10 * day);
  entry(users[0]!.id, 'alice-shop.unverified.ans', 'https://shop.alice.example.com', 'Shop', end + 200 * day);
  entry(users[1]!.id, 'bobby.unverified.ans', '', '', end - 40 * day); // expired
  for (let k = 0; k < 6; k++) entry(users[k % 4]!.id, `app${k}.unverified.ans`, k % 2 ? `https://app${k}.example.com` : '', `App ${k}`, end + (k + 1) * day);
  entry(users[3]!.id, 'erin.unverified.ans', '', 'Erin', end - 10 * 60_000_000); // expired minutes before the ledger end

  for (const u of users.slice(0, 2)) {
    const c = w.contract(
      0,
      2000 + w.preapprovals.size,
      'Splice.AmuletRules:TransferPreapproval',
      { dso: w.dso.id, receiver: u.id, provider: w.validators[0]!.party, validFrom: isoMicros(GENESIS_MICROS) },
      [w.dso.id, u.id],
      [w.validators[0]!.party],
    );
    w.preapprovals.set(u.id, { contract: c, domainId: w.synchronizers[0]!.id });
  }

  for (const v of w.validators) {
    const limit = rng.int(10, 100) * 1_000_000;
    w.memberTraffic.set(v.participantId, { totalConsumed: rng.int(0, limit), totalLimit: limit, totalPurchased: limit });
    w.memberTraffic.set(v.mediatorId, { totalConsumed: rng.int(0, 1_000_000), totalLimit: 5_000_000, totalPurchased: 5_000_000 });
  }
  // One member whose purchase is still being incorporated: purchased exceeds the limit.
  const pending = w.memberTraffic.get(w.validators[1]!.participantId)!;
  pending.totalPurchased = pending.totalLimit + 2_000_000;

  for (const [k, sv] of w.svParties.entries()) {
    w.svRewardWeights.set(sv.id, [
      // Both changes lie inside the default history (about 20 minutes long), so "before now" finds one.
      { effectiveAtMicros: GENESIS_MICROS + 60_000_000, weight: String(10000 * (k + 1)) },
      { effectiveAtMicros: GENESIS_MICROS + 300_000_000, weight: String(15000 * (k + 1)) },
    ]);
  }

  for (let k = 0; k < 3; k++) {
    w.coupons.push(
      w.contract(0, 3000 + k, 'Splice.Amulet:UnclaimedDevelopmentFundCoupon', { dso: w.dso.id, amount: `${(k + 1) * 100}.0000000000` }, [w.dso.id], []),
    );
  }
}
