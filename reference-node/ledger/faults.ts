import type { FaultDefinition } from '../faults.ts';

export const LEDGER_FAULTS: FaultDefinition[] = [];
