// The wallet interface's requirement records, one per rule of the description (section B, the transfer
// offer states, tracking id handling, authentication and errors). Checks that send buy-traffic requests
// change the target (they create request contracts, and a real node then buys traffic) and run only with
// mutations allowed; their tracking ids are `cnc-<run id>-...` (seed and start time on the command line),
// so runs against the same node never share them.
import type { Requirement } from '../../engine/model.ts';
import { AUTH_REQUIREMENTS } from './auth.ts';
import { BUY_TRAFFIC_REQUIREMENTS } from './buy-traffic/create.ts';
import { EXACTLY_ONCE_MODEL_REQUIREMENTS } from './buy-traffic/exactly-once-model.ts';
import { EXACTLY_ONCE_REQUIREMENTS } from './buy-traffic/exactly-once.ts';
import { PURCHASE_CREDITED_REQUIREMENTS } from './buy-traffic/purchase-credited.ts';
import { DSO_REQUIREMENTS } from './dso.ts';
import { ERROR_BODY_REQUIREMENTS } from './error-body.ts';
import { TRANSFER_STATUS_REQUIREMENTS } from './transfer-status.ts';
import { TRANSFER_LEDGER_REQUIREMENTS } from './transfer-ledger.ts';
import { TRANSFER_PERMANENCE_REQUIREMENTS } from './transfer-permanence.ts';
import { ANSWER_REQUIREMENTS } from './answers.ts';

export const WALLET_REQUIREMENTS: Requirement[] = [
  ...AUTH_REQUIREMENTS,
  ...BUY_TRAFFIC_REQUIREMENTS,
  ...EXACTLY_ONCE_REQUIREMENTS,
  ...EXACTLY_ONCE_MODEL_REQUIREMENTS,
  ...PURCHASE_CREDITED_REQUIREMENTS,
  ...TRANSFER_STATUS_REQUIREMENTS,
  ...TRANSFER_LEDGER_REQUIREMENTS,
  ...TRANSFER_PERMANENCE_REQUIREMENTS,
  ...ERROR_BODY_REQUIREMENTS,
  ...DSO_REQUIREMENTS,
  ...ANSWER_REQUIREMENTS,
];
