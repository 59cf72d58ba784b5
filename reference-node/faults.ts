// The fault catalog: each named fault switches on one violation of one rule of the description, so the
// suite can prove it notices. Interfaces declare their faults next to their routes.
import { LEDGER_FAULTS } from './ledger/faults.ts';
import { SCAN_FAULTS } from './scan/faults.ts';
import { WALLET_FAULTS } from './wallet/faults.ts';

export interface FaultDefinition {
  name: string;
  interface: 'ledger' | 'wallet' | 'scan';
  /** Rule family of the description (paging, ownership filter, event trees, ...). */
  family: string;
  /** The rule it breaks, in a sentence. */
  breaks: string;
}

export const FAULT_CATALOG: readonly FaultDefinition[] = [...LEDGER_FAULTS, ...WALLET_FAULTS, ...SCAN_FAULTS];

export class UnknownFaultError extends Error {}

/** The faults switched on for one node; immutable once built. */
export class FaultSet {
  private readonly active: ReadonlySet<string>;
  constructor(names: readonly string[] = []) {
    const known = new Set(FAULT_CATALOG.map((f) => f.name));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length > 0) throw new UnknownFaultError(`unknown fault(s): ${unknown.join(', ')} (see --list-faults)`);
    this.active = new Set(names);
  }
  has(name: string): boolean {
    return this.active.has(name);
  }
  get names(): string[] {
    return [...this.active].sort();
  }
}
