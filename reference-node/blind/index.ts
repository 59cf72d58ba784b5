// Every round of blind faults (see seam.ts), in the order they were written.
import { ROUND_1_LEDGER_WALLET } from './round-1/ledger-wallet.ts';
import { ROUND_1_SCAN } from './round-1/scan.ts';
import type { BlindFault } from './seam.ts';

export type { BlindAnswer, BlindFault, BlindRequest } from './seam.ts';

export const BLIND_FAULTS: readonly BlindFault[] = [...ROUND_1_LEDGER_WALLET, ...ROUND_1_SCAN];
