// Every section's sentences (see ./model.ts), in the order of the description.
import type { SentenceSection } from './model.ts';
import { OVERVIEW_SECTIONS } from './sentences/overview.ts';
import { STATES_SECTIONS } from './sentences/states.ts';
import { LEDGER_SECTIONS } from './sentences/ledger.ts';
import { WALLET_SECTIONS } from './sentences/wallet.ts';
import { SCAN_SECTIONS } from './sentences/scan.ts';
import { CROSS_CUTTING_SECTIONS } from './sentences/cross-cutting.ts';

export const SENTENCE_SECTIONS: readonly SentenceSection[] = [
  ...OVERVIEW_SECTIONS,
  ...STATES_SECTIONS,
  ...LEDGER_SECTIONS,
  ...WALLET_SECTIONS,
  ...SCAN_SECTIONS,
  ...CROSS_CUTTING_SECTIONS,
];
