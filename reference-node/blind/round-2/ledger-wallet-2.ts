// Round-2 blind faults of the other ledger endpoints (overview) and of the wallet interface, written from the
// description alone. Each breaks one rule the description states.
import { blindRound } from '../seam.ts';
import { clone, fakeContractId, header, isObject, type Json, json, stableKey, text } from './ledger-wallet-support.ts';

const WALLET = '/api/validator';
const BUY_TRAFFIC = `${WALLET}/v0/wallet/buy-traffic-requests`;
const DSO_PARTY = `${WALLET}/v0/scan-proxy/dso-party-id`;
const STATUS = /^\/api\/validator\/v0\/wallet\/transfer-offers\/([^/]+)\/status$/;

function trackingIdOf(body: unknown): string | undefined {
  return isObject(body) && typeof body.tracking_id === 'string' ? body.tracking_id : undefined;
}

/** A copy of a transfer offer status answer with its record changed, or undefined when it is none. */
function statusRecord(path: string, status: number, body: unknown): Json | undefined {
  return STATUS.test(path) && status === 200 && isObject(body) ? clone(body) : undefined;
}

export const ROUND_2_LEDGER_WALLET_2 = blindRound(2, [
  // ---- ledger: the overview endpoints -----------------------------------------------------------------------------
  {
    // The lookup reads the create event from the contract store and the archive from a stale index: an archived
    // contract comes back as if it were still active, without its consuming exercise.
    name: 'blind-r2-ledger-events-by-contract-id-archive-lost',
    interface: 'ledger',
    breaks: '/v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
    cites: ['A.overview.19'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || request.path !== '/v2/events/events-by-contract-id') return undefined;
      if (answer.status !== 200 || !isObject(answer.body) || answer.body.archived === undefined) return undefined;
      const { archived: _a, ...rest } = answer.body;
      return json(200, clone(rest));
    },
  },
  {
    // The node reports release 3.5 but its router lacks the 3.5 completions route: the HTTP layer answers 404.
    name: 'blind-r2-ledger-command-completions-missing',
    interface: 'ledger',
    breaks: '/v2/commands/command-completions: Since 3.5',
    cites: ['A.overview.16'],
    rewrite(request) {
      if (request.path !== '/v2/commands/command-completions') return undefined;
      return text(404, 'The requested resource could not be found.');
    },
  },
  {
    // The package list is built with an off-by-one loop: the last supported package is never listed.
    name: 'blind-r2-ledger-packages-list-drops-last',
    interface: 'ledger',
    breaks: 'GET /v2/packages: identifiers of all supported packages',
    cites: ['A.overview.28'],
    rewrite(request, answer) {
      if (request.method !== 'GET' || request.path !== '/v2/packages' || answer.status !== 200 || !isObject(answer.body)) return undefined;
      const ids = answer.body.packageIds;
      if (!Array.isArray(ids) || ids.length < 2) return undefined;
      return json(200, { ...clone(answer.body), packageIds: ids.slice(0, -1) });
    },
  },
  {
    // The package download is cached under one key for every package id: after the first download, every package
    // id gets the first package's contents.
    name: 'blind-r2-ledger-package-contents-cached',
    interface: 'ledger',
    breaks: '/v2/packages/{package-id}: Contents of one package',
    cites: ['A.overview.32'],
    rewrite(request, answer, memory) {
      if (request.method !== 'GET' || !/^\/v2\/packages\/[^/]+$/.test(request.path) || answer.status !== 200) return undefined;
      const first = memory.get('first') as { path: string; answer: typeof answer } | undefined;
      if (!first) {
        memory.set('first', { path: request.path, answer: clone(answer) });
        return undefined;
      }
      return first.path === request.path ? undefined : clone(first.answer);
    },
  },
  {
    // The "for transaction" variant falls through to the plain submit-and-wait renderer: it answers the update id
    // and completion offset, not the transaction.
    name: 'blind-r2-ledger-submit-for-transaction-bare',
    interface: 'ledger',
    breaks: '/v2/commands/submit-and-wait-for-transaction: Same, returning the transaction',
    cites: ['A.overview.4'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || request.path !== '/v2/commands/submit-and-wait-for-transaction') return undefined;
      if (answer.status !== 200 || !isObject(answer.body) || !isObject(answer.body.transaction)) return undefined;
      const t = answer.body.transaction;
      return json(200, { updateId: t.updateId, completionOffset: t.offset });
    },
  },
  {
    // A command rejected by the ledger (interpretation or lookup error) is reported as a completed submission
    // with an empty update id instead of propagating the error.
    name: 'blind-r2-ledger-submit-and-wait-error-swallowed',
    interface: 'ledger',
    breaks: 'POST /v2/commands/submit-and-wait ...; failed submissions propagate the gRPC error, including interpretation errors',
    cites: ['A.overview.1'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || request.path !== '/v2/commands/submit-and-wait') return undefined;
      if (answer.status < 400 || !isObject(answer.body) || typeof answer.body.code !== 'string') return undefined;
      return json(200, { updateId: '', completionOffset: 0 });
    },
  },
  {
    // The version route is registered for POST only: a GET is refused as a method not allowed.
    name: 'blind-r2-ledger-version-get-refused',
    interface: 'ledger',
    breaks: 'GET /v2/version',
    cites: ['A.overview.21'],
    rewrite(request) {
      if (request.method !== 'GET' || request.path !== '/v2/version') return undefined;
      return json(405, {
        code: 'METHOD_NOT_ALLOWED',
        cause: 'Method GET is not allowed on /v2/version.',
        context: { participant: 'participant1', category: '8' },
        resources: [],
        errorCategory: 8,
        grpcCodeValue: 12,
        definiteAnswer: false,
      });
    },
  },
  // ---- wallet -----------------------------------------------------------------------------------------------------
  {
    // Retries are made "idempotent": a call with a tracking id already created answers 200 with the first
    // request's contract id instead of 409/429.
    name: 'blind-r2-wallet-buy-traffic-retry-succeeds',
    interface: 'wallet',
    breaks:
      'after a first submission, later calls with the same tracking id are rejected with 409 (request already created) or 429 (currently being processed)',
    cites: ['T.tracking-id.1'],
    rewrite(request, answer, memory) {
      if (request.method !== 'POST' || request.path !== BUY_TRAFFIC) return undefined;
      const id = trackingIdOf(request.body);
      if (id === undefined) return undefined;
      const key = `${header(request, 'authorization') ?? ''}|${id}`;
      if (answer.status === 200) {
        if (!memory.has(key)) memory.set(key, clone(answer.body));
        return undefined;
      }
      if ((answer.status === 409 || answer.status === 429) && memory.has(key)) return json(200, clone(memory.get(key)));
      return undefined;
    },
  },
  {
    // The hosting lookup takes the first participant of a multi-hosted party and creates the request anyway.
    name: 'blind-r2-wallet-buy-traffic-multi-hosted-accepted',
    interface: 'wallet',
    breaks: '`receiving_validator_party_id`: if the party is hosted on multiple participants the request fails with 400',
    cites: ['B.buy-traffic.7'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || request.path !== BUY_TRAFFIC || answer.status !== 400 || !isObject(answer.body)) return undefined;
      if (typeof answer.body.error !== 'string' || !/multiple participants/i.test(answer.body.error)) return undefined;
      return json(200, { request_contract_id: fakeContractId(`buy-traffic:${stableKey(request.body)}`) });
    },
  },
  {
    // Validation failures are rendered by a generic handler: `error` is an object with a message and a code.
    name: 'blind-r2-wallet-buy-traffic-error-object',
    interface: 'wallet',
    breaks: 'Error bodies: `{error: string}`.',
    cites: ['B.buy-traffic.25'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || request.path !== BUY_TRAFFIC || answer.status !== 400 || !isObject(answer.body)) return undefined;
      if (typeof answer.body.error !== 'string') return undefined;
      return json(400, { error: { message: answer.body.error, code: 'INVALID_ARGUMENT' } });
    },
  },
  {
    // A creation answers 201 Created (a REST habit) instead of the documented 200.
    name: 'blind-r2-wallet-buy-traffic-created-201',
    interface: 'wallet',
    breaks: 'Responses: 200 `{request_contract_id: string}`',
    cites: ['B.buy-traffic.19'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || request.path !== BUY_TRAFFIC || answer.status !== 200) return undefined;
      return { ...clone(answer), status: 201 };
    },
  },
  {
    // The scan proxy sits behind the wallet's authentication filter: without a bearer token it answers 401.
    name: 'blind-r2-wallet-dso-party-id-requires-token',
    interface: 'wallet',
    breaks: 'The `/v0/scan-proxy/dso-party-id` endpoint of the validator interface carries no authorization header in its shape.',
    cites: ['X.auth.4'],
    rewrite(request, answer) {
      if (request.method !== 'GET' || request.path !== DSO_PARTY || answer.status !== 200) return undefined;
      if (header(request, 'authorization') !== undefined) return undefined;
      return json(401, { error: 'Unauthorized: missing credentials' });
    },
  },
  {
    // The proxy passes the scan's camel-case field through instead of the documented name.
    name: 'blind-r2-wallet-dso-party-id-camel-case',
    interface: 'wallet',
    breaks: '200 `{dso_party_id: string}`.',
    cites: ['B.dso-party-id.2'],
    rewrite(request, answer) {
      if (request.method !== 'GET' || request.path !== DSO_PARTY || answer.status !== 200 || !isObject(answer.body)) return undefined;
      if (typeof answer.body.dso_party_id !== 'string') return undefined;
      return json(200, { dsoPartyId: answer.body.dso_party_id });
    },
  },
  {
    // The failure kind is rendered from the Daml constructor name (`Expired`, `Rejected`, `Withdrawn`).
    name: 'blind-r2-wallet-transfer-status-failure-kind-capitalized',
    interface: 'wallet',
    breaks: 'failed: response fields `status`, `failure_kind` (expired, rejected or withdrawn), `withdrawn_reason` (optional human-readable text).',
    cites: ['T.transfer-offer.7'],
    rewrite(request, answer) {
      const r = statusRecord(request.path, answer.status, answer.body);
      if (r?.status !== 'failed' || typeof r.failure_kind !== 'string' || r.failure_kind === '') return undefined;
      r.failure_kind = r.failure_kind[0]!.toUpperCase() + r.failure_kind.slice(1);
      return json(200, r);
    },
  },
  {
    // The completed state is rendered with the ledger's name for the transaction field.
    name: 'blind-r2-wallet-transfer-status-completed-update-id',
    interface: 'wallet',
    breaks: 'completed: response fields `status`, `transaction_id`, `contract_id`.',
    cites: ['T.transfer-offer.5'],
    rewrite(request, answer) {
      const r = statusRecord(request.path, answer.status, answer.body);
      if (r?.status !== 'completed' || r.transaction_id === undefined) return undefined;
      const { transaction_id, ...rest } = r;
      return json(200, { ...rest, update_id: transaction_id });
    },
  },
  {
    // Status answers are cached by tracking id alone: once one wallet user's offer was looked up, another user asking
    // for that tracking id gets the first user's offer instead of 404.
    name: 'blind-r2-wallet-transfer-status-cache-ignores-user',
    interface: 'wallet',
    breaks: 'The token subject must be the ledger user of the user whose wallet the endpoint affects.',
    cites: ['X.auth.3'],
    rewrite(request, answer, memory) {
      const m = STATUS.exec(request.path);
      if (request.method !== 'POST' || !m) return undefined;
      const id = m[1]!;
      if (answer.status === 200) {
        if (!memory.has(id)) memory.set(id, clone(answer.body));
        return undefined;
      }
      if (answer.status === 404 && memory.has(id) && header(request, 'authorization') !== undefined) return json(200, clone(memory.get(id)));
      return undefined;
    },
  },
  {
    // The lookup dereferences the missing offer: an unknown tracking id ends in an internal error.
    name: 'blind-r2-wallet-transfer-status-unknown-500',
    interface: 'wallet',
    breaks: '404 `{error}`: no offer with this tracking id is known (not yet submitted or processed, ...)',
    cites: ['B.transfer-status.4'],
    rewrite(request, answer) {
      if (request.method !== 'POST' || !STATUS.test(request.path) || answer.status !== 404) return undefined;
      return json(500, { error: 'Internal error: offer lookup failed (None.get)' });
    },
  },
]);
