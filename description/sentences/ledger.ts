// Normative sentences of the description (see ../model.ts): filled section by section.
//
// Overview rows: the description shows no request or response payload of these endpoints, so what can be
// judged of a row is that the listed operation's answers keep to the documented statuses, content types and
// JsCantonError error body (the operation's GENERIC requirements); each row's purpose is listed apart: enforced
// where other answers of the node show its effect (the operation's positive requirement, built from the node's
// own data), a gap where a check could judge it without the unshown payloads, otherwise not checkable.
import type { SentenceSection } from '../model.ts';

const NO_PAYLOAD = "the description does not show this endpoint's payloads, so what its answer should contain cannot be judged against it";

export const LEDGER_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'A.updates',
    heading: 'Endpoints > A. Ledger interface > POST /v2/updates',
    sentences: [
      {
        n: 'A.updates.1',
        text: 'Reads the filtered update stream. Selection depends on the transaction shape (see Resources).',
        ids: [
          'LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER',
          'LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS',
          'LEDGER-UPDATES-ACS-DELTA-EVENT-KINDS',
          'LEDGER-UPDATES-LEDGER-EFFECTS-EVENT-KINDS',
        ],
      },
      { n: 'A.updates.2', text: 'Query `limit` int64 optional: maximum elements to return', ids: ['LEDGER-UPDATES-LIMIT', 'LEDGER-UPDATES-LIMIT-PREFIX'] },
      { n: 'A.updates.3', text: '`limit` ...: ignored if bigger than the server setting.', ids: ['LEDGER-UPDATES-LIST-LIMIT-413'] },
      {
        n: 'A.updates.4',
        text: '`stream_idle_timeout_ms` int64 optional: time after which the result is completed and sent if no new elements arrive (open-ended streams).',
        ids: ['LEDGER-UPDATES-IDLE-TIMEOUT-COMPLETES'],
      },
      {
        n: 'A.updates.5',
        text: 'Body | GetUpdatesRequest (required)',
        ids: ['GENERIC-LEDGER-GET-UPDATES-INVALID-INPUT', 'LEDGER-UPDATES-INVALID-REQUEST-400'],
      },
      {
        n: 'A.updates.6',
        text: '200 | JSON array of JsGetUpdatesResponse',
        ids: ['GENERIC-LEDGER-GET-UPDATES-RESPONSES', 'LEDGER-UPDATES-ONE-KIND', 'LEDGER-UPDATES-RECORD-FIELDS', 'LEDGER-UPDATES-BOUNDED-READ'],
      },
      {
        n: 'A.updates.7',
        text: '400 | ... (invalid body, invalid `limit`, invalid `stream_idle_timeout_ms`)',
        ids: ['LEDGER-UPDATES-INVALID-REQUEST-400', 'GENERIC-LEDGER-GET-UPDATES-INVALID-INPUT'],
      },
      { n: 'A.updates.8', text: '400 | `text/plain` string', ids: ['LEDGER-UPDATES-400-TEXT-PLAIN', 'GENERIC-LEDGER-GET-UPDATES-RESPONSES'] },
      {
        n: 'A.updates.9',
        text: 'other statuses | JsCantonError',
        ids: ['LEDGER-UPDATES-ERROR-BODY', 'GENERIC-LEDGER-GET-UPDATES-RESPONSES', 'LEDGER-ANSWERS-PLAIN-TEXT-404', 'LEDGER-ANSWERS-NULL-FOR-ABSENT'],
      },
      { n: 'A.updates.10', text: "413 Content Too Large when the result count exceeds the node's list limit", ids: ['LEDGER-UPDATES-LIST-LIMIT-413'] },
      {
        n: 'A.updates.11',
        text: 'Security: either bearer HTTP authentication or API-key authentication.',
        ids: ['LEDGER-UPDATES-AUTH-REQUIRED', 'GENERIC-LEDGER-GET-UPDATES-CREDENTIALS-REQUIRED', 'LEDGER-UPDATES-READ-RIGHTS'],
      },
    ],
  },
  {
    key: 'A.overview',
    heading: 'Endpoints > A. Ledger interface > Other ledger endpoints (overview)',
    sentences: [
      {
        n: 'A.overview.1',
        text: 'POST /v2/commands/submit-and-wait ...; failed submissions propagate the gRPC error, including interpretation errors',
        ids: ['GENERIC-LEDGER-SUBMIT-AND-WAIT-RESPONSES', 'GENERIC-LEDGER-SUBMIT-AND-WAIT-INVALID-INPUT'],
      },
      {
        n: 'A.overview.2',
        text: '/v2/commands/submit-and-wait: Submit one composite command and wait for its result',
        ids: ['LEDGER-COMMANDS-SUBMIT-AND-WAIT-VISIBLE', 'LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT'],
      },
      {
        n: 'A.overview.3',
        text: 'POST /v2/commands/submit-and-wait-for-transaction',
        ids: ['GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-TRANSACTION-RESPONSES', 'GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-TRANSACTION-INVALID-INPUT'],
      },
      {
        n: 'A.overview.4',
        text: '/v2/commands/submit-and-wait-for-transaction: Same, returning the transaction',
        ids: ['LEDGER-COMMANDS-FOR-TRANSACTION-VISIBLE'],
      },
      {
        n: 'A.overview.5',
        text: 'POST /v2/commands/submit-and-wait-for-reassignment',
        ids: ['GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-REASSIGNMENT-RESPONSES', 'GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-REASSIGNMENT-INVALID-INPUT'],
      },
      {
        n: 'A.overview.6',
        text: '/v2/commands/submit-and-wait-for-reassignment: Submit one composite reassignment command, wait, return the reassignment',
        ids: ['LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES'],
      },
      {
        n: 'A.overview.7',
        text: 'POST /v2/commands/submit-and-wait-for-transaction-tree',
        ids: ['GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-TRANSACTION-TREE-RESPONSES', 'GENERIC-LEDGER-SUBMIT-AND-WAIT-FOR-TRANSACTION-TREE-INVALID-INPUT'],
      },
      {
        n: 'A.overview.8',
        text: '/v2/commands/submit-and-wait-for-transaction-tree: Deprecated; returns transaction trees; removal announced for 3.5.0',
        ids: ['LEDGER-COMMANDS-FOR-TREE-VISIBLE'],
      },
      {
        n: 'A.overview.9',
        text: 'POST /v2/commands/async/submit',
        ids: ['GENERIC-LEDGER-SUBMIT-ASYNC-RESPONSES', 'GENERIC-LEDGER-SUBMIT-ASYNC-INVALID-INPUT'],
      },
      {
        n: 'A.overview.10',
        text: '/v2/commands/async/submit: Submit one composite command without waiting',
        ids: ['LEDGER-COMMANDS-ASYNC-COMPLETES', 'LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK', 'LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC'],
      },
      {
        n: 'A.overview.11',
        text: 'POST /v2/commands/async/submit-reassignment',
        ids: ['GENERIC-LEDGER-SUBMIT-REASSIGNMENT-ASYNC-RESPONSES', 'GENERIC-LEDGER-SUBMIT-REASSIGNMENT-ASYNC-INVALID-INPUT'],
      },
      {
        n: 'A.overview.12',
        text: '/v2/commands/async/submit-reassignment: Submit one reassignment',
        ids: ['LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES'],
      },
      {
        n: 'A.overview.13',
        text: 'POST /v2/commands/completions',
        ids: ['GENERIC-LEDGER-GET-COMPLETIONS-RESPONSES', 'GENERIC-LEDGER-GET-COMPLETIONS-INVALID-INPUT'],
      },
      {
        n: 'A.overview.14',
        text: '/v2/commands/completions: Deprecated blocking completions query (use the command-completions endpoint); for small results',
        ids: ['LEDGER-COMMANDS-COMPLETIONS-LIST-RESULT', 'LEDGER-COMMANDS-ASYNC-COMPLETES'],
      },
      {
        n: 'A.overview.15',
        text: 'POST /v2/commands/command-completions',
        ids: ['GENERIC-LEDGER-GET-COMMAND-COMPLETIONS-RESPONSES', 'GENERIC-LEDGER-GET-COMMAND-COMPLETIONS-INVALID-INPUT'],
      },
      {
        n: 'A.overview.16',
        text: '/v2/commands/command-completions: Since 3.5',
        ids: ['LEDGER-COMMAND-COMPLETIONS-SINCE-3-5'],
      },
      {
        n: 'A.overview.17',
        text: '/v2/commands/command-completions: subscribe to command completion events with more filtering than its predecessor',
        ids: ['LEDGER-COMMANDS-COMMAND-COMPLETIONS-LIST-ASYNC'],
      },
      {
        n: 'A.overview.18',
        text: 'POST /v2/events/events-by-contract-id',
        ids: ['GENERIC-LEDGER-GET-EVENTS-BY-CONTRACT-ID-RESPONSES', 'GENERIC-LEDGER-GET-EVENTS-BY-CONTRACT-ID-INVALID-INPUT'],
      },
      {
        n: 'A.overview.19',
        text: '/v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
        ids: ['LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED'],
      },
      {
        n: 'A.overview.20',
        text: '/v2/events/events-by-contract-id: nothing is returned for pruned contracts',
        notCheckable: `pruning is an operator action outside the interface, and ${NO_PAYLOAD} (nor what "nothing" looks like)`,
      },
      { n: 'A.overview.21', text: 'GET /v2/version', ids: ['GENERIC-LEDGER-GET-VERSION-RESPONSES'] },
      { n: 'A.overview.22', text: '/v2/version: Read the ledger interface version', ids: ['LEDGER-VERSION-STATED'] },
      { n: 'A.overview.23', text: 'POST /v2/dars/validate', ids: ['GENERIC-LEDGER-VALIDATE-DAR-RESPONSES'] },
      {
        n: 'A.overview.24',
        text: '/v2/dars/validate: Validate a DAR and check upgrade compatibility of its packages against vetted packages on the target synchronizer',
        ids: ['LEDGER-PACKAGES-DAR-VALIDATE'],
      },
      { n: 'A.overview.25', text: 'POST /v2/dars', ids: ['GENERIC-LEDGER-UPLOAD-DAR-RESPONSES'] },
      { n: 'A.overview.26', text: '/v2/dars: Upload a DAR', ids: ['LEDGER-PACKAGES-DAR-UPLOAD'] },
      { n: 'A.overview.27', text: 'GET /v2/packages', ids: ['GENERIC-LEDGER-LIST-PACKAGES-RESPONSES'] },
      { n: 'A.overview.28', text: 'GET /v2/packages: identifiers of all supported packages', ids: ['LEDGER-PACKAGES-LIST-IDENTIFIERS'] },
      { n: 'A.overview.29', text: 'POST /v2/packages', ids: ['GENERIC-LEDGER-UPLOAD-PACKAGES-RESPONSES'] },
      {
        n: 'A.overview.30',
        text: 'POST /v2/packages: same as /dars, to be deprecated',
        ids: ['LEDGER-PACKAGES-UPLOAD-SAME-AS-DARS', 'LEDGER-PACKAGES-UPLOAD-TAKES-DAR'],
      },
      { n: 'A.overview.31', text: 'GET /v2/packages/{package-id}', ids: ['GENERIC-LEDGER-GET-PACKAGE-RESPONSES'] },
      { n: 'A.overview.32', text: '/v2/packages/{package-id}: Contents of one package', ids: ['LEDGER-PACKAGES-CONTENTS-OF-LISTED'] },
      { n: 'A.overview.33', text: 'GET /v2/packages/{package-id}/status', ids: ['GENERIC-LEDGER-GET-PACKAGE-STATUS-RESPONSES'] },
      { n: 'A.overview.34', text: '/v2/packages/{package-id}/status: Status of one package', ids: ['LEDGER-PACKAGES-STATUS-OF-LISTED'] },
      {
        n: 'A.overview.35',
        text: 'GET, POST /v2/package-vetting',
        ids: [
          'GENERIC-LEDGER-GET-PACKAGE-VETTING-RESPONSES',
          'GENERIC-LEDGER-POST-PACKAGE-VETTING-RESPONSES',
          'GENERIC-LEDGER-POST-PACKAGE-VETTING-INVALID-INPUT',
        ],
      },
      {
        n: 'A.overview.36',
        text: '/v2/package-vetting: Deprecated; lists which participant vetted which packages on which synchronizer (GET)',
        ids: ['LEDGER-VETTING-LIST', 'LEDGER-VETTING-DRY-RUN-UNVET'],
      },
    ],
  },
];
