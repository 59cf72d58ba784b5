// Normative sentences of the description (see ../model.ts): section C of the endpoints, the scan interface.
import type { SentenceSection } from '../model.ts';

const C = 'Endpoints > C. Scan interface (`{scan_base_url}/api/scan`)';

/** The holdings rules every version is judged by (v0 and v2 promise v1's behaviour; each rule walks all three). */
const HOLDINGS_BEHAVIOUR = [
  'SCAN-HOLDINGS-PAGING-COMPLETE',
  'SCAN-HOLDINGS-PAGING-UNIQUE',
  'SCAN-HOLDINGS-PAGING-TOKEN-ENDS',
  'SCAN-HOLDINGS-PAGE-SIZE-BOUND',
  'SCAN-HOLDINGS-CREATION-ORDER',
  'SCAN-HOLDINGS-OWNER-FILTER',
  'SCAN-HOLDINGS-OWNERS-UNION',
  'SCAN-HOLDINGS-REQUEST-ECHOED',
  'SCAN-HOLDINGS-EMPTY-OWNERS-400',
  'SCAN-HOLDINGS-EXACT-MATCH',
  'SCAN-HOLDINGS-AT-OR-BEFORE',
];

export const SCAN_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'C.holdings-v1',
    heading: `${C} > POST /v1/holdings/state (deprecated)`,
    sentences: [
      {
        n: 'C.holdings-v1.1',
        text: 'Use the v2 variant instead; it differs only in the type of the `after`/`next_page_token` token.',
        ids: ['SCAN-HOLDINGS-V2-MATCHES-V1', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V2-RESPONSES', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V2-INVALID-INPUT'],
      },
      {
        n: 'C.holdings-v1.2',
        text: 'Returns the active holding contracts for a migration id and record time...',
        ids: ['SCAN-HOLDINGS-ACTIVE-AT-SNAPSHOT', 'SCAN-HOLDINGS-V1-OF-OWNERS'],
      },
      {
        n: 'C.holdings-v1.3',
        text: '... ordered by creation date ascending, paged.',
        ids: ['SCAN-HOLDINGS-CREATION-ORDER', 'SCAN-HOLDINGS-PAGING-COMPLETE', 'SCAN-HOLDINGS-PAGING-UNIQUE'],
      },
      {
        n: 'C.holdings-v1.4',
        text: 'Body: `migration_id` int64 required; `record_time` date-time required',
        ids: ['GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.holdings-v1.5',
        text: '(with `record_time_match` = `exact`, the default, it must equal a timestamp reported by the ACS snapshot-timestamp endpoint',
        ids: ['SCAN-HOLDINGS-EXACT-MATCH', 'SCAN-HOLDINGS-FORCE-ACS-EXACT'],
      },
      {
        n: 'C.holdings-v1.6',
        text: 'with `at_or_before` any timestamp is accepted and the latest snapshot at or before it is used)',
        ids: ['SCAN-HOLDINGS-AT-OR-BEFORE'],
      },
      {
        n: 'C.holdings-v1.7',
        text: '`record_time_match` string optional, allowed `exact`, `at_or_before`, default `exact`',
        ids: ['GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX', 'SCAN-HOLDINGS-EXACT-MATCH'],
      },
      {
        n: 'C.holdings-v1.8',
        text: '`after` int64 optional page token',
        ids: ['SCAN-HOLDINGS-PAGING-COMPLETE', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT'],
      },
      {
        n: 'C.holdings-v1.9',
        text: '`page_size` int32 required (maximum created events per response)',
        ids: ['SCAN-HOLDINGS-PAGE-SIZE-BOUND', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT'],
      },
      {
        n: 'C.holdings-v1.10',
        text: '`owner_party_ids` string[] required, minimum 1 item',
        ids: ['SCAN-HOLDINGS-EMPTY-OWNERS-400', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT'],
      },
      {
        n: 'C.holdings-v1.11',
        text: '(filters to contracts owned by these parties)',
        ids: ['SCAN-HOLDINGS-OWNER-FILTER', 'SCAN-HOLDINGS-OWNERS-UNION', 'SCAN-HOLDINGS-V1-OF-OWNERS'],
      },
      {
        n: 'C.holdings-v1.12',
        text: '200: `record_time` (same as request), `migration_id` (same as request)',
        ids: ['SCAN-HOLDINGS-REQUEST-ECHOED', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-RESPONSES'],
      },
      {
        n: 'C.holdings-v1.13',
        text: '`created_events` ActiveContract[] (up to page_size)',
        ids: ['SCAN-HOLDINGS-PAGE-SIZE-BOUND', 'SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-RESPONSES'],
      },
      {
        n: 'C.holdings-v1.14',
        text: '`next_page_token` int64 optional (pass as `after` for the next page; absent when no more pages)',
        ids: [
          'SCAN-HOLDINGS-PAGING-COMPLETE',
          'SCAN-HOLDINGS-PAGING-UNIQUE',
          'SCAN-HOLDINGS-PAGING-TOKEN-ENDS',
          'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-RESPONSES',
        ],
      },
      {
        n: 'C.holdings-v1.15',
        text: 'Errors 400, 404, 500 with `{error}`.',
        ids: ['GENERIC-SCAN-GET-HOLDINGS-STATE-V1-RESPONSES', 'SCAN-ERRORS-SHAPE', 'SCAN-ANSWERS-PLAIN-TEXT-404'],
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
        ids: ['SCAN-HOLDINGS-V0-MATCHES-V1', ...HOLDINGS_BEHAVIOUR, 'SCAN-HOLDINGS-V0-OF-OWNERS', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V0-INVALID-INPUT'],
      },
      {
        n: 'C.holdings-v0.2',
        text: '`created_events` elements are CreatedEvent (with `event_type` and `event_id`).',
        ids: ['SCAN-HOLDINGS-V0-CREATED-EVENTS', 'GENERIC-SCAN-GET-HOLDINGS-STATE-V0-RESPONSES'],
      },
      {
        n: 'C.holdings-v0.3',
        text: 'Errors 400, 404, 500.',
        ids: ['GENERIC-SCAN-GET-HOLDINGS-STATE-V0-RESPONSES', 'SCAN-ERRORS-SHAPE'],
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
        ids: ['GENERIC-SCAN-GET-UPDATE-BY-ID-V0-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.updates-v0.2',
        text: '(`lossless`) default false',
        ids: ['SCAN-UPDATES-LOSSLESS-DEFAULT'],
      },
      {
        n: 'C.updates-v0.3',
        text: '(`lossless`): lossless but hard-to-process payload encoding, mostly for backend calls.',
        ids: ['SCAN-UPDATES-LOSSLESS-VARIANTS'],
      },
      {
        n: 'C.updates-v0.4',
        text: '200: a single UpdateHistoryItem which is either UpdateHistoryTransaction or UpdateHistoryReassignment.',
        ids: [
          'GENERIC-SCAN-GET-UPDATE-BY-ID-V0-RESPONSES',
          'SCAN-UPDATES-BY-ID',
          'SCAN-UPDATES-TREE-ROOTS-KNOWN',
          'SCAN-UPDATES-TREE-CHILDREN-KNOWN',
          'SCAN-UPDATES-TREE-ALL-REACHABLE',
          'SCAN-UPDATES-CREATED-EVENT-ID',
          'SCAN-REASSIGNMENT-RECORDS',
        ],
      },
      {
        n: 'C.updates-v0.5',
        text: 'Errors 400, 404, 500.',
        ids: ['GENERIC-SCAN-GET-UPDATE-BY-ID-V0-RESPONSES', 'SCAN-ERRORS-NOT-FOUND-404', 'SCAN-ERRORS-SHAPE'],
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
        ids: ['GENERIC-SCAN-GET-EVENT-BY-ID-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX', 'SCAN-EVENTS-ENCODING-VARIANTS'],
      },
      {
        n: 'C.events.2',
        text: '`compact_json` (default; compact, human-readable)',
        ids: ['SCAN-EVENTS-ENCODING-DEFAULT'],
      },
      {
        n: 'C.events.3',
        text: '`protobuf_json` (verbose, carries type information, losslessly parsable)',
        ids: ['SCAN-EVENTS-ENCODING-VARIANTS'],
      },
      {
        n: 'C.events.4',
        text: '200: event history item `{update?, verdict?, traffic_summary?, app_activity_records?}`.',
        ids: [
          'GENERIC-SCAN-GET-EVENT-BY-ID-RESPONSES',
          'SCAN-EVENTS-BY-ID',
          'SCAN-EVENTS-VERDICT-FIELDS',
          'SCAN-EVENTS-VERDICT-VIEWS',
          'SCAN-EVENTS-TRAFFIC-SUMMARY',
          'SCAN-EVENTS-APP-ACTIVITY',
          'SCAN-EVENTS-V2-KEYS-SORTED',
          'SCAN-EVENTS-UPDATE-TREE-ROOTS-KNOWN',
          'SCAN-EVENTS-UPDATE-TREE-CHILDREN-KNOWN',
          'SCAN-EVENTS-UPDATE-TREE-ALL-REACHABLE',
          'SCAN-EVENTS-UPDATE-CREATED-EVENT-ID',
          'SCAN-EVENTS-UPDATE-RECORD-TIME-MICROS',
          'SCAN-EVENTS-UPDATE-EXTERNAL-HASH-OMITTED',
        ],
      },
      {
        n: 'C.events.5',
        text: 'Errors 400, 404, 500.',
        ids: ['GENERIC-SCAN-GET-EVENT-BY-ID-RESPONSES', 'SCAN-ERRORS-NOT-FOUND-404', 'SCAN-ERRORS-SHAPE'],
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
        ids: ['SCAN-BULK-COVERS-RANGE'],
      },
      {
        n: 'C.bulk-updates.2',
        text: 'Body: `start_record_time` date-time required ...; `end_record_time` date-time required',
        ids: ['GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.bulk-updates.3',
        text: '(all updates with record time greater than it are included); ... (all updates with record time at most it are included)',
        ids: ['SCAN-BULK-COVERS-RANGE'],
      },
      {
        n: 'C.bulk-updates.4',
        text: '`next_page_token` string optional (from a previous call with the same arguments)',
        ids: ['SCAN-BULK-PAGING-COMPLETE'],
      },
      {
        n: 'C.bulk-updates.5',
        text: '`page_size` int32 required, 1 to 1000.',
        ids: ['SCAN-BULK-PAGE-SIZE-400', 'GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.bulk-updates.6',
        text: '200: `object_refs` BulkStorageObjectRef[] required',
        ids: ['GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-RESPONSES', 'SCAN-BULK-DOWNLOAD-DIGEST'],
      },
      {
        n: 'C.bulk-updates.7',
        text: '`next_page_token` string optional (absent when no more pages).',
        ids: ['SCAN-BULK-PAGING-COMPLETE', 'GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-RESPONSES'],
      },
      {
        n: 'C.bulk-updates.8',
        text: 'Errors 400, 404, 501 (not implemented), `{error}`.',
        ids: ['GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-RESPONSES', 'SCAN-BULK-PAGE-SIZE-400', 'SCAN-ERRORS-SHAPE'],
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
        ids: ['SCAN-BULK-DOWNLOAD-DIGEST', 'GENERIC-SCAN-DOWNLOAD-BULK-HISTORY-OBJECT-RESPONSES'],
      },
      {
        n: 'C.bulk-download.2',
        text: '404 `{error}`.',
        ids: ['SCAN-ERRORS-NOT-FOUND-404', 'SCAN-ERRORS-SHAPE', 'GENERIC-SCAN-DOWNLOAD-BULK-HISTORY-OBJECT-RESPONSES'],
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
        ids: ['SCAN-TRANSFER-PREAPPROVAL', 'GENERIC-SCAN-GET-TRANSFER-PREAPPROVAL-BY-PARTY-RESPONSES'],
      },
      {
        n: 'C.preapproval.2',
        text: '404 `{error}`.',
        ids: ['SCAN-ERRORS-NOT-FOUND-404', 'SCAN-ERRORS-SHAPE', 'GENERIC-SCAN-GET-TRANSFER-PREAPPROVAL-BY-PARTY-RESPONSES'],
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
        ids: ['SCAN-TRAFFIC-MEMBER-ID-400', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.traffic.2',
        text: '200 `{traffic_status: MemberTrafficStatus}`',
        ids: ['GENERIC-SCAN-GET-MEMBER-TRAFFIC-STATUS-RESPONSES', 'SCAN-TRAFFIC-LIMIT-WITHIN-PURCHASED'],
      },
      {
        n: 'C.traffic.3',
        text: '(`traffic_status`) reflecting ledger state at request time.',
        ids: ['WALLET-BUY-TRAFFIC-PURCHASE-CREDITED'],
      },
      {
        n: 'C.traffic.4',
        text: 'Errors 400, 404, 500.',
        ids: ['GENERIC-SCAN-GET-MEMBER-TRAFFIC-STATUS-RESPONSES', 'SCAN-TRAFFIC-MEMBER-ID-400', 'SCAN-ERRORS-SHAPE'],
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
        ids: ['GENERIC-SCAN-GET-VALIDATOR-FAUCETS-BY-VALIDATOR-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX', 'SCAN-FAUCETS-ORDER-INDEPENDENT'],
      },
      {
        n: 'C.faucets.2',
        text: 'ids not matching onboarded validators are ignored.',
        ids: ['SCAN-FAUCETS-UNKNOWN-IGNORED', 'SCAN-FAUCETS-ASKED-VALIDATORS'],
      },
      {
        n: 'C.faucets.3',
        text: '200 `{validatorsReceivedFaucets: ValidatorReceivedFaucets[]}`',
        ids: ['GENERIC-SCAN-GET-VALIDATOR-FAUCETS-BY-VALIDATOR-RESPONSES', 'SCAN-FAUCETS-ROUND-ARITHMETIC'],
      },
      {
        n: 'C.faucets.4',
        text: 'order is unrelated to argument order.',
        ids: ['SCAN-FAUCETS-ORDER-INDEPENDENT'],
      },
      {
        n: 'C.faucets.5',
        text: 'Errors 400, 404.',
        ids: ['GENERIC-SCAN-GET-VALIDATOR-FAUCETS-BY-VALIDATOR-RESPONSES', 'SCAN-ERRORS-SHAPE'],
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
        ids: ['SCAN-PARTICIPANT-ID-MULTI-HOSTED', 'SCAN-PARTICIPANT-ID-HOSTS-SEEN'],
      },
      {
        n: 'C.participant-id.2',
        text: '200 `{participant_ids: string[]}`, each of the form `PAR::id::fingerprint`.',
        ids: ['SCAN-PARTICIPANT-ID-FORMAT', 'GENERIC-SCAN-GET-PARTY-TO-PARTICIPANT-V1-RESPONSES'],
      },
      {
        n: 'C.participant-id.3',
        text: 'Errors 404, 500.',
        ids: ['GENERIC-SCAN-GET-PARTY-TO-PARTICIPANT-V1-RESPONSES'],
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
        ids: ['SCAN-DEVELOPMENT-FUND-COUPONS', 'GENERIC-SCAN-LIST-UNCLAIMED-DEVELOPMENT-FUND-COUPONS-RESPONSES'],
      },
      {
        n: 'C.dev-fund.2',
        text: 'Error 500.',
        ids: ['GENERIC-SCAN-LIST-UNCLAIMED-DEVELOPMENT-FUND-COUPONS-RESPONSES'],
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
        ids: ['GENERIC-SCAN-GET-PREVIOUS-SV-REWARD-WEIGHT-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.reward-weight.2',
        text: '`effectiveBefore` string optional (only weight changes effective strictly before it are considered).',
        ids: ['SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE'],
      },
      {
        n: 'C.reward-weight.3',
        text: '200 `{rewardWeight?: string}`',
        ids: ['SCAN-REWARD-WEIGHT-STRING-OR-ABSENT', 'GENERIC-SCAN-GET-PREVIOUS-SV-REWARD-WEIGHT-RESPONSES'],
      },
      {
        n: 'C.reward-weight.4',
        text: 'the weight from the latest accepted reward-weight update proposal before `effectiveBefore`',
        ids: ['SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE'],
      },
      {
        n: 'C.reward-weight.5',
        text: '(`rewardWeight`) absent when there is none.',
        ids: ['SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE'],
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
        ids: ['SCAN-SYNCHRONIZER-IDENTITIES-PREFIX', 'SCAN-SYNCHRONIZER-IDENTITIES-OF-PREFIX'],
      },
      {
        n: 'C.sync-identities.2',
        text: '200 `{sequencer_id: string, sequencer_identity_transactions: string[], mediator_id: string, mediator_identity_transactions: string[]}`.',
        ids: ['SCAN-SYNCHRONIZER-IDENTITIES', 'GENERIC-SCAN-GET-SYNCHRONIZER-IDENTITIES-RESPONSES'],
      },
      {
        n: 'C.sync-identities.3',
        text: '404 `{error}`.',
        ids: ['SCAN-ERRORS-NOT-FOUND-404', 'SCAN-ERRORS-SHAPE', 'GENERIC-SCAN-GET-SYNCHRONIZER-IDENTITIES-RESPONSES'],
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
        ids: ['SCAN-FEATURE-SUPPORT', 'GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES'],
      },
      {
        n: 'C.feature-support.2',
        text: '500 `{error}`.',
        ids: ['GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES'],
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
        ids: ['SCAN-ANS-NO-EXPIRED'],
      },
      {
        n: 'C.ans.2',
        text: '`name_prefix` string optional (every result name starts with this substring; ... any substring accepted)',
        ids: ['SCAN-ANS-NAME-PREFIX', 'SCAN-ANS-LOOKUP-BY-NAME'],
      },
      {
        n: 'C.ans.3',
        text: '(`name_prefix`) empty or absent lists all',
        ids: ['SCAN-ANS-EMPTY-PREFIX-ALL'],
      },
      {
        n: 'C.ans.4',
        text: '`page_size` int32 required (maximum results',
        ids: ['SCAN-ANS-PAGE-SIZE', 'GENERIC-SCAN-LIST-ANS-ENTRIES-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.ans.5',
        text: 'older non-expired entries first)',
        ids: ['SCAN-ANS-OLDEST-FIRST'],
      },
      {
        n: 'C.ans.6',
        text: '200 `{entries: AnsEntry[]}`.',
        ids: ['GENERIC-SCAN-LIST-ANS-ENTRIES-RESPONSES', 'SCAN-ANS-URL'],
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
        ids: ['SCAN-HOLDINGS-FORCE-ACS-EXACT'],
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
        ids: ['GENERIC-SCAN-FORCE-ACS-SNAPSHOT-NOW-RESPONSES', 'SCAN-HOLDINGS-FORCE-ACS-EXACT'],
      },
      {
        n: 'C.acs-force.4',
        text: "(migration_id is the scan's current migration id)",
        ids: ['SCAN-HOLDINGS-FORCE-ACS-MIGRATION'],
      },
      {
        n: 'C.acs-force.5',
        text: 'Errors 400, 500.',
        ids: ['GENERIC-SCAN-FORCE-ACS-SNAPSHOT-NOW-RESPONSES'],
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
        ids: ['SCAN-BACKFILLING-COMPLETE-FLAG', 'GENERIC-SCAN-GET-BACKFILLING-STATUS-RESPONSES'],
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
        ids: ['GENERIC-SCAN-GET-REWARD-ACCOUNTING-ROOT-HASH-INVALID-INPUT', 'SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'C.root-hash.2',
        text: '200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}`, `{status}` (undetermined), `{status}` (cannot provide).',
        ids: ['SCAN-ROOT-HASH-RESULT-SHAPE', 'SCAN-ROOT-HASH-ROUND-ECHOED', 'GENERIC-SCAN-GET-REWARD-ACCOUNTING-ROOT-HASH-RESPONSES'],
      },
    ],
  },
];
