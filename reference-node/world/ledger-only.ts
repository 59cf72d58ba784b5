// Updates only the ledger participant's stream shows (World.ledgerOnly): neither scan's (they are not the DSO's)
// nor part of the history's numbering. Each is recorded shortly after the base update it follows, always an even
// one: the ledger's offset checkpoints follow odd ones, and a ledger-only update takes the offset just above the
// update it follows. Apart from world.ts and transfer-offers.ts, which add them while the world is built.
import type { Participant, Party, Synchronizer, TopologyUpdate, TransactionUpdate, UpdateBase } from './model.ts';
import { derivedHex } from './rng.ts';

/** How long after the update it follows a ledger-only update is recorded (less than the updates' spacing). */
const DELAY_MICROS = 400_000;

export interface LedgerOnlyWorld {
  readonly seed: number;
  readonly baseCount: number;
  readonly synchronizers: Synchronizer[];
  readonly participants: Participant[];
  readonly multiHostedParty: Party;
  readonly ledgerOnly: Map<number, TransactionUpdate | TopologyUpdate>;
  recordTimeMicros(index: number): number;
  migrationOf(index: number): number;
}

/** Record time of a ledger-only update that follows base update `after`. */
export function ledgerOnlyTimeMicros(w: Pick<LedgerOnlyWorld, 'recordTimeMicros'>, after: number): number {
  return w.recordTimeMicros(after) + DELAY_MICROS;
}

/** The common fields of a ledger-only update that follows base update `after`. */
export function ledgerOnlyBase(w: Pick<LedgerOnlyWorld, 'synchronizers' | 'recordTimeMicros' | 'migrationOf'>, after: number, updateId: string): UpdateBase {
  return {
    index: after,
    updateId,
    migrationId: w.migrationOf(after),
    synchronizerId: w.synchronizers[0]!.id,
    recordTimeMicros: ledgerOnlyTimeMicros(w, after),
  };
}

/** The multi-hosted party's hosting on its second participant, completed after its onboarding there, near the end of the base segment. */
export function addSecondHosting(w: LedgerOnlyWorld): void {
  const after = w.baseCount - 2;
  w.ledgerOnly.set(after, {
    ...ledgerOnlyBase(w, after, '1220' + derivedHex(w.seed, 'second-hosting', 32)),
    kind: 'topology',
    events: [{ type: 'Added', partyId: w.multiHostedParty.id, participantId: w.participants[1]!.id, permission: 'PARTICIPANT_PERMISSION_OBSERVATION' }],
  });
}
