// The wallet interface's faults: each one breaks a single rule of the description, so the suite can
// prove it notices that rule being broken.
import type { FaultDefinition } from '../faults.ts';

// detectedBy: the wallet requirements (suites/wallet) that fail on a node with the fault.
const fault = (name: string, family: string, breaks: string, detectedBy: string[]): FaultDefinition => ({ name, interface: 'wallet', family, breaks, detectedBy });

export const WALLET_FAULTS: FaultDefinition[] = [
  fault('wallet-tracking-id-not-exactly-once', 'exactly-once submission',
    'A buy-traffic submission repeating a tracking id is answered 200 with a second request contract instead of 409 or 429.',
    ['WALLET-BUY-TRAFFIC-EXACTLY-ONCE', 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL']),
  fault('wallet-processing-answered-409', 'exactly-once submission',
    'A duplicate arriving while the first submission is still being processed gets 409 instead of 429.',
    ['WALLET-BUY-TRAFFIC-IN-FLIGHT-429']),
  fault('wallet-failed-command-blocks-retry', 'exactly-once submission',
    'After a submission whose command failed without buying traffic, resubmitting its tracking id gets 409 instead of being accepted.',
    ['WALLET-BUY-TRAFFIC-RETRY-AFTER-FAILED-COMMAND', 'WALLET-BUY-TRAFFIC-EXACTLY-ONCE-MODEL']),
  fault('wallet-no-auth-required', 'authentication',
    'Wallet endpoints accept requests that carry no bearer token (acting for the first wallet user).',
    ['WALLET-AUTH-STATUS-REQUIRES-TOKEN', 'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN']),
  fault('wallet-multi-hosted-accepted', 'buy-traffic validation',
    'A buy-traffic request for a party hosted on several participants is accepted instead of answered 400.',
    ['WALLET-BUY-TRAFFIC-MULTI-HOSTED-400']),
  fault('wallet-bad-input-500', 'buy-traffic validation',
    'Invalid buy-traffic bodies are answered 500 (internal error) instead of 400.',
    // A party hosted on several participants is invalid input too, so it is answered 500 as well.
    ['WALLET-BUY-TRAFFIC-INVALID-BODY-400', 'WALLET-BUY-TRAFFIC-MULTI-HOSTED-400']),
  fault('wallet-transfer-status-missing-field', 'transfer offer states',
    'A created, accepted or completed transfer offer status is reported without its contract_id.',
    ['WALLET-TRANSFER-STATUS-ACTIVE-SHAPE']),
  fault('wallet-transfer-status-extra-field', 'transfer offer states',
    'A failed transfer offer status carries transaction_id and contract_id, which that state does not have.',
    ['WALLET-TRANSFER-STATUS-FAILED-SHAPE']),
  fault('wallet-status-unknown-200', 'transfer offer lookup',
    'A status lookup for a tracking id no offer was submitted with is answered 200 with an invented status instead of 404.',
    ['WALLET-TRANSFER-STATUS-UNKNOWN-404']),
  fault('wallet-other-users-offer-visible', 'transfer offer lookup',
    "A status lookup answers 200 with another wallet user's transfer offer instead of 404.",
    ['WALLET-TRANSFER-STATUS-OTHER-USER-404']),
  fault('wallet-error-body-shape', 'error shape',
    'Wallet error bodies are {message: string} instead of {error: string}.',
    ['WALLET-ERROR-BODY-STATUS-LOOKUP', 'WALLET-ERROR-BODY-BUY-TRAFFIC']),
  fault('wallet-dso-requires-auth', 'authentication',
    'GET /v0/scan-proxy/dso-party-id, which carries no credentials, is rejected with 401 when no token is sent.',
    ['WALLET-DSO-PARTY-ID-NO-AUTH']),
  // 500 is a documented answer of the operation, and after a 5xx a client cannot tell whether the request
  // exists, so only the rule that a valid request is answered 200 with its contract id notices.
  fault('wallet-buy-traffic-created-answered-500', 'buy-traffic submission',
    'A valid buy-traffic request with a fresh tracking id creates the request contract but is answered 500 instead of 200 with its request_contract_id.',
    ['WALLET-BUY-TRAFFIC-CREATE']),
  // Second faults of their families: another way a real node breaks the same rule.
  fault('wallet-buy-traffic-contract-id-camel-case', 'buy-traffic submission',
    'A created buy-traffic request is answered 200 with requestContractId instead of the documented request_contract_id.',
    ['WALLET-BUY-TRAFFIC-CREATE']),
  fault('wallet-not-found-plain-text', 'error shape',
    'Not-found answers carry a plain-text body ("Not Found: ...") instead of {error: string}.',
    // text/plain is no documented content type of the lookup's 404 either.
    ['WALLET-ERROR-BODY-STATUS-LOOKUP', 'GENERIC-WALLET-GET-TRANSFER-OFFER-STATUS-RESPONSES']),
  fault('wallet-status-lookup-no-auth', 'authentication',
    'The transfer offer status lookup serves requests without a bearer token (as the first wallet user); buy-traffic still requires one.',
    ['WALLET-AUTH-STATUS-REQUIRES-TOKEN', 'GENERIC-WALLET-GET-TRANSFER-OFFER-STATUS-CREDENTIALS-REQUIRED']),
  fault('wallet-token-signature-unchecked', 'authentication',
    'Bearer tokens are decoded without verifying their signature, so the configured token with a forged signature is accepted.',
    ['WALLET-AUTH-STATUS-REQUIRES-TOKEN', 'WALLET-AUTH-BUY-TRAFFIC-REQUIRES-TOKEN']),
  // Visible to the checks derived from the document only: the body is right, its label is not.
  fault('wallet-dso-party-id-as-text', 'documented answers',
    'GET /v0/scan-proxy/dso-party-id sends its JSON serialized by hand, labelled text/plain instead of application/json.',
    ['GENERIC-WALLET-GET-DSO-PARTY-ID-RESPONSES']),
];
