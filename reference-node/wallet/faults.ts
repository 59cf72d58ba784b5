import type { FaultDefinition } from '../faults.ts';

export const WALLET_FAULTS: FaultDefinition[] = [];
