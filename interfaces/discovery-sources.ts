// Every interface's discovery sources, in the order a run reads them: the engine's discovery walks what it
// is given.
import type { Source } from '../engine/discovery/source.ts';
import { LEDGER_SOURCES } from './ledger/discovery.ts';
import { SCAN_SOURCES } from './scan/discovery.ts';
import { WALLET_SOURCES } from './wallet/discovery.ts';

/** Scan first (the network's ids), then the ledger (who the tokens are), then the wallet (the user's offers). */
export const DISCOVERY_SOURCES: readonly Source[] = [...SCAN_SOURCES, ...LEDGER_SOURCES, ...WALLET_SOURCES];
