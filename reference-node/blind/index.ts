// Every round of blind faults (see seam.ts), in the order they were written.
import { ROUND_1_LEDGER_WALLET_1 } from './round-1/ledger-wallet-1.ts';
import { ROUND_1_LEDGER_WALLET_2 } from './round-1/ledger-wallet-2.ts';
import { ROUND_1_SCAN_1 } from './round-1/scan-1.ts';
import { ROUND_1_SCAN_2 } from './round-1/scan-2.ts';
import { ROUND_2_LEDGER_WALLET_1 } from './round-2/ledger-wallet-1.ts';
import { ROUND_2_LEDGER_WALLET_2 } from './round-2/ledger-wallet-2.ts';
import { ROUND_2_SCAN_EVENTS_BULK } from './round-2/scan-events-bulk.ts';
import { ROUND_2_SCAN_HOLDINGS_UPDATES } from './round-2/scan-holdings-updates.ts';
import { ROUND_2_SCAN_STATE } from './round-2/scan-state.ts';
import { ROUND_3_WEBSOCKET } from './round-3/websocket.ts';
import type { BlindFault } from './seam.ts';

export type { BlindAnswer, BlindFault, BlindRequest } from './seam.ts';

export const BLIND_FAULTS: readonly BlindFault[] = [
  ...ROUND_1_LEDGER_WALLET_1,
  ...ROUND_1_LEDGER_WALLET_2,
  ...ROUND_1_SCAN_1,
  ...ROUND_1_SCAN_2,
  ...ROUND_2_LEDGER_WALLET_1,
  ...ROUND_2_LEDGER_WALLET_2,
  ...ROUND_2_SCAN_HOLDINGS_UPDATES,
  ...ROUND_2_SCAN_EVENTS_BULK,
  ...ROUND_2_SCAN_STATE,
  ...ROUND_3_WEBSOCKET,
];
