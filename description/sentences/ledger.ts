// Normative sentences of the description (see ../model.ts): filled section by section.
//
// Overview rows: the description shows no request or response payload of these endpoints, so what can be
// judged of a row is that the listed operation's answers keep to the documented statuses, content types and
// JsCantonError error body (the operation's generic requirements cite the row: requirements/generic/cited-sentences.ts);
// each row's purpose is listed apart: enforced
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
      },
      { n: 'A.updates.2', text: 'Query `limit` int64 optional: maximum elements to return' },
      { n: 'A.updates.3', text: '`limit` ...: ignored if bigger than the server setting.' },
      {
        n: 'A.updates.4',
        text: '`stream_idle_timeout_ms` int64 optional: time after which the result is completed and sent if no new elements arrive (open-ended streams).',
      },
      {
        n: 'A.updates.5',
        text: 'Body | GetUpdatesRequest (required)',
      },
      {
        n: 'A.updates.6',
        text: '200 | JSON array of JsGetUpdatesResponse',
      },
      {
        n: 'A.updates.7',
        text: '400 | ... (invalid body, invalid `limit`, invalid `stream_idle_timeout_ms`)',
      },
      { n: 'A.updates.8', text: '400 | `text/plain` string' },
      {
        n: 'A.updates.9',
        text: 'other statuses | JsCantonError',
      },
      { n: 'A.updates.10', text: "413 Content Too Large when the result count exceeds the node's list limit" },
      {
        n: 'A.updates.11',
        text: 'Security: either bearer HTTP authentication or API-key authentication.',
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
      },
      {
        n: 'A.overview.2',
        text: '/v2/commands/submit-and-wait: Submit one composite command and wait for its result',
      },
      {
        n: 'A.overview.3',
        text: 'POST /v2/commands/submit-and-wait-for-transaction',
      },
      {
        n: 'A.overview.4',
        text: '/v2/commands/submit-and-wait-for-transaction: Same, returning the transaction',
      },
      {
        n: 'A.overview.5',
        text: 'POST /v2/commands/submit-and-wait-for-reassignment',
      },
      {
        n: 'A.overview.6',
        text: '/v2/commands/submit-and-wait-for-reassignment: Submit one composite reassignment command, wait, return the reassignment',
      },
      {
        n: 'A.overview.7',
        text: 'POST /v2/commands/submit-and-wait-for-transaction-tree',
      },
      {
        n: 'A.overview.8',
        text: '/v2/commands/submit-and-wait-for-transaction-tree: Deprecated; returns transaction trees; removal announced for 3.5.0',
      },
      {
        n: 'A.overview.9',
        text: 'POST /v2/commands/async/submit',
      },
      {
        n: 'A.overview.10',
        text: '/v2/commands/async/submit: Submit one composite command without waiting',
      },
      {
        n: 'A.overview.11',
        text: 'POST /v2/commands/async/submit-reassignment',
      },
      {
        n: 'A.overview.12',
        text: '/v2/commands/async/submit-reassignment: Submit one reassignment',
      },
      {
        n: 'A.overview.13',
        text: 'POST /v2/commands/completions',
      },
      {
        n: 'A.overview.14',
        text: '/v2/commands/completions: Deprecated blocking completions query (use the command-completions endpoint); for small results',
      },
      {
        n: 'A.overview.15',
        text: 'POST /v2/commands/command-completions',
      },
      {
        n: 'A.overview.16',
        text: '/v2/commands/command-completions: Since 3.5',
      },
      {
        n: 'A.overview.17',
        text: '/v2/commands/command-completions: subscribe to command completion events with more filtering than its predecessor',
      },
      {
        n: 'A.overview.18',
        text: 'POST /v2/events/events-by-contract-id',
      },
      {
        n: 'A.overview.19',
        text: '/v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
      },
      {
        n: 'A.overview.20',
        text: '/v2/events/events-by-contract-id: nothing is returned for pruned contracts',
        notCheckable: `pruning is an operator action outside the interface, and ${NO_PAYLOAD} (nor what "nothing" looks like)`,
      },
      { n: 'A.overview.21', text: 'GET /v2/version' },
      { n: 'A.overview.22', text: '/v2/version: Read the ledger interface version' },
      { n: 'A.overview.23', text: 'POST /v2/dars/validate' },
      {
        n: 'A.overview.24',
        text: '/v2/dars/validate: Validate a DAR and check upgrade compatibility of its packages against vetted packages on the target synchronizer',
      },
      { n: 'A.overview.25', text: 'POST /v2/dars' },
      { n: 'A.overview.26', text: '/v2/dars: Upload a DAR' },
      { n: 'A.overview.27', text: 'GET /v2/packages' },
      { n: 'A.overview.28', text: 'GET /v2/packages: identifiers of all supported packages' },
      { n: 'A.overview.29', text: 'POST /v2/packages' },
      {
        n: 'A.overview.30',
        text: 'POST /v2/packages: same as /dars, to be deprecated',
      },
      { n: 'A.overview.31', text: 'GET /v2/packages/{package-id}' },
      { n: 'A.overview.32', text: '/v2/packages/{package-id}: Contents of one package' },
      { n: 'A.overview.33', text: 'GET /v2/packages/{package-id}/status' },
      { n: 'A.overview.34', text: '/v2/packages/{package-id}/status: Status of one package' },
      {
        n: 'A.overview.35',
        text: 'GET, POST /v2/package-vetting',
      },
      {
        n: 'A.overview.36',
        text: '/v2/package-vetting: Deprecated; lists which participant vetted which packages on which synchronizer (GET)',
      },
    ],
  },
];
