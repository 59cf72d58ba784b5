import type { FaultDefinition } from '../faults.ts';

export const SCAN_FAULTS: FaultDefinition[] = [];
