// Normative sentences of the description (see ../model.ts): filled section by section.
// (The wallet heading has no text of its own before the first endpoint, so there is no "B.intro".)
import type { SentenceSection } from '../model.ts';

export const WALLET_SECTIONS: readonly SentenceSection[] = [
  {
    key: 'B.buy-traffic',
    heading: 'Endpoints > B. Wallet interface > POST /v0/wallet/buy-traffic-requests',
    sentences: [
      { n: 'B.buy-traffic.1', text: 'Creates a request to buy traffic' },
      {
        n: 'B.buy-traffic.2',
        text: '(does not perform the purchase synchronously)',
        notCheckable:
          'whether the purchase happened before the answer cannot be told from outside: fast wallet automation may already show it in a read right after the 200',
      },
      {
        n: 'B.buy-traffic.3',
        text: 'Authorization: wallet user bearer token.',
      },
      { n: 'B.buy-traffic.4', text: 'Body (all required)' },
      { n: 'B.buy-traffic.5', text: '`receiving_validator_party_id` (string, required)' },
      { n: 'B.buy-traffic.6', text: '`receiving_validator_party_id`: Traffic is bought for the validator hosting this party' },
      {
        n: 'B.buy-traffic.7',
        text: '`receiving_validator_party_id`: if the party is hosted on multiple participants the request fails with 400',
      },
      { n: 'B.buy-traffic.8', text: '`domain_id` (string, required)' },
      { n: 'B.buy-traffic.9', text: '`domain_id`: Domain to buy traffic for' },
      { n: 'B.buy-traffic.10', text: '`traffic_amount` (int64, required)' },
      { n: 'B.buy-traffic.11', text: '`traffic_amount`: Bytes to purchase' },
      { n: 'B.buy-traffic.12', text: '`tracking_id` (string, required)' },
      {
        n: 'B.buy-traffic.13',
        text: '`tracking_id`: Exactly-once submission key',
      },
      {
        n: 'B.buy-traffic.14',
        text: '`tracking_id`: a fresh id for each new purchase',
        notCheckable: 'advice to clients on choosing tracking ids; what the node does with a reused id is judged under B.buy-traffic.13',
      },
      {
        n: 'B.buy-traffic.15',
        text: '`tracking_id`: reuse the same id when retrying after a retryable error or a restart',
      },
      { n: 'B.buy-traffic.16', text: '`expires_at` (int64, required)' },
      {
        n: 'B.buy-traffic.17',
        text: '`expires_at`: Expiry as unix timestamp in microseconds',
        notCheckable: "a request's expiry shows only in its state, and the status endpoint and states of buy-traffic requests are not shown",
      },
      {
        n: 'B.buy-traffic.18',
        text: "`expires_at`: compared with the ledger effective time of the accepting or expiring transaction, which can differ from the caller's wall clock",
        notCheckable: 'the comparison happens inside the wallet automation against ledger time; no answer of the interface shows it',
      },
      {
        n: 'B.buy-traffic.19',
        text: 'Responses: 200 `{request_contract_id: string}`',
      },
      {
        n: 'B.buy-traffic.20',
        text: '400 invalid request',
      },
      {
        n: 'B.buy-traffic.21',
        text: '409 a request with the same tracking id was already created (check status)',
      },
      {
        n: 'B.buy-traffic.22',
        text: '429 a request with the same tracking id is being processed',
      },
      {
        n: 'B.buy-traffic.23',
        text: '429 ... (check status, resubmit if the status lookup gives 404)',
        notCheckable: 'the status endpoint for buy-traffic requests is not shown, so the lookup the advice relies on cannot be made',
      },
      {
        n: 'B.buy-traffic.24',
        text: '500 internal error needing operator investigation, retrying a few times with exponential back-off may work',
        notCheckable:
          'an internal fault cannot be provoked from outside, and the retry note is advice to clients (a 500 that comes is judged by the generic response check and B.buy-traffic.25)',
      },
      {
        n: 'B.buy-traffic.25',
        text: 'Error bodies: `{error: string}`.',
      },
    ],
  },
  {
    key: 'B.transfer-status',
    heading: 'Endpoints > B. Wallet interface > POST /v0/wallet/transfer-offers/{tracking_id}/status',
    sentences: [
      {
        n: 'B.transfer-status.1',
        text: 'Path: `tracking_id` string. No body.',
      },
      {
        n: 'B.transfer-status.2',
        text: 'Authorization: wallet user bearer token.',
      },
      {
        n: 'B.transfer-status.3',
        text: '200: the transfer offer status object (see States and transitions).',
      },
      {
        n: 'B.transfer-status.4',
        text: '404 `{error}`: no offer with this tracking id is known (not yet submitted or processed, ...)',
      },
      {
        n: 'B.transfer-status.5',
        text: '404 ...: (... or submitted before the start of the wallet transaction log)',
        notCheckable: "needs an offer older than the wallet's transaction log, which depends on the node's history and cannot be set up through the interface",
      },
    ],
  },
  {
    key: 'B.dso-party-id',
    heading: 'Endpoints > B. Wallet interface > GET /v0/scan-proxy/dso-party-id',
    sentences: [
      {
        n: 'B.dso-party-id.1',
        text: 'No parameters.',
      },
      {
        n: 'B.dso-party-id.2',
        text: '200 `{dso_party_id: string}`.',
      },
    ],
  },
];
