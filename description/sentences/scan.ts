// Normative sentences of the description (see ../model.ts): section C of the endpoints, the scan interface.
import type { SentenceSection } from '../model.ts';

const C = 'Endpoints > C. Scan interface (`{scan_base_url}/api/scan`)';

export const SCAN_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'C.holdings-v1',
    heading: `${C} > POST /v1/holdings/state (deprecated)`,
    sentences: [
      {
        n: 'C.holdings-v1.1',
        text: 'Use the v2 variant instead; it differs only in the type of the `after`/`next_page_token` token.',
      },
      {
        n: 'C.holdings-v1.2',
        text: 'Returns the active holding contracts for a migration id and record time...',
      },
      {
        n: 'C.holdings-v1.3',
        text: '... ordered by creation date ascending, paged.',
      },
      {
        n: 'C.holdings-v1.4',
        text: 'Body: `migration_id` int64 required; `record_time` date-time required',
      },
      {
        n: 'C.holdings-v1.5',
        text: '(with `record_time_match` = `exact`, the default, it must equal a timestamp reported by the ACS snapshot-timestamp endpoint',
      },
      {
        n: 'C.holdings-v1.6',
        text: 'with `at_or_before` any timestamp is accepted and the latest snapshot at or before it is used)',
      },
      {
        n: 'C.holdings-v1.7',
        text: '`record_time_match` string optional, allowed `exact`, `at_or_before`, default `exact`',
      },
      {
        n: 'C.holdings-v1.8',
        text: '`after` int64 optional page token',
      },
      {
        n: 'C.holdings-v1.9',
        text: '`page_size` int32 required (maximum created events per response)',
      },
      {
        n: 'C.holdings-v1.10',
        text: '`owner_party_ids` string[] required, minimum 1 item',
      },
      {
        n: 'C.holdings-v1.11',
        text: '(filters to contracts owned by these parties)',
      },
      {
        n: 'C.holdings-v1.12',
        text: '200: `record_time` (same as request), `migration_id` (same as request)',
      },
      {
        n: 'C.holdings-v1.13',
        text: '`created_events` ActiveContract[] (up to page_size)',
      },
      {
        n: 'C.holdings-v1.14',
        text: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
      },
      {
        n: 'C.holdings-v1.15',
        text: 'Errors 400, 404, 500 with `{error}`.',
      },
    ],
  },
  {
    key: 'C.holdings-v0',
    heading: `${C} > POST /v0/holdings/state (deprecated, use v1)`,
    sentences: [
      {
        n: 'C.holdings-v0.1',
        text: 'Same body and behavior as v1',
      },
      {
        n: 'C.holdings-v0.2',
        text: '`created_events` elements are CreatedEvent (with `event_type` and `event_id`).',
      },
      {
        n: 'C.holdings-v0.3',
        text: 'Errors 400, 404, 500.',
      },
    ],
  },
  {
    key: 'C.updates-v0',
    heading: `${C} > GET /v0/updates/{update_id} (deprecated)`,
    sentences: [
      {
        n: 'C.updates-v0.1',
        text: 'Query `lossless` boolean optional',
      },
      {
        n: 'C.updates-v0.2',
        text: '(`lossless`) default false',
      },
      {
        n: 'C.updates-v0.3',
        text: '(`lossless`): lossless but hard-to-process payload encoding, mostly for backend calls.',
      },
      {
        n: 'C.updates-v0.4',
        text: '200: a single UpdateHistoryItem which is either UpdateHistoryTransaction or UpdateHistoryReassignment.',
      },
      {
        n: 'C.updates-v0.5',
        text: 'Errors 400, 404, 500.',
      },
      {
        n: 'C.updates-v0.6',
        text: 'Use the v2 path instead.',
      },
    ],
  },
  {
    key: 'C.events',
    heading: `${C} > GET /v0/events/{update_id}`,
    sentences: [
      {
        n: 'C.events.1',
        text: 'Query `daml_value_encoding` optional, allowed `compact_json` ... and `protobuf_json` ...',
      },
      {
        n: 'C.events.2',
        text: '`compact_json` (default; compact, human-readable)',
      },
      {
        n: 'C.events.3',
        text: '`protobuf_json` (verbose, carries type information, losslessly parsable)',
      },
      {
        n: 'C.events.4',
        text: '200: event history item `{update?, verdict?, traffic_summary?, app_activity_records?}`.',
      },
      {
        n: 'C.events.5',
        text: 'Errors 400, 404, 500.',
      },
    ],
  },
  {
    key: 'C.bulk-updates',
    heading: `${C} > POST /v0/history/bulk/updates`,
    sentences: [
      {
        n: 'C.bulk-updates.1',
        text: 'Returns references to bulk storage objects covering a record-time range; objects may contain updates outside the range but include all updates inside it.',
      },
      {
        n: 'C.bulk-updates.2',
        text: 'Body: `start_record_time` date-time required ...; `end_record_time` date-time required',
      },
      {
        n: 'C.bulk-updates.3',
        text: '(all updates with record time greater than it are included); ... (all updates with record time at most it are included)',
      },
      {
        n: 'C.bulk-updates.4',
        text: '`next_page_token` string optional (from a previous call with the same arguments)',
      },
      {
        n: 'C.bulk-updates.5',
        text: '`page_size` int32 required, 1 to 1000.',
      },
      {
        n: 'C.bulk-updates.6',
        text: '200: `object_refs` BulkStorageObjectRef[] required',
      },
      {
        n: 'C.bulk-updates.7',
        text: '`next_page_token` string optional (absent when no more pages).',
      },
      {
        n: 'C.bulk-updates.8',
        text: 'Errors 400, 404, 501 (not implemented), `{error}`.',
      },
    ],
  },
  {
    key: 'C.bulk-download',
    heading: `${C} > GET /v0/history/bulk/download/{object_key}`,
    sentences: [
      {
        n: 'C.bulk-download.1',
        text: 'Path `object_key` string. 200: binary body, `application/octet-stream`.',
      },
      {
        n: 'C.bulk-download.2',
        text: '404 `{error}`.',
      },
    ],
  },
  {
    key: 'C.preapproval',
    heading: `${C} > GET /v0/transfer-preapprovals/by-party/{party}`,
    sentences: [
      {
        n: 'C.preapproval.1',
        text: 'Path `party` string (receiver party). 200 `{transfer_preapproval: ContractWithState}`.',
      },
      {
        n: 'C.preapproval.2',
        text: '404 `{error}`.',
      },
    ],
  },
  {
    key: 'C.traffic',
    heading: `${C} > GET /v0/domains/{domain_id}/members/{member_id}/traffic-status`,
    sentences: [
      {
        n: 'C.traffic.1',
        text: '`member_id` string, format `code::id::fingerprint` with `code` being `PAR` (participant) or `MED` (mediator).',
      },
      {
        n: 'C.traffic.2',
        text: '200 `{traffic_status: MemberTrafficStatus}`',
      },
      {
        n: 'C.traffic.3',
        text: '(`traffic_status`) reflecting ledger state at request time.',
      },
      {
        n: 'C.traffic.4',
        text: 'Errors 400, 404, 500.',
      },
    ],
  },
  {
    key: 'C.faucets',
    heading: `${C} > GET /v0/validators/validator-faucets`,
    sentences: [
      {
        n: 'C.faucets.1',
        text: 'Query `validator_ids` string[] required, one occurrence of the parameter per party id',
      },
      {
        n: 'C.faucets.2',
        text: 'ids not matching onboarded validators are ignored.',
      },
      {
        n: 'C.faucets.3',
        text: '200 `{validatorsReceivedFaucets: ValidatorReceivedFaucets[]}`',
      },
      {
        n: 'C.faucets.4',
        text: 'order is unrelated to argument order.',
      },
      {
        n: 'C.faucets.5',
        text: 'Errors 400, 404.',
      },
    ],
  },
  {
    key: 'C.participant-id',
    heading: `${C} > GET /v1/domains/{domain_id}/parties/{party_id}/participant-id`,
    sentences: [
      {
        n: 'C.participant-id.1',
        text: 'Supports parties hosted on several participants (unlike v0).',
      },
      {
        n: 'C.participant-id.2',
        text: '200 `{participant_ids: string[]}`, each of the form `PAR::id::fingerprint`.',
      },
      {
        n: 'C.participant-id.3',
        text: 'Errors 404, 500.',
      },
    ],
  },
  {
    key: 'C.dev-fund',
    heading: `${C} > GET /v0/unclaimed-development-fund-coupons`,
    sentences: [
      {
        n: 'C.dev-fund.1',
        text: 'No parameters. 200 `{"unclaimed-development-fund-coupons": ContractWithState[]}`, contracts of the template named `UnclaimedDevelopmentFundCoupon` in the amulet-rules module.',
      },
      {
        n: 'C.dev-fund.2',
        text: 'Error 500.',
      },
    ],
  },
  {
    key: 'C.reward-weight',
    heading: `${C} > POST /v0/admin/sv/previous-sv-reward-weight`,
    sentences: [
      {
        n: 'C.reward-weight.1',
        text: 'Body: `svParty` string required',
      },
      {
        n: 'C.reward-weight.2',
        text: '`effectiveBefore` string optional (only weight changes effective strictly before it are considered).',
      },
      {
        n: 'C.reward-weight.3',
        text: '200 `{rewardWeight?: string}`',
      },
      {
        n: 'C.reward-weight.4',
        text: 'the weight from the latest accepted reward-weight update proposal before `effectiveBefore`',
      },
      {
        n: 'C.reward-weight.5',
        text: '(`rewardWeight`) absent when there is none.',
      },
    ],
  },
  {
    key: 'C.sync-identities',
    heading: `${C} > GET /v0/synchronizer-identities/{domain_id_prefix}`,
    sentences: [
      {
        n: 'C.sync-identities.1',
        text: 'Path `domain_id_prefix` string.',
      },
      {
        n: 'C.sync-identities.2',
        text: '200 `{sequencer_id: string, sequencer_identity_transactions: string[], mediator_id: string, mediator_identity_transactions: string[]}`.',
      },
      {
        n: 'C.sync-identities.3',
        text: '404 `{error}`.',
      },
    ],
  },
  {
    key: 'C.feature-support',
    heading: `${C} > GET /v0/feature-support`,
    sentences: [
      {
        n: 'C.feature-support.1',
        text: 'No parameters. 200 `{dummy?: boolean}`.',
      },
      {
        n: 'C.feature-support.2',
        text: '500 `{error}`.',
      },
    ],
  },
  {
    key: 'C.ans',
    heading: `${C} > GET /v0/ans-entries`,
    sentences: [
      {
        n: 'C.ans.1',
        text: 'Lists non-expired name-service entries.',
      },
      {
        n: 'C.ans.2',
        text: '`name_prefix` string optional (every result name starts with this substring; ... any substring accepted)',
      },
      {
        n: 'C.ans.3',
        text: '(`name_prefix`) empty or absent lists all',
      },
      {
        n: 'C.ans.4',
        text: '`page_size` int32 required (maximum results',
      },
      {
        n: 'C.ans.5',
        text: 'older non-expired entries first)',
      },
      {
        n: 'C.ans.6',
        text: '200 `{entries: AnsEntry[]}`.',
      },
    ],
  },
  {
    key: 'C.acs-force',
    heading: `${C} > POST /v0/state/acs/force`,
    sentences: [
      {
        n: 'C.acs-force.1',
        text: 'No body. Takes an ACS snapshot at the current time; the result is usable as parameters for the ACS state endpoint.',
      },
      {
        n: 'C.acs-force.2',
        text: 'Disabled in production environments because it changes the behavior of later ACS calls (immediate internal snapshot, delaying the next automatic one).',
        notCheckable:
          'whether a target is a production environment is not visible from outside, and the delayed automatic snapshot is internal scheduling over a longer window than a run',
      },
      {
        n: 'C.acs-force.3',
        text: '200 `{record_time: date-time, migration_id: int64}`',
      },
      {
        n: 'C.acs-force.4',
        text: "(migration_id is the scan's current migration id)",
      },
      {
        n: 'C.acs-force.5',
        text: 'Errors 400, 500.',
      },
    ],
  },
  {
    key: 'C.backfilling',
    heading: `${C} > GET /v0/backfilling/status`,
    sentences: [
      {
        n: 'C.backfilling.1',
        text: 'No parameters. 200 `{complete: boolean}`',
      },
      {
        n: 'C.backfilling.2',
        text: 'true only if all backfilling processes are complete.',
        notCheckable: 'the backfilling processes are internal to the node; no answer of the described endpoints shows their progress',
      },
      {
        n: 'C.backfilling.3',
        text: 'Some scan endpoints return errors while backfilling is incomplete (e.g. `/v1/updates`), others return partial results (e.g. `/v0/transactions`).',
        notCheckable: 'it names endpoints outside the description, and the state it describes is transient',
      },
    ],
  },
  {
    key: 'C.root-hash',
    heading: `${C} > GET /v0/internal/reward-accounting-process/rounds/{round_number}/root-hash`,
    sentences: [
      {
        n: 'C.root-hash.1',
        text: 'Path `round_number` int64.',
      },
      {
        n: 'C.root-hash.2',
        text: '200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}`, `{status}` (undetermined), `{status}` (cannot provide).',
      },
    ],
  },
];
