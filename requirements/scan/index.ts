// The scan interface's requirement records, one per rule of section C of the description.
import type { Requirement } from '../../engine/model.ts';
import { ANS_REQUIREMENTS } from './ans.ts';
import { BACKFILLING_REQUIREMENTS } from './backfilling.ts';
import { BULK_REQUIREMENTS } from './bulk.ts';
import { DEVELOPMENT_FUND_REQUIREMENTS } from './development-fund.ts';
import { ERROR_REQUIREMENTS } from './errors.ts';
import { EVENT_REQUIREMENTS } from './events.ts';
import { FAUCET_REQUIREMENTS } from './faucets.ts';
import { FEATURE_SUPPORT_REQUIREMENTS } from './feature-support.ts';
import { HOLDINGS_PAGING_REQUIREMENTS } from './holdings/paging.ts';
import { HOLDINGS_LAST_PAGE_REQUIREMENTS } from './holdings/last-page.ts';
import { HOLDINGS_RECORD_REQUIREMENTS } from './holdings/records.ts';
import { HOLDINGS_CREATION_REQUIREMENTS } from './holdings/created-in.ts';
import { HOLDINGS_OWNER_REQUIREMENTS } from './holdings/of-owners.ts';
import { HOLDINGS_SNAPSHOT_REQUIREMENTS } from './holdings/snapshots.ts';
import { PARTICIPANT_REQUIREMENTS } from './participant.ts';
import { REASSIGNMENT_REQUIREMENTS } from './reassignment.ts';
import { REASSIGNMENT_MIGRATION_REQUIREMENTS } from './reassignment-migration.ts';
import { RECORD_TIME_DIGITS_REQUIREMENTS } from './history-record-time.ts';
import { REWARD_WEIGHT_REQUIREMENTS } from './reward-weight.ts';
import { REWARD_WEIGHT_HISTORY_REQUIREMENTS } from './reward-weight-history.ts';
import { ROOT_HASH_REQUIREMENTS } from './root-hash.ts';
import { RELEASE_OPERATION_REQUIREMENTS } from './release-operations.ts';
import { SYNCHRONIZER_IDENTITIES_REQUIREMENTS } from './synchronizer-identities.ts';
import { TRAFFIC_REQUIREMENTS } from './traffic.ts';
import { TRANSFER_PREAPPROVAL_REQUIREMENTS } from './transfer-preapproval.ts';
import { UPDATE_REQUIREMENTS } from './updates.ts';
import { ANSWER_REQUIREMENTS } from './answers.ts';
import { ANS_PAGE_REQUIREMENTS } from './ans-pages.ts';
import { BULK_COVERAGE_REQUIREMENTS } from './bulk-coverage.ts';
import { EVENTS_CHILD_ORDER_REQUIREMENTS } from './events-child-order.ts';
import { UPDATES_CHILD_ORDER_REQUIREMENTS } from './updates-child-order.ts';
import { UPDATE_VARIANT_REQUIREMENTS } from './updates-variants.ts';
import { ANS_SPECIAL_REQUIREMENTS } from './ans-special.ts';
import { EVENTS_DEFAULT_REQUIREMENTS } from './events-default.ts';
import { UPDATES_DEFAULT_REQUIREMENTS } from './updates-default.ts';
import { FORCE_ACS_MIGRATION_REQUIREMENTS } from './holdings/force-acs-migration.ts';
import { UPDATES_TREE_FIELD_REQUIREMENTS } from './updates-tree-fields.ts';
import { EVENTS_TREE_FIELD_REQUIREMENTS } from './events-tree-fields.ts';

function eventRule(id: string): Requirement {
  const r = EVENT_REQUIREMENTS.find((e) => e.id === id);
  if (!r) throw new Error(`requirements/scan/index.ts: events.ts defines no ${id}`);
  return r;
}

/**
 * Two rules of GET /v0/events keep their place among the rules of the update history, where the catalog
 * (and so every report and docs/requirements.md) has always listed them: the key order after the tree rules,
 * the value encodings after the lossless one. The tree, time and hash rules of its `update` follow those of
 * the update paths; the other rules of events.ts follow the reassignments.
 */
const KEYS_SORTED = eventRule('SCAN-EVENTS-V2-KEYS-SORTED');
const ENCODING_VARIANTS = eventRule('SCAN-EVENTS-ENCODING-VARIANTS');
const EVENT_TREES = EVENT_REQUIREMENTS.filter((r) => r.id.startsWith('SCAN-EVENTS-UPDATE-'));
const UPDATE_HISTORY: Requirement[] = [
  ...UPDATE_REQUIREMENTS.flatMap((r) =>
    r.id === 'SCAN-UPDATES-CREATED-EVENT-ID' ? [r, KEYS_SORTED] : r.id === 'SCAN-UPDATES-LOSSLESS-VARIANTS' ? [r, ENCODING_VARIANTS] : [r],
  ),
  ...EVENT_TREES,
  ...UPDATES_CHILD_ORDER_REQUIREMENTS,
  ...EVENTS_CHILD_ORDER_REQUIREMENTS,
  ...UPDATE_VARIANT_REQUIREMENTS,
  ...UPDATES_DEFAULT_REQUIREMENTS,
  ...EVENTS_DEFAULT_REQUIREMENTS,
  ...UPDATES_TREE_FIELD_REQUIREMENTS,
  ...EVENTS_TREE_FIELD_REQUIREMENTS,
];
const EVENT_ITEMS = EVENT_REQUIREMENTS.filter((r) => r !== KEYS_SORTED && r !== ENCODING_VARIANTS && !EVENT_TREES.includes(r));

export const SCAN_REQUIREMENTS: Requirement[] = [
  ...HOLDINGS_PAGING_REQUIREMENTS,
  ...HOLDINGS_LAST_PAGE_REQUIREMENTS,
  ...HOLDINGS_SNAPSHOT_REQUIREMENTS,
  ...FORCE_ACS_MIGRATION_REQUIREMENTS,
  ...HOLDINGS_RECORD_REQUIREMENTS,
  ...HOLDINGS_CREATION_REQUIREMENTS,
  ...HOLDINGS_OWNER_REQUIREMENTS,
  ...UPDATE_HISTORY,
  ...REASSIGNMENT_REQUIREMENTS,
  ...REASSIGNMENT_MIGRATION_REQUIREMENTS,
  ...RECORD_TIME_DIGITS_REQUIREMENTS,
  ...EVENT_ITEMS,
  ...FAUCET_REQUIREMENTS,
  ...TRAFFIC_REQUIREMENTS,
  ...PARTICIPANT_REQUIREMENTS,
  ...ANS_REQUIREMENTS,
  ...ANS_PAGE_REQUIREMENTS,
  ...ANS_SPECIAL_REQUIREMENTS,
  ...BULK_REQUIREMENTS,
  ...BULK_COVERAGE_REQUIREMENTS,
  ...ROOT_HASH_REQUIREMENTS,
  ...REWARD_WEIGHT_REQUIREMENTS,
  ...REWARD_WEIGHT_HISTORY_REQUIREMENTS,
  ...ERROR_REQUIREMENTS,
  ...BACKFILLING_REQUIREMENTS,
  ...FEATURE_SUPPORT_REQUIREMENTS,
  ...SYNCHRONIZER_IDENTITIES_REQUIREMENTS,
  ...DEVELOPMENT_FUND_REQUIREMENTS,
  ...TRANSFER_PREAPPROVAL_REQUIREMENTS,
  ...RELEASE_OPERATION_REQUIREMENTS,
  ...ANSWER_REQUIREMENTS,
];
