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
  /** Requirement ids of the suite that must fail on a node with this fault (and no others). */
  detectedBy?: string[];
}

// Faults whose break is visible in the wire shape are also caught by the checks derived from the
// documents themselves (suites/generic); * stands for every operation where the break shows.
const ALSO_CAUGHT_BY_GENERIC_CHECKS: Record<string, string[]> = {
  'ledger-error-400-as-json': ['GENERIC-LEDGER-GET-UPDATES-RESPONSES', 'GENERIC-LEDGER-GET-UPDATES-INVALID-INPUT'],
  'ledger-error-body-shape': ['GENERIC-LEDGER-*'],
  'ledger-no-auth': ['GENERIC-LEDGER-GET-UPDATES-CREDENTIALS-REQUIRED'],
  // With both filter and updateFormat accepted, some schema-invalid bodies are no longer refused either.
  'ledger-filter-and-format-accepted': ['GENERIC-LEDGER-GET-UPDATES-INVALID-INPUT'],
  'wallet-no-auth-required': ['GENERIC-WALLET-*-CREDENTIALS-REQUIRED'],
  'wallet-bad-input-500': ['GENERIC-WALLET-CREATE-BUY-TRAFFIC-REQUEST-INVALID-INPUT'],
  'wallet-transfer-status-missing-field': ['GENERIC-WALLET-GET-TRANSFER-OFFER-STATUS-RESPONSES'],
  'wallet-error-body-shape': ['GENERIC-WALLET-*'],
  'scan-external-hash-null': ['GENERIC-SCAN-GET-UPDATE-BY-ID-V0-RESPONSES', 'GENERIC-SCAN-GET-EVENT-BY-ID-RESPONSES'],
  'scan-error-body-shape': ['GENERIC-SCAN-*'],
  'scan-bad-input-500': ['GENERIC-SCAN-*-INVALID-INPUT'],
  'scan-backfilling-flag-text': ['GENERIC-SCAN-GET-BACKFILLING-STATUS-RESPONSES'],
  'scan-feature-flag-text': ['GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES'],
  'scan-synchronizer-mediator-missing': ['GENERIC-SCAN-GET-SYNCHRONIZER-IDENTITIES-RESPONSES'],
};

export const FAULT_CATALOG: readonly FaultDefinition[] = [...LEDGER_FAULTS, ...WALLET_FAULTS, ...SCAN_FAULTS].map((f) => ({
  ...f,
  detectedBy: [...(f.detectedBy ?? []), ...(ALSO_CAUGHT_BY_GENERIC_CHECKS[f.name] ?? [])],
}));

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
