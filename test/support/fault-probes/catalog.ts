// The probes of every interface's faults.
import type { InterfaceName } from '../../../engine/model.ts';
import { LEDGER_PROBES } from './ledger.ts';
import type { InterfaceProbes } from './probe.ts';
import { SCAN_PROBES } from './scan.ts';
import { WALLET_PROBES } from './wallet.ts';

export const FAULT_PROBES: Record<InterfaceName, InterfaceProbes> = { ledger: LEDGER_PROBES, wallet: WALLET_PROBES, scan: SCAN_PROBES };
