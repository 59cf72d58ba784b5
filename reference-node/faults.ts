// The fault catalog: every interface's faults in one list (ledger, wallet, scan), and the set switched on
// for one node. Each fault switches on one violation of one rule of the description, so the suite can prove
// it notices; the interfaces declare their faults next to their routes.
import type { DeviationDefinition, DivergenceDefinition, FaultDefinition } from './fault-definition.ts';
import { LEDGER_DEVIATIONS, type LedgerDeviationName } from './ledger/deviations.ts';
import { LEDGER_FAULTS, type LedgerFaultName } from './ledger/faults.ts';
import { REFUSAL_FAULTS, type RefusalFaultName } from './refusal-faults.ts';
import { SCAN_DEVIATIONS, type ScanDeviationName } from './scan/deviations.ts';
import { SCAN_DIVERGENCES, type ScanDivergenceName } from './scan/divergences.ts';
import { SCAN_FAULTS, type ScanFaultName } from './scan/faults.ts';
import { WALLET_DEVIATIONS, type WalletDeviationName } from './wallet/deviations.ts';
import { WALLET_FAULTS, type WalletFaultName } from './wallet/faults.ts';
import { BLIND_FAULTS, type BlindFault } from './blind/index.ts';

export type { DeviationDefinition, DivergenceDefinition, FaultDefinition, FaultSpec, GenericExpectation } from './fault-definition.ts';

/** Every declared fault and deviation name: a switch naming anything else does not compile. */
export type FaultName = LedgerFaultName | WalletFaultName | ScanFaultName | RefusalFaultName | DeviationName | ScanDivergenceName;
export type DeviationName = LedgerDeviationName | WalletDeviationName | ScanDeviationName;

export const FAULT_CATALOG: readonly FaultDefinition<LedgerFaultName | WalletFaultName | ScanFaultName | RefusalFaultName>[] = [
  ...LEDGER_FAULTS,
  ...WALLET_FAULTS,
  ...SCAN_FAULTS,
  ...REFUSAL_FAULTS,
];

/** Real-world deviations the node can show (see fault-definition.ts): switched like faults, judged apart. */
export const DEVIATION_CATALOG: readonly DeviationDefinition<DeviationName>[] = [...LEDGER_DEVIATIONS, ...WALLET_DEVIATIONS, ...SCAN_DEVIATIONS];

/** Divergences (see fault-definition.ts): switched like faults; only a comparison of two nodes notices them. */
export const DIVERGENCE_CATALOG: readonly DivergenceDefinition<ScanDivergenceName>[] = [...SCAN_DIVERGENCES];

export class UnknownFaultError extends Error {}

export { BLIND_FAULTS, type BlindFault } from './blind/index.ts';

/** The faults switched on for one node; immutable once built. */
export class FaultSet {
  private readonly active: ReadonlySet<string>;
  /** Names come from the command line at run time, so they are checked here, not by the compiler. */
  constructor(names: readonly string[] = []) {
    const known = new Set<string>([...FAULT_CATALOG, ...DEVIATION_CATALOG, ...DIVERGENCE_CATALOG, ...BLIND_FAULTS].map((f) => f.name));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length > 0) throw new UnknownFaultError(`unknown fault(s): ${unknown.join(', ')} (see --list-faults)`);
    this.active = new Set(names);
  }
  has(name: FaultName): boolean {
    return this.active.has(name);
  }
  /** The blind faults switched on (see blind/seam.ts), in the order of their rounds. */
  get blind(): readonly BlindFault[] {
    return BLIND_FAULTS.filter((f) => this.active.has(f.name));
  }
  get names(): string[] {
    return [...this.active].sort();
  }
}
