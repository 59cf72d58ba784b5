// The scan's faults of holdings requests, snapshots and versions, and of the update history's encodings and
// endpoints: each breaks one rule of the description on one endpoint or variant (see faults.ts for the others).
import { declareFaults } from '../fault-definition.ts';

/** The three versions of the holdings state: a fault of their shared page shows in each. */
export const HOLDINGS_OPERATIONS = ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'];

export const HISTORY_FAULTS = declareFaults('scan', {
  // Holdings requests, snapshots and versions
  'scan-holdings-time-not-echoed': {
    family: 'record shape',
    breaks: 'The holdings answer echoes a record_time one microsecond after the requested one.',
    cites: ['C.holdings-v1.12'],
    rules: ['SCAN-HOLDINGS-REQUEST-ECHOED'],
    generic: { operations: HOLDINGS_OPERATIONS, checks: ['relations'] },
  },
  'scan-holdings-at-or-before-refused': {
    family: 'snapshot matching',
    breaks: 'record_time_match at_or_before is treated as exact, so a time between snapshots is answered 404.',
    cites: ['C.holdings-v1.6'],
    rules: ['SCAN-HOLDINGS-AT-OR-BEFORE'],
  },
  'scan-holdings-walked-page-malformed': {
    family: 'record shape',
    breaks:
      'Holdings pages after the first (reached with a next_page_token) carry created_at as a number of milliseconds, breaking the ActiveContract schema; only a page walk sees them.',
    cites: ['R.scan.1'],
    rules: ['SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS', 'SCAN-HOLDINGS-V0-MATCHES-V1'],
    generic: { operations: ['getHoldingsStateV1', 'getHoldingsStateV2'], checks: ['responses'] },
  },
  'scan-holdings-v0-event-type-missing': {
    family: 'record shape',
    breaks: 'CreatedEvent elements of the v0 holdings are sent without the required event_type.',
    cites: ['R.scan.6'],
    rules: ['SCAN-HOLDINGS-V0-CREATED-EVENTS', 'SCAN-HOLDINGS-V0-OF-OWNERS'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['getHoldingsStateV0'], checks: ['responses'] },
  },
  'scan-holdings-v0-missing-contract': {
    family: 'versions',
    breaks: 'The v0 holdings leave out some contracts that v1 returns for the same request.',
    cites: ['C.holdings-v0.1'],
    rules: ['SCAN-HOLDINGS-V0-MATCHES-V1'],
  },
  'scan-holdings-v2-missing-contract': {
    family: 'versions',
    breaks: 'The v2 holdings leave out some contracts that v1 returns for the same request.',
    cites: ['C.holdings-v1.1'],
    rules: ['SCAN-HOLDINGS-V2-MATCHES-V1'],
  },
  'scan-holdings-v0-created-at-shifted': {
    family: 'versions',
    breaks: 'The v0 holdings carry each created_at a microsecond later than v1 does for the same contract.',
    cites: ['C.holdings-v0.1'],
    rules: ['SCAN-HOLDINGS-V0-MATCHES-V1'],
  },
  'scan-holdings-v2-created-in-dropped': {
    family: 'versions',
    breaks: 'The v2 holdings leave out created_in_update_id where v1 carries it for the same contract.',
    cites: ['C.holdings-v1.1'],
    rules: ['SCAN-HOLDINGS-V2-MATCHES-V1'],
  },
  // Update history encodings and trees
  'scan-tree-orphan-event': {
    family: 'event trees',
    breaks: 'events_by_id holds an event that no root_event_ids or child_event_ids path reaches, on every history endpoint.',
    cites: ['R.scan.14'],
    rules: [
      'SCAN-UPDATES-TREE-ALL-REACHABLE',
      'SCAN-UPDATES-V2-TREE-ALL-REACHABLE',
      'SCAN-EVENTS-UPDATE-TREE-ALL-REACHABLE',
      'SCAN-UPDATES-BY-ID',
      'SCAN-EVENTS-BY-ID',
    ],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['responses'] },
  },
  // One history endpoint broken, the others right: each endpoint is judged on its own.
  'scan-v2-updates-dangling-root': {
    family: 'event trees',
    breaks: 'GET /v2/updates/{update_id} names a root event id that is not a key of events_by_id (/v0/updates and /v0/events render the tree right).',
    cites: ['R.scan.13'],
    rules: ['SCAN-UPDATES-V2-TREE-ROOTS-KNOWN', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE'],
  },
  'scan-events-update-record-time-nanos': {
    family: 'time format',
    breaks: 'The update of a /v0/events item writes record_time with nanosecond digits (the update paths write microseconds).',
    cites: ['R.scan.9'],
    rules: ['SCAN-EVENTS-UPDATE-RECORD-TIME-MICROS', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE', 'SCAN-EVENTS-BY-ID'],
    // Every answer that carries the record is judged against its record facts too (x-cn-record-facts).
    generic: { operations: ['getEventById'], checks: ['responses'] },
  },
  'scan-events-update-offset': {
    family: 'offsets',
    breaks: 'The transaction update of a /v0/events item carries an offset, which UpdateHistoryTransactionV2 is without.',
    cites: ['R.scan.17'],
    rules: ['SCAN-EVENTS-UPDATE-NO-OFFSET'],
  },
  'scan-lossless-ignored': {
    family: 'encodings',
    breaks: 'GET /v0/updates/{update_id} ignores lossless=true: the Daml values are written in the default, compact encoding.',
    cites: ['C.updates-v0.3'],
    rules: ['SCAN-UPDATES-LOSSLESS-VARIANTS'],
  },
  'scan-lossless-tree-differs': {
    family: 'encodings',
    breaks: 'With lossless=true the v0 update carries an extra event, so the tree differs from the default encoding.',
    cites: ['C.updates-v0.3'],
    rules: ['SCAN-UPDATES-LOSSLESS-VARIANTS'],
    // The extra event is reachable from no root: the answer breaks the record's facts on the document too.
    generic: { operations: ['getUpdateByIdV0'], checks: ['responses'] },
  },
  'scan-protobuf-tree-differs': {
    family: 'encodings',
    breaks: 'With daml_value_encoding=protobuf_json the event item carries an extra event, so the tree differs from compact_json.',
    cites: ['C.events.1'],
    // The event history's rules judge both encodings (history.ts RENDERINGS): the extra event is reachable from
    // no root, and the V2 record is then not v0's; the answer breaks the record's facts on the document too.
    rules: ['SCAN-EVENTS-ENCODING-VARIANTS', 'SCAN-EVENTS-UPDATE-TREE-ALL-REACHABLE', 'SCAN-EVENTS-BY-ID', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE'],
    generic: { operations: ['getEventById'], checks: ['responses'] },
  },
  'scan-reassignment-update-id-mismatch': {
    family: 'reassignments',
    breaks: 'A reassignment item carries an update_id other than the id it was looked up by.',
    cites: ['R.scan.20'],
    // The lookups by id are judged on reassignment ids too (each answer is about the id asked).
    rules: [
      'SCAN-REASSIGNMENT-RECORDS',
      'SCAN-UPDATES-BY-ID',
      'SCAN-UPDATES-V2-BY-ID',
      'SCAN-EVENTS-BY-ID',
      'SCAN-EVENTS-ENCODING-VARIANTS',
      'SCAN-UPDATES-LOSSLESS-VARIANTS',
    ],
    generic: { operations: ['getUpdateByIdV0', 'getEventById'], checks: ['relations'] },
  },
  'scan-v2-created-at-record-time': {
    family: 'record shape',
    breaks:
      'In the V2 renderings (/v2/updates, the update of /v0/events), the created events of a transaction carry its record time as created_at, not its ledger effective time.',
    cites: ['R.scan.5'],
    rules: ['SCAN-EVENTS-BY-ID'],
    // A fact of the record (x-cn-record-facts), judged on every answer that carries it.
    generic: { operations: ['getEventById'], checks: ['responses'] },
  },
  'scan-assignment-values-compact': {
    family: 'encodings',
    breaks:
      "An assignment's created event is written in compact_json whatever value encoding was asked (protobuf_json, lossless), unlike a transaction's events.",
    cites: ['C.events.3'],
    rules: ['SCAN-EVENTS-ENCODING-VARIANTS', 'SCAN-UPDATES-LOSSLESS-VARIANTS'],
  },
} as const);
