// Normative sentences of the description (see ../model.ts): the sections that cut across the three interfaces
// (authentication, events, errors, limits, versioning).
import type { SentenceSection } from '../model.ts';

export const CROSS_CUTTING_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'X.auth',
    heading: 'Authentication',
    sentences: [
      {
        n: 'X.auth.1',
        text: 'Wallet endpoints require `Authorization: Bearer <ACCESS_TOKEN>` (header `Authorization`, type string, required).',
      },
      {
        n: 'X.auth.2',
        text: 'Token format: JWT.',
      },
      {
        n: 'X.auth.3',
        text: 'The token subject must be the ledger user of the user whose wallet the endpoint affects.',
      },
      {
        n: 'X.auth.4',
        text: 'The `/v0/scan-proxy/dso-party-id` endpoint of the validator interface carries no authorization header in its shape.',
      },
      {
        n: 'X.auth.5',
        text: 'The `POST /v2/updates` endpoint accepts one of two named security schemes: `httpAuth` (HTTP authentication) and `apiKeyAuth` (API key).',
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
      },
      {
        n: 'X.events.2',
        text: 'What is emitted is chosen by `updateFormat`: transactions only if `includeTransactions` is set, reassignments only if `includeReassignments`, topology events only if `includeTopologyEvents`.',
      },
      {
        n: 'X.events.3',
        text: 'In the ACS delta shape, create and archive events are emitted for contracts where a requesting party is a stakeholder',
      },
      {
        n: 'X.events.4',
        text: 'in the ledger-effects shape, create and exercise events are emitted where a requesting party is a witness.',
      },
      {
        n: 'X.events.5',
        text: 'Scan history items: a transaction contains a tree of events keyed by event id, with `root_event_ids` and, on exercised events, `child_event_ids`',
      },
      {
        n: 'X.events.6',
        text: 'event nodes carry `event_type`.',
      },
      {
        n: 'X.events.7',
        text: 'A reassignment item contains an assignment (with its created event) or an unassignment',
      },
      {
        n: 'X.events.8',
        text: 'matching pair shares `unassign_id` and `reassignment_counter`.',
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
      },
      {
        n: 'X.errors.2',
        text: 'Ledger stream | 413 | Number of results exceeds the node list limit (`http-list-max-elements-limit`); use the WebSocket stream',
      },
      {
        n: 'X.errors.3',
        text: 'Ledger stream | other | Body JsCantonError (code, cause, correlationId, traceId, context, resources, errorCategory, grpcCodeValue, retryInfo, definiteAnswer)',
      },
      {
        n: 'X.errors.4',
        text: 'Wallet buy traffic | 400 | Invalid request, including a party hosted on multiple participants',
      },
      {
        n: 'X.errors.5',
        text: 'Wallet buy traffic | 409 | Same tracking id already created',
      },
      {
        n: 'X.errors.6',
        text: 'Wallet buy traffic | 429 | Same tracking id being processed',
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
      },
      {
        n: 'X.errors.9',
        text: 'Scan (general) | 400 | Bad request',
      },
      {
        n: 'X.errors.10',
        text: 'Scan (general) | 404 | Not found',
      },
      {
        n: 'X.errors.11',
        text: 'Scan (general) | 500 | Internal server error',
      },
      {
        n: 'X.errors.12',
        text: 'Scan bulk updates | 501 | Not implemented',
      },
      {
        n: 'X.errors.13',
        text: 'Wallet and scan error bodies are `{error: string}`.',
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
      },
      {
        n: 'X.limits.2',
        text: '`limit` query parameter | `POST /v2/updates` | Ignored if larger than the server setting',
      },
      {
        n: 'X.limits.3',
        text: '`stream_idle_timeout_ms` | `POST /v2/updates` | Result is completed and sent after this many ms with no new elements',
      },
      {
        n: 'X.limits.4',
        text: '`page_size` | bulk history updates | 1 to 1000',
      },
      {
        n: 'X.limits.5',
        text: '`owner_party_ids` | holdings state | at least 1 item',
      },
      {
        n: 'X.limits.6',
        text: 'Traffic amount | buy traffic | unit is bytes',
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
      },
      {
        n: 'X.versioning.6',
        text: '`/v0/updates/{update_id}` is deprecated (since 0.5.10) in favor of `/v2/updates/{update_id}`.',
      },
      {
        n: 'X.versioning.7',
        text: 'The reward-accounting root hash path moved from `/v0/reward-accounting-process/rounds/{round_number}/root-hash` to `/v0/internal/reward-accounting-process/rounds/{round_number}/root-hash` in 0.6.5',
      },
      {
        n: 'X.versioning.8',
        text: '(the root hash path) is subject to change.',
        notCheckable: 'a statement about future releases, for clients',
      },
      {
        n: 'X.versioning.9',
        text: 'Introduction versions: holdings state v1 in 0.6.0; bulk download in 0.5.16; bulk updates listing in 0.5.18; v1 party participant ids in 0.5.17; previous reward weight in 0.6.9.',
      },
    ],
  },
];
