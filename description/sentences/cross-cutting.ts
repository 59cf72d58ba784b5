// Normative sentences of the description (see ../model.ts): the sections that cut across the three interfaces
// (authentication, events, errors, limits, versioning).
import type { SentenceSection } from '../model.ts';

/** The rules on the V2 record the successor path /v2/updates/{update_id} answers with. */
const UPDATES_V2 = [
  'GENERIC-SCAN-GET-UPDATE-BY-ID-V2-RESPONSES',
  'SCAN-UPDATES-V2-TREE-ROOTS-KNOWN',
  'SCAN-UPDATES-V2-TREE-CHILDREN-KNOWN',
  'SCAN-UPDATES-V2-TREE-ALL-REACHABLE',
  'SCAN-UPDATES-V2-CREATED-EVENT-ID',
  'SCAN-UPDATES-V2-KEYS-SORTED',
  'SCAN-UPDATES-V2-RECORD-TIME-MICROS',
  'SCAN-UPDATES-V2-EXTERNAL-HASH-OMITTED',
];

export const CROSS_CUTTING_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'X.auth',
    heading: 'Authentication',
    sentences: [
      {
        n: 'X.auth.1',
        text: 'Wallet endpoints require `Authorization: Bearer <ACCESS_TOKEN>` (header `Authorization`, type string, required).',
        ids: [
          'WALLET-AUTH-STATUS-REQUIRES-TOKEN',
          'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN',
          'GENERIC-WALLET-GET-TRANSFER-OFFER-STATUS-CREDENTIALS-REQUIRED',
          'GENERIC-WALLET-CREATE-BUY-TRAFFIC-REQUEST-CREDENTIALS-REQUIRED',
        ],
      },
      {
        n: 'X.auth.2',
        text: 'Token format: JWT.',
        ids: ['WALLET-AUTH-STATUS-REQUIRES-TOKEN', 'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN'],
      },
      {
        n: 'X.auth.3',
        text: 'The token subject must be the ledger user of the user whose wallet the endpoint affects.',
        ids: ['WALLET-TRANSFER-STATUS-OTHER-USER-404'],
      },
      {
        n: 'X.auth.4',
        text: 'The `/v0/scan-proxy/dso-party-id` endpoint of the validator interface carries no authorization header in its shape.',
        ids: ['WALLET-DSO-PARTY-ID-NO-AUTH'],
      },
      {
        n: 'X.auth.5',
        text: 'The `POST /v2/updates` endpoint accepts one of two named security schemes: `httpAuth` (HTTP authentication) and `apiKeyAuth` (API key).',
        ids: ['LEDGER-UPDATES-AUTH-REQUIRED', 'LEDGER-UPDATES-READ-RIGHTS', 'GENERIC-LEDGER-GET-UPDATES-CREDENTIALS-REQUIRED'],
      },
      {
        n: 'X.auth.6',
        text: 'Authentication requirement of the scan endpoints: not shown; their request shapes carry no credentials.',
        notCheckable:
          'the description leaves the authentication of scan endpoints open, so neither serving nor refusing a request without credentials breaks it',
      },
    ],
  },
  {
    key: 'X.events',
    heading: 'Events',
    sentences: [
      {
        n: 'X.events.1',
        text: 'The update stream (`POST /v2/updates`) emits update items of four kinds: `OffsetCheckpoint`, `Reassignment`, `TopologyTransaction`, `Transaction`.',
        ids: ['LEDGER-UPDATES-ONE-KIND', 'GENERIC-LEDGER-GET-UPDATES-RESPONSES'],
      },
      {
        n: 'X.events.2',
        text: 'What is emitted is chosen by `updateFormat`: transactions only if `includeTransactions` is set, reassignments only if `includeReassignments`, topology events only if `includeTopologyEvents`.',
        ids: ['LEDGER-UPDATES-REQUESTED-KINDS'],
      },
      {
        n: 'X.events.3',
        text: 'In the ACS delta shape, create and archive events are emitted for contracts where a requesting party is a stakeholder',
        ids: ['LEDGER-UPDATES-ACS-DELTA-EVENT-KINDS', 'LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER'],
      },
      {
        n: 'X.events.4',
        text: 'in the ledger-effects shape, create and exercise events are emitted where a requesting party is a witness.',
        ids: ['LEDGER-UPDATES-LEDGER-EFFECTS-EVENT-KINDS', 'LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS'],
      },
      {
        n: 'X.events.5',
        text: 'Scan history items: a transaction contains a tree of events keyed by event id, with `root_event_ids` and, on exercised events, `child_event_ids`',
        ids: [
          'SCAN-UPDATES-TREE-ROOTS-KNOWN',
          'SCAN-UPDATES-TREE-CHILDREN-KNOWN',
          'SCAN-UPDATES-TREE-ALL-REACHABLE',
          'SCAN-UPDATES-V2-TREE-ROOTS-KNOWN',
          'SCAN-UPDATES-V2-TREE-CHILDREN-KNOWN',
          'SCAN-UPDATES-V2-TREE-ALL-REACHABLE',
          'SCAN-EVENTS-UPDATE-TREE-ROOTS-KNOWN',
          'SCAN-EVENTS-UPDATE-TREE-CHILDREN-KNOWN',
          'SCAN-EVENTS-UPDATE-TREE-ALL-REACHABLE',
        ],
      },
      {
        n: 'X.events.6',
        text: 'event nodes carry `event_type`.',
        ids: ['SCAN-UPDATES-EVENT-TYPES', 'SCAN-UPDATES-V2-EVENT-TYPES', 'SCAN-EVENTS-UPDATE-EVENT-TYPES'],
      },
      {
        n: 'X.events.7',
        text: 'A reassignment item contains an assignment (with its created event) or an unassignment',
        ids: ['SCAN-REASSIGNMENT-RECORDS'],
      },
      {
        n: 'X.events.8',
        text: 'matching pair shares `unassign_id` and `reassignment_counter`.',
        ids: ['SCAN-REASSIGNMENT-PAIR-COUNTER'],
      },
      {
        n: 'X.events.9',
        text: 'A buy-traffic request or transfer offer progresses through contracts created by the wallet automation; status is read by polling the status endpoint.',
        notCheckable:
          'it describes the wallet automation inside the node and how clients learn the outcome; the transfer offer states themselves are judged under States and transitions',
      },
    ],
  },
  {
    key: 'X.errors',
    heading: 'Errors',
    sentences: [
      {
        n: 'X.errors.1',
        text: 'Ledger stream | 400 | Invalid body or invalid `limit` / `stream_idle_timeout_ms`; body is `text/plain`',
        ids: ['LEDGER-UPDATES-INVALID-REQUEST-400', 'LEDGER-UPDATES-400-TEXT-PLAIN'],
      },
      {
        n: 'X.errors.2',
        text: 'Ledger stream | 413 | Number of results exceeds the node list limit (`http-list-max-elements-limit`); use the WebSocket stream',
        ids: ['LEDGER-UPDATES-LIST-LIMIT-413'],
      },
      {
        n: 'X.errors.3',
        text: 'Ledger stream | other | Body JsCantonError (code, cause, correlationId, traceId, context, resources, errorCategory, grpcCodeValue, retryInfo, definiteAnswer)',
        ids: ['LEDGER-UPDATES-ERROR-BODY', 'LEDGER-ANSWERS-PLAIN-TEXT-404', 'LEDGER-ANSWERS-NULL-FOR-ABSENT'],
      },
      {
        n: 'X.errors.4',
        text: 'Wallet buy traffic | 400 | Invalid request, including a party hosted on multiple participants',
        ids: ['WALLET-BUY-TRAFFIC-INVALID-BODY-400', 'WALLET-BUY-TRAFFIC-MULTI-HOSTED-400'],
      },
      {
        n: 'X.errors.5',
        text: 'Wallet buy traffic | 409 | Same tracking id already created',
        ids: ['WALLET-BUY-TRAFFIC-EXACTLY-ONCE', 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL', 'WALLET-BUY-TRAFFIC-CREATED-409'],
      },
      {
        n: 'X.errors.6',
        text: 'Wallet buy traffic | 429 | Same tracking id being processed',
        ids: ['WALLET-BUY-TRAFFIC-IN-FLIGHT-429'],
      },
      {
        n: 'X.errors.7',
        text: 'Wallet buy traffic | 500 | Internal error; retry a few times with exponential back-off',
        notCheckable:
          'an internal error cannot be provoked from outside, and the retry is advice to clients (its body is judged by WALLET-ERROR-BODY-BUY-TRAFFIC when one occurs)',
      },
      {
        n: 'X.errors.8',
        text: 'Wallet transfer status | 404 | No offer with the tracking id is known',
        ids: ['WALLET-TRANSFER-STATUS-UNKNOWN-404'],
      },
      {
        n: 'X.errors.9',
        text: 'Scan (general) | 400 | Bad request',
        ids: ['SCAN-ERRORS-BAD-INPUT-NOT-5XX', 'SCAN-HOLDINGS-EMPTY-OWNERS-400', 'SCAN-BULK-PAGE-SIZE-400', 'SCAN-TRAFFIC-MEMBER-ID-400'],
      },
      {
        n: 'X.errors.10',
        text: 'Scan (general) | 404 | Not found',
        ids: ['SCAN-ERRORS-NOT-FOUND-404'],
      },
      {
        n: 'X.errors.11',
        text: 'Scan (general) | 500 | Internal server error',
        ids: ['SCAN-ERRORS-BAD-INPUT-NOT-5XX'],
      },
      {
        n: 'X.errors.12',
        text: 'Scan bulk updates | 501 | Not implemented',
        ids: ['GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-RESPONSES'],
      },
      {
        n: 'X.errors.13',
        text: 'Wallet and scan error bodies are `{error: string}`.',
        ids: [
          'SCAN-ERRORS-SHAPE',
          'WALLET-ERROR-BODY-STATUS-LOOKUP',
          'WALLET-ERROR-BODY-BUY-TRAFFIC',
          'SCAN-ANSWERS-PLAIN-TEXT-404',
          'WALLET-ANSWERS-PLAIN-TEXT-404',
        ],
      },
    ],
  },
  {
    key: 'X.limits',
    heading: 'Limits',
    sentences: [
      {
        n: 'X.limits.1',
        text: 'Node list limit `http-list-max-elements-limit` | `POST /v2/updates` | Exceeding it returns 413',
        ids: ['LEDGER-UPDATES-LIST-LIMIT-413'],
      },
      {
        n: 'X.limits.2',
        text: '`limit` query parameter | `POST /v2/updates` | Ignored if larger than the server setting',
        ids: ['LEDGER-UPDATES-LIMIT', 'LEDGER-UPDATES-LIST-LIMIT-413'],
      },
      {
        n: 'X.limits.3',
        text: '`stream_idle_timeout_ms` | `POST /v2/updates` | Result is completed and sent after this many ms with no new elements',
        ids: ['LEDGER-UPDATES-IDLE-TIMEOUT-COMPLETES'],
      },
      {
        n: 'X.limits.4',
        text: '`page_size` | bulk history updates | 1 to 1000',
        ids: ['SCAN-BULK-PAGE-SIZE-400', 'GENERIC-SCAN-LIST-BULK-HISTORY-UPDATES-INVALID-INPUT'],
      },
      {
        n: 'X.limits.5',
        text: '`owner_party_ids` | holdings state | at least 1 item',
        ids: [
          'SCAN-HOLDINGS-EMPTY-OWNERS-400',
          'GENERIC-SCAN-GET-HOLDINGS-STATE-V0-INVALID-INPUT',
          'GENERIC-SCAN-GET-HOLDINGS-STATE-V1-INVALID-INPUT',
          'GENERIC-SCAN-GET-HOLDINGS-STATE-V2-INVALID-INPUT',
        ],
      },
      {
        n: 'X.limits.6',
        text: 'Traffic amount | buy traffic | unit is bytes',
        ids: ['WALLET-BUY-TRAFFIC-PURCHASE-CREDITED'],
      },
      {
        n: 'X.limits.7',
        text: '`expires_at` unit is microseconds',
        notCheckable: 'its effect (expiry of the request) shows only through the buy-traffic status endpoint, which the description does not show',
      },
    ],
  },
  {
    key: 'X.versioning',
    heading: 'Versioning',
    sentences: [
      {
        n: 'X.versioning.1',
        text: 'The ledger interface specification is for release line 3.5 (specification version 3.5.14); it makes fields that were marked required but are in fact optional into optional fields, so generated clients may need adjustment, and clients wanting no change can stay on the 3.4 specification.',
        notCheckable:
          "it names the document's release and relaxes fields to optional, which a node may then omit, and advises clients; no answer can break it (the node's line only sets the answer policy, engine/answers/release-policy.ts)",
      },
      {
        n: 'X.versioning.2',
        text: 'most ledger endpoints exist since 3.4 and were changed in 3.5; `/v2/commands/command-completions` exists since 3.5.',
        ids: ['LEDGER-COMMAND-COMPLETIONS-SINCE-3-5'],
      },
      {
        n: 'X.versioning.3',
        text: 'Deprecated in the ledger interface: `/v2/commands/submit-and-wait-for-transaction-tree`, `/v2/commands/completions`, `/v2/package-vetting`, and the `filter` and `verbose` request fields (removal announced for 3.5.0).',
        notCheckable: 'deprecation advises clients; a node may still serve or already refuse what is deprecated, so no answer breaks it',
      },
      {
        n: 'X.versioning.4',
        text: 'Holdings state: v0 is deprecated in favor of v1; v1 is deprecated (since 0.7.5) in favor of `/v2/holdings/state`',
        notCheckable: 'deprecation advises clients; the behaviour the versions share is judged under C.holdings-v1 and C.holdings-v0',
      },
      {
        n: 'X.versioning.5',
        text: '(`/v2/holdings/state`), which differs only in page token type.',
        ids: [
          'SCAN-HOLDINGS-V2-MATCHES-V1',
          'SCAN-HOLDINGS-V2-OF-OWNERS',
          'GENERIC-SCAN-GET-HOLDINGS-STATE-V2-RESPONSES',
          'GENERIC-SCAN-GET-HOLDINGS-STATE-V2-INVALID-INPUT',
        ],
      },
      {
        n: 'X.versioning.6',
        text: '`/v0/updates/{update_id}` is deprecated (since 0.5.10) in favor of `/v2/updates/{update_id}`.',
        ids: [...UPDATES_V2, 'SCAN-UPDATES-V2-BY-ID', 'SCAN-UPDATES-VARIANTS-SAME-UPDATE'],
      },
      {
        n: 'X.versioning.7',
        text: 'The reward-accounting root hash path moved from `/v0/reward-accounting-process/rounds/{round_number}/root-hash` to `/v0/internal/reward-accounting-process/rounds/{round_number}/root-hash` in 0.6.5',
        ids: ['GENERIC-SCAN-GET-REWARD-ACCOUNTING-ROOT-HASH-RESPONSES'],
      },
      {
        n: 'X.versioning.8',
        text: '(the root hash path) is subject to change.',
        notCheckable: 'a statement about future releases, for clients',
      },
      {
        n: 'X.versioning.9',
        text: 'Introduction versions: holdings state v1 in 0.6.0; bulk download in 0.5.16; bulk updates listing in 0.5.18; v1 party participant ids in 0.5.17; previous reward weight in 0.6.9.',
        notCheckable:
          "the described endpoints give no way to read a scan node's version, so which endpoints it must serve cannot be derived (an unserved endpoint is reported unsupported)",
      },
    ],
  },
];
