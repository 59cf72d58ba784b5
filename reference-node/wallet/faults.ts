// Faults of the wallet interface: each one breaks a single rule of the description, so the suite can
// prove it notices that rule being broken. Code switches them with `ctx.faults.has('wallet-...')`.
import { declareFaults } from '../fault-definition.ts';

export const WALLET_FAULTS = declareFaults('wallet', {
  'wallet-tracking-id-not-exactly-once': {
    family: 'exactly-once submission',
    breaks: 'A buy-traffic submission repeating a tracking id is answered 200 with a second request contract instead of 409 or 429.',
    cites: ['T.tracking-id.1'],
    rules: ['WALLET-BUY-TRAFFIC-EXACTLY-ONCE', 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL', 'WALLET-BUY-TRAFFIC-CREATED-409'],
  },
  'wallet-processing-answered-409': {
    family: 'exactly-once submission',
    breaks: 'A duplicate arriving while the first submission is still being processed gets 409 instead of 429.',
    cites: ['B.buy-traffic.22', 'X.errors.6'],
    rules: ['WALLET-BUY-TRAFFIC-IN-FLIGHT-429'],
    node: { walletProcessingMs: 1000 },
  },
  'wallet-failed-command-blocks-retry': {
    family: 'exactly-once submission',
    breaks: 'After a submission whose command failed without buying traffic, resubmitting its tracking id gets 409 instead of being accepted.',
    cites: ['T.tracking-id.2'],
    rules: ['WALLET-BUY-TRAFFIC-RETRY-AFTER-FAILED-COMMAND', 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL'],
  },
  'wallet-no-auth-required': {
    family: 'authentication',
    breaks: 'Wallet endpoints accept requests that carry no bearer token (acting for the first wallet user).',
    cites: ['X.auth.1'],
    rules: ['WALLET-AUTH-STATUS-REQUIRES-TOKEN', 'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN'],
    generic: { checks: ['credentials-required'] },
  },
  'wallet-multi-hosted-accepted': {
    family: 'buy-traffic validation',
    breaks: 'A buy-traffic request for a party hosted on several participants is accepted instead of answered 400.',
    cites: ['B.buy-traffic.7', 'X.errors.4'],
    rules: ['WALLET-BUY-TRAFFIC-MULTI-HOSTED-400'],
  },
  // A party hosted on several participants is invalid input too, so it is answered 500 as well.
  'wallet-bad-input-500': {
    family: 'buy-traffic validation',
    breaks: 'Invalid buy-traffic bodies are answered 500 (internal error) instead of 400.',
    cites: ['B.buy-traffic.20', 'X.errors.4'],
    rules: ['WALLET-BUY-TRAFFIC-INVALID-BODY-400', 'WALLET-BUY-TRAFFIC-MULTI-HOSTED-400'],
    generic: { operations: ['createBuyTrafficRequest'], checks: ['invalid-input'] },
  },
  'wallet-transfer-status-missing-field': {
    family: 'transfer offer states',
    breaks: 'A created, accepted or completed transfer offer status is reported without its contract_id.',
    cites: ['T.transfer-offer.1', 'T.transfer-offer.3', 'T.transfer-offer.5'],
    rules: ['WALLET-TRANSFER-STATUS-ACTIVE-SHAPE', 'WALLET-TRANSFER-STATUS-KNOWN-OFFER'],
    generic: { operations: ['getTransferOfferStatus'], checks: ['responses'] },
  },
  'wallet-transfer-status-extra-field': {
    family: 'transfer offer states',
    breaks: 'A failed transfer offer status carries transaction_id and contract_id, which that state does not have.',
    cites: ['T.transfer-offer.7'],
    rules: ['WALLET-TRANSFER-STATUS-FAILED-SHAPE'],
  },
  'wallet-status-unknown-200': {
    family: 'transfer offer lookup',
    breaks: 'A status lookup for a tracking id no offer was submitted with is answered 200 with an invented status instead of 404.',
    cites: ['B.transfer-status.4', 'X.errors.8'],
    rules: ['WALLET-TRANSFER-STATUS-UNKNOWN-404'],
  },
  'wallet-other-users-offer-visible': {
    family: 'transfer offer lookup',
    breaks: "A status lookup answers 200 with another wallet user's transfer offer instead of 404.",
    cites: ['X.auth.3'],
    rules: ['WALLET-TRANSFER-STATUS-OTHER-USER-404'],
  },
  'wallet-error-body-shape': {
    family: 'error shape',
    breaks: 'Wallet error bodies are {message: string} instead of {error: string}.',
    cites: ['X.errors.13', 'B.buy-traffic.25'],
    rules: ['WALLET-ERROR-BODY-STATUS-LOOKUP', 'WALLET-ERROR-BODY-BUY-TRAFFIC'],
    generic: {},
  },
  'wallet-error-message-nested': {
    family: 'error shape',
    breaks: 'Wallet error bodies nest the message, {error: {message}}, instead of {error: string}.',
    cites: ['X.errors.13', 'B.buy-traffic.25'],
    rules: ['WALLET-ERROR-BODY-STATUS-LOOKUP', 'WALLET-ERROR-BODY-BUY-TRAFFIC'],
    generic: {},
  },
  'wallet-dso-requires-auth': {
    family: 'scan proxy',
    breaks: 'GET /v0/scan-proxy/dso-party-id, which carries no credentials, is rejected with 401 when no token is sent.',
    cites: ['X.auth.4'],
    rules: ['WALLET-DSO-PARTY-ID-NO-AUTH'],
  },
  // 500 is a documented answer of the operation, and after a 5xx a client cannot tell whether the request
  // exists, so only the rule that a valid request is answered 200 with its contract id notices.
  'wallet-buy-traffic-created-answered-500': {
    family: 'buy-traffic submission',
    breaks:
      'A valid buy-traffic request with a fresh tracking id creates the request contract but is answered 500 instead of 200 with its request_contract_id.',
    cites: ['B.buy-traffic.19'],
    rules: ['WALLET-BUY-TRAFFIC-CREATE'],
  },
  // Second faults of their families: another way a real node breaks the same rule.
  'wallet-buy-traffic-contract-id-camel-case': {
    family: 'buy-traffic submission',
    breaks: 'A created buy-traffic request is answered 200 with requestContractId instead of the documented request_contract_id.',
    cites: ['B.buy-traffic.19'],
    rules: ['WALLET-BUY-TRAFFIC-CREATE'],
    // The answers the rules' checks receive break the schema too (every answer is judged).
    generic: { operations: ['createBuyTrafficRequest'], checks: ['responses'] },
  },
  'wallet-status-lookup-no-auth': {
    family: 'authentication',
    breaks: 'The transfer offer status lookup serves requests without a bearer token (as the first wallet user); buy-traffic still requires one.',
    cites: ['B.transfer-status.2'],
    rules: ['WALLET-AUTH-STATUS-REQUIRES-TOKEN'],
    generic: { operations: ['getTransferOfferStatus'], checks: ['credentials-required'] },
  },
  'wallet-token-signature-unchecked': {
    family: 'authentication',
    breaks: 'Bearer tokens are decoded without verifying their signature, so the configured token with a forged signature is accepted.',
    cites: ['X.auth.1'],
    rules: ['WALLET-AUTH-STATUS-REQUIRES-TOKEN', 'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN'],
  },
  // The body is right, its label is not: the document-derived checks and the positive request, whose answer is judged against the document.
  'wallet-dso-party-id-as-text': {
    family: 'documented answers',
    breaks: 'GET /v0/scan-proxy/dso-party-id sends its JSON serialized by hand, labelled text/plain instead of application/json.',
    cites: ['B.dso-party-id.2'],
    rules: ['WALLET-DSO-PARTY-ID-NO-AUTH'],
    generic: { operations: ['getDsoPartyId'], checks: ['responses'] },
  },
  'wallet-transfer-status-as-text': {
    family: 'documented answers',
    breaks: 'The transfer-offer status endpoint sends its JSON serialized by hand, labelled text/plain instead of application/json.',
    cites: ['B.transfer-status.3'],
    rules: ['WALLET-TRANSFER-STATUS-KNOWN-OFFER'],
    generic: { operations: ['getTransferOfferStatus'], checks: ['responses'] },
  },
  'wallet-failed-offer-revived': {
    family: 'transfer offer states',
    breaks: 'A failed transfer offer is reported failed on its first status lookup and created (with a transaction and contract id) on every later one.',
    cites: ['T.transfer-offer.8'],
    rules: ['WALLET-TRANSFER-STATUS-FAILED-PERMANENT'],
  },
  'wallet-created-answered-429': {
    family: 'exactly-once submission',
    breaks: 'A resubmitted tracking id whose request was already created (answered 200) is answered 429 (being processed) instead of 409.',
    cites: ['B.buy-traffic.21', 'X.errors.5'],
    rules: ['WALLET-BUY-TRAFFIC-CREATED-409'],
  },
  // A completed purchase must show in scan's traffic status of the hosting participant, in bytes.
  'wallet-traffic-credited-in-kilobytes': {
    family: 'purchase outcome',
    breaks:
      "A completed buy-traffic request raises the hosting participant's purchased traffic by traffic_amount / 1000 (kilobytes) instead of traffic_amount bytes.",
    cites: ['B.buy-traffic.11', 'X.limits.6'],
    rules: ['WALLET-BUY-TRAFFIC-PURCHASE-CREDITED'],
  },
  'wallet-traffic-credited-to-other-participant': {
    family: 'purchase outcome',
    breaks:
      "A completed buy-traffic request raises another participant's purchased traffic instead of that of the participant hosting receiving_validator_party_id.",
    cites: ['B.buy-traffic.6'],
    rules: ['WALLET-BUY-TRAFFIC-PURCHASE-CREDITED'],
  },
  'wallet-offer-created-foreign-transaction': {
    family: 'transfer offer states',
    breaks:
      "A created transfer offer's status names as transaction_id another ledger update of the sender (the creation of another offer), not the transaction that created this offer.",
    cites: ['T.transfer-offer.2'],
    rules: ['WALLET-TRANSFER-CREATED-ON-LEDGER'],
  },
  'wallet-offer-accepted-names-offer': {
    family: 'transfer offer states',
    breaks:
      "An accepted transfer offer's status names as contract_id the offer the acceptance consumed, not the accepted offer the accepting transaction created.",
    cites: ['T.transfer-offer.4'],
    rules: ['WALLET-TRANSFER-ACCEPTED-ON-LEDGER'],
  },
  'wallet-offer-completed-sender-change': {
    family: 'transfer offer states',
    breaks: "A completed transfer offer's status names as contract_id the sender's change holding the transfer created, not the receiver's holding.",
    cites: ['T.transfer-offer.6'],
    rules: ['WALLET-TRANSFER-COMPLETED-ON-LEDGER'],
  },
  'wallet-dso-party-id-other': {
    family: 'scan proxy',
    breaks: "GET /v0/scan-proxy/dso-party-id names another party (the first SV's) than the DSO party of the network's scan.",
    cites: ['B.dso-party-id.2'],
    rules: ['WALLET-DSO-PARTY-ID-IS-SCANS'],
  },
  'wallet-offer-expired-reported-rejected': {
    family: 'transfer offer states',
    breaks: 'A transfer offer that expired (its offer archived by the expiry choice) is reported failed with failure_kind rejected.',
    cites: ['T.transfer-offer.10'],
    rules: ['WALLET-TRANSFER-FAILED-KIND-ON-LEDGER'],
  },
  // Effects of positive requirements.
  'wallet-status-of-previous-offer': {
    family: 'transfer offer lookup',
    breaks: "The status of a transfer offer in an active state is the status of the user's offer before it (where that one is active too).",
    cites: ['T.transfer-offer.2'],
    rules: ['WALLET-TRANSFER-CREATED-ON-LEDGER', 'WALLET-TRANSFER-ACCEPTED-ON-LEDGER'],
  },
} as const);

export type WalletFaultName = (typeof WALLET_FAULTS)[number]['name'];
