// Normative sentences of the description (see ../model.ts): What the service does, Resources and their
// fields (States and transitions: states.ts).
import type { SentenceSection } from '../model.ts';

const TREES_NOT_HERE =
  'applies to transaction-tree requests, which go to update-tree endpoints the description does not give (POST /v2/updates has no tree form)';

export const OVERVIEW_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'S.service',
    heading: 'What the service does',
    sentences: [
      {
        n: 'S.service.1',
        text: "The ledger interface exposes a ledger's filtered update stream over HTTP (`POST /v2/updates`)",
      },
      {
        n: 'S.service.2',
        text: '... and also command submission, command completions, event lookup by contract id, package and DAR management and version reading (overview only).',
      },
      {
        n: 'S.service.3',
        text: 'The update stream returns a JSON array of update items (offset checkpoints, reassignments, topology transactions, transactions)',
      },
      {
        n: 'S.service.4',
        text: '... selected by party filters and a transaction shape.',
      },
      {
        n: 'S.service.5',
        text: 'Transaction shapes: ACS delta (an event is included only if a requesting party is a stakeholder of it)',
      },
      {
        n: 'S.service.6',
        text: '... and ledger effects (an event is included only if a requesting party is a witness of it).',
      },
      {
        n: 'S.service.7',
        text: 'The wallet interface lets an authenticated wallet user request a traffic purchase and check the status of a transfer offer by tracking id.',
      },
      {
        n: 'S.service.8',
        text: 'A request creates a contract',
      },
      {
        n: 'S.service.9',
        text: '... success is observed through a status endpoint, not in the creation response.',
        notCheckable:
          'says how the outcome is learnt, not what an answer holds: the creation answer is judged by WALLET-BUY-TRAFFIC-CREATE, and the status endpoint of buy-traffic requests is not shown',
      },
      {
        n: 'S.service.10',
        text: 'The scan interface serves read-only views of network history: active contract sets (holdings) at a record time, update history by id, combined event/verdict/traffic records, bulk history object references and downloads, transfer preapprovals, member traffic status, validator liveness statistics, party-to-participant mappings, name-service entries, unclaimed development fund coupons, synchronizer identities, feature flags, backfilling status, reward-weight lookups and an internal reward-accounting root hash.',
      },
      {
        n: 'S.service.11',
        text: 'The streaming endpoint is meant for small result sets; larger sets are meant for a WebSocket stream (a separate interface, mentioned only as an alternative).',
      },
    ],
  },
  {
    key: 'R.ledger',
    heading: 'Resources and their fields > A. Ledger interface records',
    sentences: [
      { n: 'R.ledger.1', text: 'GetUpdatesRequest (body of `POST /v2/updates`): `beginExclusive` int64, required.' },
      { n: 'R.ledger.2', text: '`beginExclusive`: Non-negative.' },
      {
        n: 'R.ledger.3',
        text: '`beginExclusive`: Only updates with offset strictly greater are returned.',
      },
      {
        n: 'R.ledger.4',
        text: '`beginExclusive`: Zero means start of ledger.',
      },
      {
        n: 'R.ledger.5',
        text: '`beginExclusive`: If the participant is pruned, must be >= the pruning offset.',
      },
      { n: 'R.ledger.6', text: '`endInclusive` int64, optional.' },
      {
        n: 'R.ledger.7',
        text: '`endInclusive`: Only updates with offset <= this are returned.',
      },
      { n: 'R.ledger.8', text: '`endInclusive`: If absent, descendingOrder must not be selected' },
      {
        n: 'R.ledger.9',
        text: '`endInclusive`: If absent, ... the stream does not terminate.',
      },
      {
        n: 'R.ledger.10',
        text: '`filter` TransactionFilter, optional. Backwards compatibility; described as removed in ledger release 3.5.0.',
      },
      { n: 'R.ledger.11', text: '`filter`: If defined, updateFormat must be unset.' },
      { n: 'R.ledger.12', text: '`filter`: Template filters must be empty for transaction-tree requests.', notCheckable: TREES_NOT_HERE },
      { n: 'R.ledger.13', text: '`verbose` boolean, optional. Backwards compatibility; same removal note.' },
      {
        n: 'R.ledger.14',
        text: '`verbose`: If true, values include labels and record/variant type ids.',
      },
      {
        n: 'R.ledger.15',
        text: '`verbose`: If defined, updateFormat must be unset.',
      },
      {
        n: 'R.ledger.16',
        text: "`updateFormat`: If unset for this request, it defaults to: transactions with event format taking filtersByParty, filtersForAnyParty and verbose from the request, shape TRANSACTION_SHAPE_ACS_DELTA; reassignments with the request's filter and verbose; participant-authorization topology events for all parties named in filter.",
      },
      { n: 'R.ledger.17', text: '`updateFormat`: Must be unset for transaction-tree requests.', notCheckable: TREES_NOT_HERE },
      { n: 'R.ledger.18', text: '`descendingOrder` boolean, optional.' },
      {
        n: 'R.ledger.19',
        text: '`descendingOrder`: If set, elements are returned in descending order.',
      },
      {
        n: 'R.ledger.20',
        text: 'TransactionFilter: `filtersByParty` (map from party id to Filters; each key must be a valid party id string)',
      },
      {
        n: 'R.ledger.21',
        text: 'TransactionFilter: `filtersForAnyParty` (Filters applying to every party on the participant).',
      },
      {
        n: 'R.ledger.22',
        text: 'Interpretation: for transaction trees, party keys act as wildcard filters and subtrees whose root has a listed party as informee are returned (cumulative filters then control only created-event fields)',
        notCheckable: TREES_NOT_HERE,
      },
      {
        n: 'R.ledger.23',
        text: 'Interpretation: ... for ledger effects, create and exercise events whose witnesses include a listed party and match the per-party filter',
      },
      {
        n: 'R.ledger.24',
        text: 'Interpretation: ... for transaction and active-contract-set streams, create and archive events of contracts whose stakeholders include a listed party and match the per-party filter.',
      },
      { n: 'R.ledger.25', text: 'Filters: `cumulative` (array of CumulativeFilter, optional, may be empty).' },
      {
        n: 'R.ledger.26',
        text: 'Filters: Each entry widens the result',
      },
      {
        n: 'R.ledger.27',
        text: 'Filters: include_interface_view and include_created_event_blob flags accumulate.',
      },
      {
        n: 'R.ledger.28',
        text: 'Filters: A template or interface should not appear twice; a wildcard filter should not be defined more than once.',
        notCheckable: 'advice to clients on their requests; what the node answers to a repeated filter is not stated',
      },
      {
        n: 'R.ledger.29',
        text: 'Filters: When no cumulative filter is defined, a single wildcard filter without created-event blob is used.',
      },
      {
        n: 'R.ledger.30',
        text: 'UpdateFormat: `includeTransactions` (TransactionFormat; if unset no transactions are emitted)',
      },
      {
        n: 'R.ledger.31',
        text: 'UpdateFormat: `includeReassignments` (EventFormat; assignments and unassignments, shape ACS delta; if unset none emitted)',
      },
      {
        n: 'R.ledger.32',
        text: 'UpdateFormat: `includeTopologyEvents` (TopologyFormat; if unset none emitted).',
      },
      { n: 'R.ledger.33', text: 'TransactionFormat: `eventFormat` (EventFormat, required)' },
      {
        n: 'R.ledger.34',
        text: 'TransactionFormat: `transactionShape` (string, required; allowed values TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA, TRANSACTION_SHAPE_LEDGER_EFFECTS).',
      },
      {
        n: 'R.ledger.35',
        text: 'EventFormat: `filtersByParty` (map party id to Filters; for ledger effects create and exercise events with a listed witness matching the filter',
      },
      {
        n: 'R.ledger.36',
        text: 'EventFormat: `filtersByParty` ... for transaction and ACS streams create and archive events of contracts with a listed stakeholder)',
      },
      { n: 'R.ledger.37', text: 'EventFormat: ... plus `filtersForAnyParty` (Filters) and `verbose` (boolean)' },
      { n: 'R.ledger.38', text: 'JsGetUpdatesResponse: `update` (Update).' },
      {
        n: 'R.ledger.39',
        text: 'Update is a one-of object with exactly one key: `OffsetCheckpoint`, `Reassignment`, `TopologyTransaction` or `Transaction`.',
      },
      {
        n: 'R.ledger.40',
        text: 'Fields of the OffsetCheckpoint, Reassignment, TopologyTransaction and Transaction records in the ledger stream: not shown.',
        // Not shown by the description; these requirements hold nodes to what release-3.5 nodes send (facts).
      },
      {
        n: 'R.ledger.41',
        text: 'JsCantonError (default error body)',
      },
      {
        n: 'R.ledger.42',
        text: 'JsCantonError: `code` string (required), `cause` string (required), `correlationId` string, `traceId` string, `context` map string to string (required), `resources` array of 2-element string arrays, `errorCategory` int32 (required), `grpcCodeValue` int32, `retryInfo` string, `definiteAnswer` boolean.',
      },
    ],
  },
  {
    key: 'R.wallet',
    heading: 'Resources and their fields > B. Wallet records',
    sentences: [
      {
        n: 'R.wallet.1',
        text: 'Transfer offer status response: a one-of by status, see States and transitions.',
      },
    ],
  },
  {
    key: 'R.scan',
    heading: 'Resources and their fields > C. Scan records',
    sentences: [
      {
        n: 'R.scan.1',
        text: 'ActiveContract (element of `created_events` in `/v1/holdings/state`): `contract_id` string, `template_id` string, `package_name` string, `create_arguments` object, `created_at` date-time, `signatories` string[] (party ids), `observers` string[] (party ids). All required except `created_in_update_id`.',
      },
      { n: 'R.scan.2', text: 'ActiveContract: `created_in_update_id` string (optional' },
      {
        n: 'R.scan.3',
        text: 'ActiveContract: `created_in_update_id` ... absent for contracts created in earlier migration ids)',
      },
      {
        n: 'R.scan.4',
        text: 'ActiveContract: `create_arguments` object (contract arguments as a JSON record, always compact JSON encoding)',
      },
      {
        n: 'R.scan.5',
        text: 'ActiveContract: `created_at` date-time (ledger effective time of the creating transaction)',
      },
      {
        n: 'R.scan.6',
        text: 'CreatedEvent (element of `created_events` in `/v0/holdings/state`, and `created_event` in assignments): the same fields as ActiveContract without `created_in_update_id`, plus `event_type` string and `event_id` string ... All required.',
      },
      {
        n: 'R.scan.7',
        text: 'CreatedEvent: `event_id` string (equal to the key in the enclosing `events_by_id` when part of a tree).',
      },
      {
        n: 'R.scan.8',
        text: 'UpdateHistoryTransaction (`/v0/updates/{update_id}`): `update_id` string; `migration_id` int64; `workflow_id` string (empty means none set); `record_time` string; `synchronizer_id` string; `effective_at` string; `offset` string; `root_event_ids` string[]; `events_by_id` object; `external_transaction_hash` string ... All required except the last.',
      },
      {
        n: 'R.scan.9',
        text: 'UpdateHistoryTransaction: `record_time` string (sequencing time, microsecond resolution, ISO 8601)',
      },
      {
        n: 'R.scan.10',
        text: 'UpdateHistoryTransaction: `effective_at` string (ledger effective time, ISO 8601)',
      },
      {
        n: 'R.scan.11',
        text: 'UpdateHistoryTransaction: `offset` string (absolute offset; may differ across nodes and must not be compared between nodes',
        notCheckable: 'a caution to clients comparing nodes; it permits any difference between nodes, so nothing constrains one node',
      },
      {
        n: 'R.scan.12',
        text: 'UpdateHistoryTransaction: `offset` ... within one node monotonically, lexicographically increasing)',
      },
      {
        n: 'R.scan.13',
        text: 'UpdateHistoryTransaction: `root_event_ids` string[] (each guaranteed to be a key of `events_by_id`)',
      },
      {
        n: 'R.scan.14',
        text: 'UpdateHistoryTransaction: `events_by_id` object (tree nodes keyed by event id; ids referenced from `root_event_ids` or `child_event_ids` of exercised events)',
      },
      {
        n: 'R.scan.15',
        text: 'UpdateHistoryTransaction: `external_transaction_hash` string (optional; for externally signed transactions, the hash signed by the external party',
        notCheckable:
          'which transactions were signed externally, and the hash the external party signed, are not visible in the described answers (the hash is computed over an encoding the description does not give)',
      },
      {
        n: 'R.scan.16',
        text: 'UpdateHistoryTransaction: `external_transaction_hash` ... omitted from JSON when null).',
      },
      {
        n: 'R.scan.17',
        text: 'UpdateHistoryTransactionV2 (`update` in `/v0/events/{update_id}`): the same as above without `offset`',
      },
      {
        n: 'R.scan.18',
        text: 'UpdateHistoryTransactionV2: `events_by_id` is sorted lexicographically by id',
      },
      {
        n: 'R.scan.19',
        text: 'UpdateHistoryTransactionV2: ... `child_event_ids` are in the order events occurred.',
      },
      {
        n: 'R.scan.20',
        text: 'UpdateHistoryReassignment: `update_id` string, `offset` string (may differ across nodes), `record_time` string, `event` (one-of below), all required.',
      },
      {
        n: 'R.scan.21',
        text: 'UpdateHistoryAssignment (all required): `submitter` string (party id); `source_synchronizer` string; `target_synchronizer` string; `migration_id` int64; `unassign_id` string; `created_event` CreatedEvent; `reassignment_counter` int64.',
      },
      {
        n: 'R.scan.22',
        text: 'UpdateHistoryUnassignment (all required): `submitter` string; `source_synchronizer` string; `migration_id` int64; `target_synchronizer` string; `unassign_id` string; `reassignment_counter` int64; `contract_id` string.',
      },
      {
        n: 'R.scan.23',
        text: 'Assignment `migration_id` int64 (of the target synchronizer); unassignment `migration_id` int64 (of the source synchronizer).',
      },
      {
        n: 'R.scan.24',
        text: 'Assignment `unassign_id` string (id of the corresponding unassign event',
      },
      {
        n: 'R.scan.25',
        text: '`reassignment_counter` is equal on a matching assign and unassign',
      },
      {
        n: 'R.scan.26',
        text: '`reassignment_counter` ... strictly increases with each unassign command for the same contract, and is 0 at contract creation.',
      },
      {
        n: 'R.scan.27',
        text: 'Event history item (`/v0/events/{update_id}`): `update` (UpdateHistoryItemV2: transaction or reassignment), `verdict` (EventHistoryVerdict), `traffic_summary`, `app_activity_records`. An event bears some combination of a transaction, a reassignment and a verdict.',
      },
      {
        n: 'R.scan.28',
        text: 'verdict: `update_id` string (the associated transaction update); `migration_id` integer; `domain_id` string; `record_time` string; `finalization_time` string; `submitting_parties` string[]; `submitting_participant_uid` string; `verdict_result` string enum (includes VERDICT_RESULT_UNSPECIFIED); `mediator_group` integer; `transaction_views` object',
      },
      { n: 'R.scan.29', text: 'transaction_views: `views` array of view objects; `root_views` integer[]' },
      {
        n: 'R.scan.30',
        text: 'view: `view_id` integer; `informees` string[]; `confirming_parties` array of {`parties` string[], `threshold` integer}; `sub_views` integer[]; `view_hash` string',
      },
      {
        n: 'R.scan.31',
        text: 'traffic_summary: `total_traffic_cost` integer; `envelope_traffic_summaries` array of {`traffic_cost` integer, `view_ids` integer[]}',
      },
      {
        n: 'R.scan.32',
        text: 'app_activity_records: `round_number` integer; `records` array of {`party` string, `weight` integer}',
      },
      {
        n: 'R.scan.33',
        text: 'Contract: `template_id`, `contract_id`, `created_event_blob`, `created_at` (strings) and `payload` (object), all required.',
      },
      {
        n: 'R.scan.34',
        text: 'ContractWithState: `contract` (Contract, required), `domain_id` (string, optional).',
      },
      {
        n: 'R.scan.35',
        text: 'MemberTrafficStatus: `actual` {`total_consumed` int64: extra traffic consumed; `total_limit` int64: current extra traffic limit} and `target` {`total_purchased` int64: extra traffic purchased, in bytes}.',
      },
      {
        n: 'R.scan.36',
        text: 'A top-up is complete when total_limit equals total_purchased; total_purchased may exceed total_limit while purchases are incorporated.',
      },
      {
        n: 'R.scan.37',
        text: 'ValidatorReceivedFaucets: `validator` string (party id); `numRoundsCollected` int64; `numRoundsMissed` int64; `firstCollectedInRound` int64; `lastCollectedInRound` int64.',
      },
      {
        n: 'R.scan.38',
        text: 'Invariant: collected + missed = last - first + 1; last equals first when collected in a single round.',
      },
      {
        n: 'R.scan.39',
        text: 'AnsEntry: `contract_id` string (optional ...), `user` string (owner party id), `name` string, `description` string (may be empty), `expires_at` date-time (optional or null ...).',
      },
      {
        n: 'R.scan.40',
        text: 'AnsEntry: `contract_id` ... absent for entries provided by the operating organization for itself or an operator',
      },
      { n: 'R.scan.41', text: 'AnsEntry: `url` string (empty or an http/https URL supplied by the user)' },
      {
        n: 'R.scan.42',
        text: 'AnsEntry: `expires_at` ... (optional or null: no expiry, only for special entries',
      },
      {
        n: 'R.scan.43',
        text: 'AnsEntry: ... a renewed entry has a new contract_id and expires_at).',
        notCheckable: "renewal happens on the entry's own schedule (months), not within a run, and no described endpoint renews an entry",
      },
      {
        n: 'R.scan.44',
        text: 'BulkStorageObjectRef: `url` string (download location), `digest` string ... Both required.',
      },
      {
        n: 'R.scan.45',
        text: 'BulkStorageObjectRef: `digest` string (sha256 digest of the object for integrity and cross-node consistency).',
      },
    ],
  },
];
