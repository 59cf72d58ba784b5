// Faults of the ledger interface: each switches on one violation of one rule of the description, so the
// suite can prove it notices. Code switches them with `ctx.faults.has('ledger-...')`.
import { declareFaults } from '../fault-definition.ts';
import { CHANNEL_FAULTS } from './channel-faults.ts';
import { EFFECT_FAULTS } from './effect-faults.ts';

/** The command submissions of the built-in document (the overview faults name them together). */
const COMMAND_OPERATIONS = [
  'submitAndWait',
  'submitAndWaitForTransaction',
  'submitAndWaitForReassignment',
  'submitAndWaitForTransactionTree',
  'submitAsync',
  'submitReassignmentAsync',
];

const RULE_FAULTS = declareFaults('ledger', {
  'ledger-begin-inclusive': {
    family: 'offset window',
    breaks: 'The element whose offset equals beginExclusive is returned, although only strictly greater offsets may be.',
    cites: ['R.ledger.3'],
    rules: ['LEDGER-UPDATES-BEGIN-EXCLUSIVE', 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT'],
  },
  'ledger-end-ignored': {
    family: 'offset window',
    breaks: 'Elements with offsets beyond endInclusive are returned.',
    cites: ['R.ledger.7'],
    rules: ['LEDGER-UPDATES-END-INCLUSIVE', 'LEDGER-WEBSOCKET-ACTIVE-CONTRACTS'],
  },
  'ledger-descending-ignored': {
    family: 'ordering',
    breaks: 'With descendingOrder true the elements still come in ascending offset order.',
    cites: ['R.ledger.19'],
    rules: ['LEDGER-UPDATES-DESCENDING'],
  },
  'ledger-descending-without-end-accepted': {
    family: 'request validation',
    breaks: 'descendingOrder without endInclusive is accepted instead of being rejected with 400.',
    cites: ['R.ledger.8'],
    rules: ['LEDGER-UPDATES-DESCENDING-NEEDS-END', 'LEDGER-WEBSOCKET-BAD-REQUEST'],
  },
  // The positive read asks for a limit below the list limit over a long window: ignored, it is answered 413.
  'ledger-limit-ignored': {
    family: 'limits',
    breaks: 'The limit query parameter is ignored, so more elements than the limit are returned.',
    cites: ['A.updates.2'],
    rules: ['LEDGER-UPDATES-LIMIT', 'LEDGER-UPDATES-BOUNDED-READ', 'LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT', 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT'],
  },
  'ledger-limit-plus-one': {
    family: 'limits',
    breaks: 'A read with a limit returns one element more than the limit.',
    cites: ['A.updates.2'],
    rules: ['LEDGER-UPDATES-LIMIT', 'LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT'],
    generic: { operations: ['getUpdates'], checks: ['relations'] },
  },
  'ledger-invalid-limit-accepted': {
    family: 'request validation',
    breaks: 'An invalid limit (negative or not an integer) is accepted instead of being rejected with a plain-text 400.',
    cites: ['A.updates.7', 'X.errors.1'],
    rules: ['LEDGER-UPDATES-INVALID-REQUEST-400'],
  },
  // Observable only where some read exceeds the list limit: every read of the default history stays under the
  // default limit of 500 (at most 474 elements), so a node with this fault needs a smaller listLimit (e.g. 200).
  'ledger-no-413': {
    family: 'limits',
    breaks: 'A result larger than the node list limit is answered 200 with every element instead of 413.',
    cites: ['A.updates.10', 'X.errors.2', 'X.limits.1'],
    rules: ['LEDGER-UPDATES-LIST-LIMIT-413', 'LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT', 'LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'],
    // A read asking for more than the list limit gets every element: more than the limit it asked for, too.
    generic: { operations: ['getUpdates'], checks: ['relations'] },
  },
  // The sides of the list limit's bound (description/bounds.ts): refused at it, accepted one above it, and a
  // `limit` above it honoured. From outside each looks like a correct node with another limit, so only the
  // probes that know the node's setting (fixtures.ledgerListLimit) can tell.
  'ledger-list-limit-at-bound-413': {
    family: 'limits',
    breaks: 'A result of exactly the node list limit is refused with 413, although 413 is only for a count that exceeds it.',
    cites: ['A.updates.10', 'X.limits.1'],
    rules: ['LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'],
  },
  'ledger-limit-at-list-limit-ignored': {
    family: 'limits',
    breaks:
      'A limit equal to the node list limit is ignored as if it were bigger, so the read is refused with 413 instead of answered with at most limit elements.',
    cites: ['A.updates.3', 'X.limits.2'],
    rules: ['LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT'],
  },
  'ledger-list-limit-one-over-accepted': {
    family: 'limits',
    breaks: 'A result of one element more than the node list limit is answered 200 instead of 413.',
    cites: ['A.updates.10', 'X.limits.1'],
    rules: ['LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'],
  },
  'ledger-limit-above-list-limit-honoured': {
    family: 'limits',
    breaks: 'A limit bigger than the node list limit is honoured instead of ignored, so a 200 carries more elements than the list limit.',
    cites: ['A.updates.3', 'X.limits.2'],
    rules: ['LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT'],
  },
  'ledger-error-400-as-json': {
    family: 'errors',
    breaks: 'The update stream answers 400 with a JSON JsCantonError body instead of text/plain.',
    // The generic checks tolerate it: a JsCantonError 400 is the document's default answer, which real nodes
    // send for errors found after decoding.
    cites: ['A.updates.8', 'X.errors.1'],
    rules: ['LEDGER-UPDATES-400-TEXT-PLAIN'],
  },
  'ledger-error-body-shape': {
    family: 'errors',
    breaks: 'JsCantonError bodies lack the required errorCategory field.',
    cites: ['R.ledger.42'],
    rules: ['LEDGER-UPDATES-ERROR-BODY', 'LEDGER-WEBSOCKET-MESSAGE-SCHEMA'],
    generic: {},
  },
  'ledger-acs-delta-leak': {
    family: 'ACS-delta filter',
    breaks: 'In the ACS-delta shape a created event of a contract with no requesting stakeholder is returned.',
    cites: ['S.service.5', 'X.events.3'],
    rules: ['LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER', 'LEDGER-WEBSOCKET-ACTIVE-CONTRACTS'],
  },
  'ledger-ledger-effects-leak': {
    family: 'ledger-effects filter',
    breaks: 'In the ledger-effects shape events that no requesting party witnesses are returned.',
    cites: ['S.service.6', 'X.events.4'],
    // The leaked events pass no filter at all, so a TemplateFilter read in the ledger-effects shape (one of the
    // variants the template rule runs on) holds events of other templates too: that rule is broken as well.
    rules: ['LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS', 'LEDGER-UPDATES-TEMPLATE-FILTER'],
  },
  'ledger-wrong-event-kind': {
    family: 'transaction shape',
    breaks: 'An ACS-delta transaction carries an ExercisedEvent where an ArchivedEvent belongs.',
    cites: ['X.events.3'],
    rules: ['LEDGER-UPDATES-ACS-DELTA-EVENT-KINDS'],
  },
  'ledger-template-filter-ignored': {
    family: 'event filters',
    breaks: 'A template filter does not narrow the result: events of every template are returned.',
    cites: ['R.ledger.24'],
    rules: ['LEDGER-UPDATES-TEMPLATE-FILTER'],
  },
  'ledger-two-keys-update': {
    family: 'update shape',
    breaks: 'An update object carries two kind keys instead of exactly one.',
    cites: ['R.ledger.39'],
    rules: ['LEDGER-UPDATES-ONE-KIND', 'LEDGER-UPDATES-BOUNDED-READ', 'LEDGER-WEBSOCKET-MESSAGE-SCHEMA'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['getUpdates'], checks: ['responses'] },
  },
  'ledger-unrequested-kind': {
    family: 'update format',
    breaks: 'Reassignments are emitted although includeReassignments is unset.',
    cites: ['R.ledger.31', 'X.events.2'],
    rules: ['LEDGER-UPDATES-REQUESTED-KINDS'],
  },
  'ledger-offsets-not-increasing': {
    family: 'ordering',
    breaks: 'Two consecutive elements of an ascending answer have decreasing offsets.',
    cites: ['R.ledger.19'],
    rules: ['LEDGER-UPDATES-ASCENDING', 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT', 'LEDGER-WEBSOCKET-LIVE-UPDATE'],
  },
  'ledger-event-offset-mismatch': {
    family: 'record fields',
    breaks: "Events carry an offset different from their update's offset.",
    cites: ['R.ledger.40'],
    rules: ['LEDGER-UPDATES-EVENT-OFFSET'],
  },
  'ledger-no-auth': {
    family: 'authentication',
    breaks: 'The update stream answers requests that carry no credentials instead of 401.',
    cites: ['A.updates.11', 'X.auth.5'],
    rules: ['LEDGER-UPDATES-AUTH-REQUIRED'],
    generic: { operations: ['getUpdates'], checks: ['credentials-required'] },
  },
  'ledger-read-rights-unchecked': {
    family: 'authorization',
    breaks: 'A user may read as parties it has no rights for instead of getting 403.',
    cites: ['A.updates.11'],
    rules: ['LEDGER-UPDATES-READ-RIGHTS'],
  },
  'ledger-witness-parties-too-wide': {
    family: 'witness parties',
    breaks: 'witnessParties lists parties that were not requested (every stakeholder or witness).',
    cites: ['R.ledger.23'],
    rules: ['LEDGER-UPDATES-WITNESS-PARTIES'],
  },
  // No requirement: no answer shows who submitted a transaction, so a leaked commandId cannot be told apart
  // target-agnostically (it would need a fixture naming a transaction's submitters).
  'ledger-filter-and-format-accepted': {
    family: 'request validation',
    breaks: 'A request with both filter and updateFormat is accepted instead of rejected with 400.',
    cites: ['R.ledger.11'],
    rules: ['LEDGER-UPDATES-FILTER-WITH-FORMAT-REJECTED'],
  },
  'ledger-required-field-dropped': {
    family: 'record fields',
    breaks: 'Transaction records lack the required recordTime field.',
    cites: ['R.ledger.40'],
    rules: ['LEDGER-UPDATES-RECORD-FIELDS', 'LEDGER-UPDATES-BOUNDED-READ', 'LEDGER-WEBSOCKET-MESSAGE-SCHEMA'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['getUpdates'], checks: ['responses'] },
  },
  // A window starting at 0 is read whole, so only reads that page through the history show the gap; both
  // directions drop the same (lowest-offset) update, so ascending and descending reads still agree.
  'ledger-paging-gap': {
    family: 'offset window',
    breaks: 'A read whose beginExclusive lies inside the history silently drops its first update, which a window starting earlier returns.',
    // The command checks read their update at (offset - 1, offset]: the window's first update.
    cites: ['R.ledger.3'],
    rules: [
      'LEDGER-UPDATES-PAGING-COMPLETE',
      'LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE',
      'LEDGER-COMMANDS-FOR-TRANSACTION-VISIBLE',
      'LEDGER-COMMANDS-FOR-TREE-VISIBLE',
      'LEDGER-COMMANDS-ASYNC-COMPLETES',
      'LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES',
      'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES',
      'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT',
    ],
  },
  // Only consuming exercises whose created descendants all have a requesting stakeholder are replaced, so no
  // created event loses the exercise that shows why a requesting party witnesses it.
  'ledger-ledger-effects-archived': {
    family: 'transaction shape',
    breaks: 'A ledger-effects transaction carries an ArchivedEvent where the ExercisedEvent of a consuming choice belongs.',
    // The transaction tree of a submitted create-and-archive keeps its exercise, which the stream then lacks.
    cites: ['X.events.4'],
    rules: ['LEDGER-UPDATES-LEDGER-EFFECTS-EVENT-KINDS', 'LEDGER-COMMANDS-FOR-TREE-VISIBLE'],
  },
  // Second faults of their families: another way a real node breaks the same rule.
  'ledger-acs-delta-reassignment-leak': {
    family: 'ACS-delta filter',
    breaks:
      'Assignments are delivered to the requesting parties whose filters select the template, whether or not one of them is a stakeholder of the reassigned contract.',
    cites: ['R.ledger.31'],
    rules: ['LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER'],
  },
  'ledger-token-signature-unchecked': {
    family: 'authentication',
    breaks: 'Bearer tokens are decoded without verifying their signature, so a token with a forged signature is accepted as its subject.',
    cites: ['A.updates.11'],
    rules: ['LEDGER-UPDATES-AUTH-REQUIRED'],
  },
  'ledger-any-party-read-unchecked': {
    family: 'authorization',
    breaks:
      'Read rights are checked for the parties a request names only: a filtersForAnyParty read by a user without the right to read as any party is served.',
    cites: ['A.updates.11'],
    rules: ['LEDGER-UPDATES-READ-RIGHTS'],
  },
  'ledger-template-filter-package-name-only': {
    family: 'event filters',
    breaks: 'Template filters are compared by package name only (#name:Module:Entity): a filter naming the template by package id matches nothing.',
    cites: ['R.ledger.24'],
    rules: ['LEDGER-UPDATES-TEMPLATE-FILTER'],
  },
  'ledger-ledger-effects-participant-view': {
    family: 'ledger-effects filter',
    breaks:
      'The ledger-effects shape shows what any party hosted on the participant witnesses, not only the requesting parties (witnessParties name those hosted witnesses).',
    cites: ['S.service.6'],
    rules: ['LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS', 'LEDGER-UPDATES-WITNESS-PARTIES'],
  },
  'ledger-transactions-always-included': {
    family: 'update format',
    breaks: 'Transactions are emitted although includeTransactions is unset (read with the reassignment filters, or a wildcard).',
    cites: ['R.ledger.30'],
    rules: ['LEDGER-UPDATES-REQUESTED-KINDS'],
  },
  // A misnamed checkpoint is also none of the kinds a read may carry.
  'ledger-checkpoint-kind-misnamed': {
    family: 'update shape',
    breaks: 'Offset checkpoints are sent under the key offsetCheckpoint instead of OffsetCheckpoint, a kind the Update one-of does not have.',
    cites: ['R.ledger.39'],
    rules: ['LEDGER-UPDATES-ONE-KIND', 'LEDGER-UPDATES-REQUESTED-KINDS', 'LEDGER-WEBSOCKET-MESSAGE-SCHEMA'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['getUpdates'], checks: ['responses'] },
  },
  'ledger-witness-parties-all-requesters': {
    family: 'witness parties',
    breaks: 'witnessParties list every requesting party hosted here, including those that do not see the event.',
    cites: ['R.ledger.23'],
    rules: ['LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS'],
  },
  // Faults of the request fields whose meaning shows only on data (party filters, defaults, limits).
  'ledger-any-party-filters-ignored': {
    family: 'party filters',
    breaks: 'filtersForAnyParty selects nobody: a read with it alone returns no events, instead of those of every party on the participant.',
    cites: ['R.ledger.21'],
    rules: ['LEDGER-UPDATES-ANY-PARTY'],
  },
  'ledger-first-party-only': {
    family: 'party filters',
    breaks: 'Of several parties in filtersByParty only the first listed one is read as: the events of the others are missing.',
    cites: ['R.ledger.36'],
    rules: ['LEDGER-UPDATES-SEVERAL-PARTIES'],
  },
  'ledger-empty-filters-select-nothing': {
    family: 'event filters',
    breaks: 'A party whose Filters define no cumulative filter ({} or an empty cumulative) gets no events, instead of a wildcard.',
    cites: ['R.ledger.29'],
    rules: ['LEDGER-UPDATES-EMPTY-FILTERS'],
  },
  'ledger-empty-filters-with-blob': {
    family: 'event filters',
    breaks: 'The implicit wildcard of a party without cumulative filters includes the created-event blob.',
    cites: ['R.ledger.29'],
    rules: ['LEDGER-UPDATES-EMPTY-FILTERS'],
  },
  'ledger-legacy-filter-no-topology': {
    family: 'update format',
    breaks: 'The default mapping of the deprecated filter (updateFormat unset) leaves out the participant-authorization topology events of the named parties.',
    cites: ['R.ledger.16'],
    rules: ['LEDGER-UPDATES-LEGACY-FILTER-DEFAULT'],
  },
  'ledger-list-limit-500': {
    family: 'limits',
    breaks: 'A result larger than the node list limit is answered 500 instead of 413.',
    cites: ['A.updates.10', 'X.errors.2', 'X.limits.1'],
    rules: ['LEDGER-UPDATES-LIST-LIMIT-413', 'LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT', 'LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'],
  },
  'ledger-list-limit-truncates': {
    family: 'limits',
    breaks: 'A result larger than the node list limit is answered 200 with its first list-limit elements, silently truncated, instead of 413.',
    cites: ['A.updates.10', 'X.errors.2', 'X.limits.1'],
    rules: ['LEDGER-UPDATES-LIST-LIMIT-413', 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT'],
  },
  // A 200 whose count is within every bound, yet that leaves out what the node shows of the same window elsewhere.
  'ledger-list-limit-overflow-only': {
    family: 'limits',
    breaks: 'A result larger than the node list limit is answered 200 with only its elements beyond the list limit, instead of 413.',
    cites: ['A.updates.10', 'X.errors.2', 'X.limits.1'],
    rules: ['LEDGER-UPDATES-LIST-LIMIT-413', 'LEDGER-UPDATES-LIST-LIMIT-AT-BOUND', 'LEDGER-WEBSOCKET-BEYOND-LIST-LIMIT'],
  },
  'ledger-limit-takes-window-tail': {
    family: 'limits',
    breaks: 'A read with a limit and an endInclusive returns the last `limit` elements of its window instead of the first, so a larger limit starts elsewhere.',
    cites: ['A.updates.2'],
    rules: ['LEDGER-UPDATES-LIMIT-PREFIX'],
  },
  // Faults of the overview endpoints, visible to the checks derived from the document only.
  'ledger-command-bad-json-500': {
    family: 'request validation',
    breaks: 'A command submission whose body is not JSON is answered 500 (the parse error escapes) instead of 400.',
    cites: ['A.overview.1'],
    rules: [],
    generic: {
      operations: COMMAND_OPERATIONS,
      checks: ['invalid-input'],
    },
  },
  'ledger-completions-body-ignored': {
    family: 'request validation',
    breaks: 'The completion endpoints never read their body: one that is not JSON is answered 200 with no completions instead of 400.',
    cites: ['A.overview.13', 'A.overview.15'],
    rules: [],
    generic: { operations: ['getCompletions', 'getCommandCompletions'], checks: ['invalid-input'] },
  },
  // Every overview operation that answers JSON (the package download answers bytes) and whose 200 some check
  // receives: the generic checks, or the positive requirements (whose answers are judged for the generic ones).
  // The command checks stop at their first mislabelled answer: the reassignment checks at the transaction that
  // creates their contract, so no check receives a 200 of the reassignment endpoints.
  'ledger-overview-json-as-text': {
    family: 'documented answers',
    breaks: 'The overview endpoints send their JSON answers serialized by hand, labelled text/plain instead of application/json.',
    cites: ['S.service.2'],
    rules: [
      'LEDGER-COMMANDS-WAIT-FAILURE-PROPAGATED',
      'LEDGER-PACKAGES-LIST-HAS-STREAMED',
      'LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE',
      'LEDGER-COMMANDS-FOR-TRANSACTION-VISIBLE',
      'LEDGER-COMMANDS-FOR-TREE-VISIBLE',
      'LEDGER-COMMANDS-ASYNC-COMPLETES',
      'LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK',
      'LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT',
      'LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC',
      'LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES',
      'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES',
      'LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED',
      'LEDGER-VERSION-STATED',
      'LEDGER-PACKAGES-LIST-IDENTIFIERS',
      'LEDGER-PACKAGES-CONTENTS-OF-LISTED',
      'LEDGER-PACKAGES-STATUS-OF-LISTED',
      'LEDGER-PACKAGES-DAR-VALIDATE',
      'LEDGER-PACKAGES-DAR-UPLOAD',
      'LEDGER-PACKAGES-UPLOAD-TAKES-DAR',
      'LEDGER-VETTING-LIST',
      'LEDGER-VETTING-DRY-RUN-UNVET',
      'LEDGER-WEBSOCKET-LIVE-UPDATE',
      'LEDGER-WEBSOCKET-COMPLETIONS',
    ],
    generic: {
      operations: [
        'getCommandCompletions',
        'getCompletions',
        'submitAndWait',
        'submitAndWaitForTransaction',
        'submitAndWaitForTransactionTree',
        'submitAsync',
        'getEventsByContractId',
        'getVersion',
        'validateDar',
        'uploadDar',
        'listPackages',
        'uploadPackages',
        'getPackageStatus',
        'getPackageVetting',
        'postPackageVetting',
      ],
      checks: ['responses'],
    },
  },
  // The reassignment checks stop at the transaction creating their contract under the fault above, so this one
  // proves that every answer of the reassignment endpoints is judged against the document.
  'ledger-reassignment-json-as-text': {
    family: 'documented answers',
    breaks: 'The reassignment endpoints send their JSON answers serialized by hand, labelled text/plain instead of application/json.',
    cites: ['A.overview.6', 'A.overview.12'],
    rules: ['LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES', 'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES'],
    generic: { operations: ['submitAndWaitForReassignment', 'submitReassignmentAsync'], checks: ['responses'] },
  },
  'ledger-command-completions-unserved': {
    family: 'versions',
    breaks: 'GET /v2/version states release line 3.5, yet POST /v2/commands/command-completions (since 3.5) is answered 501, not implemented.',
    cites: ['A.overview.16', 'X.versioning.2'],
    rules: ['LEDGER-COMMAND-COMPLETIONS-SINCE-3-5'],
  },
  'ledger-packages-upload-differs': {
    family: 'versions',
    breaks: 'POST /v2/packages refuses with 400 the bytes POST /v2/dars accepts, although it does the same as /v2/dars.',
    cites: ['A.overview.30'],
    rules: ['LEDGER-PACKAGES-UPLOAD-SAME-AS-DARS'],
  },
  'ledger-begin-zero-after-checkpoint': {
    family: 'offset window',
    breaks: "A read from beginExclusive 0 starts after the ledger's first offset checkpoint, not at the start of the ledger.",
    cites: ['R.ledger.4'],
    rules: ['LEDGER-UPDATES-BEGIN-ZERO-START'],
  },
  'ledger-verbose-and-format-accepted': {
    family: 'request validation',
    breaks: 'verbose next to updateFormat is accepted (only filter next to it is refused) instead of being rejected with 400.',
    cites: ['R.ledger.15'],
    rules: ['LEDGER-UPDATES-VERBOSE-WITH-FORMAT-REJECTED'],
  },
  'ledger-verbose-labels-dropped': {
    family: 'record fields',
    breaks: 'With verbose true, created events carry their create arguments as a list of field values, without the record labels.',
    cites: ['R.ledger.14'],
    rules: ['LEDGER-UPDATES-VERBOSE-LABELS'],
  },
  'ledger-party-key-unchecked': {
    family: 'request validation',
    breaks: 'A filtersByParty key that is no valid party id (empty, or with characters no party id has) is accepted instead of refused.',
    cites: ['R.ledger.20'],
    rules: ['LEDGER-UPDATES-PARTY-KEY-VALID'],
  },
  'ledger-cumulative-first-template-only': {
    family: 'event filters',
    breaks: 'Of several TemplateFilter entries of one Filters, only the first selects events: later entries do not widen the result.',
    cites: ['R.ledger.26'],
    rules: ['LEDGER-UPDATES-CUMULATIVE-UNION'],
  },
  'ledger-wildcard-flags-override': {
    family: 'event filters',
    breaks: "Where a wildcard entry matches, its includeCreatedEventBlob is taken alone: a template entry's flag for the same events does not accumulate.",
    cites: ['R.ledger.27'],
    rules: ['LEDGER-UPDATES-CUMULATIVE-FLAGS'],
  },
  'ledger-idle-timeout-ignored': {
    family: 'limits',
    breaks: 'An open-ended read without limit ignores stream_idle_timeout_ms and is held open instead of being completed once idle.',
    cites: ['A.updates.4', 'X.limits.3'],
    rules: ['LEDGER-UPDATES-IDLE-TIMEOUT-COMPLETES'],
  },
  'ledger-negative-begin-as-zero': {
    family: 'request validation',
    breaks: 'A negative beginExclusive is read as 0 (the start of the ledger) and answered 200 instead of 400.',
    cites: ['R.ledger.2'],
    rules: ['LEDGER-UPDATES-INVALID-REQUEST-400'],
  },
  'ledger-effects-time-shifted': {
    family: 'transaction shape',
    breaks: 'A transaction read in the ledger-effects shape has an effectiveAt one microsecond after the one the ACS-delta shape gives.',
    cites: ['S.service.5'],
    rules: ['LEDGER-UPDATES-SHAPES-SAME-TRANSACTION'],
  },
  'ledger-pruned-reads-served': {
    family: 'offset window',
    breaks: 'The participant says it is pruned up to offset 10 (GET /v2/state/latest-pruned-offsets), yet answers reads beginning below it.',
    cites: ['R.ledger.5'],
    rules: ['LEDGER-UPDATES-PRUNED-BEGIN'],
  },
  'ledger-submit-and-wait-offset-ahead': {
    family: 'offset window',
    breaks: 'submit-and-wait answers a completionOffset one past the offset its update took, so its result is not where it says.',
    // Its completion is at the offset the update took, not at the one answered.
    cites: ['A.overview.2'],
    rules: ['LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE', 'LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT'],
  },
  'ledger-idle-timeout-unchecked': {
    family: 'request validation',
    breaks: 'An invalid stream_idle_timeout_ms (not an integer) is read as none and answered 200 instead of 400.',
    cites: ['A.updates.7', 'X.errors.1'],
    rules: ['LEDGER-UPDATES-INVALID-REQUEST-400'],
  },
  // Only the generic check sends a request without a body: its generated invalid requests often break the limit
  // too, which the node reads first, unless the handler reads the missing body before anything else.
  'ledger-updates-missing-body-500': {
    family: 'request validation',
    breaks: 'POST /v2/updates without a body fails with 500 (the handler reads the missing body before validating anything) instead of 400.',
    cites: ['A.updates.7'],
    rules: [],
    generic: { operations: ['getUpdates'], checks: ['invalid-input'] },
  },
} as const);

export const LEDGER_FAULTS = [...RULE_FAULTS, ...EFFECT_FAULTS, ...CHANNEL_FAULTS];

export type LedgerFaultName = (typeof LEDGER_FAULTS)[number]['name'];
