// The scan interface's requirement records, one per rule of section C of the description.
import type { Requirement } from '../model.ts';
import { ANS_REQUIREMENTS } from './ans.ts';
import { BULK_REQUIREMENTS } from './bulk.ts';
import { ERROR_REQUIREMENTS } from './errors.ts';
import { EVENT_REQUIREMENTS } from './events.ts';
import { FAUCET_REQUIREMENTS } from './faucets.ts';
import { HOLDINGS_PAGING_REQUIREMENTS } from './holdings.ts';
import { HOLDINGS_RECORD_REQUIREMENTS } from './holdings-records.ts';
import { HOLDINGS_SNAPSHOT_REQUIREMENTS } from './holdings-snapshots.ts';
import { MISC_REQUIREMENTS } from './misc.ts';
import { PARTICIPANT_REQUIREMENTS } from './participants.ts';
import { REASSIGNMENT_REQUIREMENTS } from './reassignments.ts';
import { REWARD_REQUIREMENTS } from './rewards.ts';
import { TRAFFIC_REQUIREMENTS } from './traffic.ts';
import { UPDATE_HISTORY_REQUIREMENTS } from './update-history.ts';

export const SCAN_REQUIREMENTS: Requirement[] = [
  ...HOLDINGS_PAGING_REQUIREMENTS,
  ...HOLDINGS_SNAPSHOT_REQUIREMENTS,
  ...HOLDINGS_RECORD_REQUIREMENTS,
  ...UPDATE_HISTORY_REQUIREMENTS,
  ...REASSIGNMENT_REQUIREMENTS,
  ...EVENT_REQUIREMENTS,
  ...FAUCET_REQUIREMENTS,
  ...TRAFFIC_REQUIREMENTS,
  ...PARTICIPANT_REQUIREMENTS,
  ...ANS_REQUIREMENTS,
  ...BULK_REQUIREMENTS,
  ...REWARD_REQUIREMENTS,
  ...ERROR_REQUIREMENTS,
  ...MISC_REQUIREMENTS,
];
