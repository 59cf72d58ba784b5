// Blind faults, round 1 (ledger-wallet, part 2 of 2): see ledger-wallet-support.ts for what they share.
import { createHash } from 'node:crypto';
import { blindRound } from '../seam.ts';
import {
  obj,
  clone,
  isUpdates,
  isEventsByContractId,
  authOf,
  body,
  withBody,
  json,
  WALLET,
  statusTrackingId,
  isBuyTraffic,
  buyTrackingId,
  errorText,
} from './ledger-wallet-support.ts';

export const ROUND_1_LEDGER_WALLET_2 = blindRound(1, [
  {
    name: 'blind-r1-ledger-unauthenticated-wallet-error-body',
    interface: 'ledger',
    breaks: 'other statuses | JsCantonError',
    // The authentication middleware in front of the stream is the one of the wallet: its 401 body is {error}
    // instead of a JsCantonError.
    cites: ['A.updates.9'],
    rewrite(request, answer) {
      if (!isUpdates(request) || answer.status !== 401) return undefined;
      const cause = obj(answer.body).cause;
      return json(401, { error: typeof cause === 'string' ? cause : 'Unauthorized' });
    },
  }, // ============================================================ ledger: events by contract id
  {
    name: 'blind-r1-ledger-events-by-contract-id-stale-cache',
    interface: 'ledger',
    breaks: 'POST /v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
    // The lookup cache is keyed by the request's event format only (the contract id was left out of the key): a
    // lookup after the first, with the same format by the same user, answers with the events of the earlier contract.
    cites: ['A.overview.19'],
    rewrite(request, answer, memory) {
      if (!isEventsByContractId(request) || answer.status !== 200) return undefined;
      const b = body(request);
      const key = JSON.stringify([authOf(request), b.eventFormat ?? null, b.requestingParties ?? null]);
      const cached = memory.get(key) as { contractId: unknown; body: unknown } | undefined;
      if (!cached) {
        memory.set(key, { contractId: b.contractId, body: clone(answer.body) });
        return undefined;
      }
      return cached.contractId === b.contractId ? undefined : withBody(answer, clone(cached.body));
    },
  },
  {
    name: 'blind-r1-ledger-events-by-contract-id-created-offset',
    interface: 'ledger',
    breaks: 'POST /v2/events/events-by-contract-id: Get the create event and consuming exercise event of a contract',
    // For an archived contract the created event carries the offset of the archiving transaction (taken from the
    // contract's latest event), so it no longer is the create event the update stream shows.
    cites: ['A.overview.19'],
    rewrite(request, answer) {
      if (!isEventsByContractId(request) || answer.status !== 200) return undefined;
      const created = obj(obj(obj(answer.body).created).createdEvent);
      const archivedWrap = obj(obj(answer.body).archived);
      const archived = obj(archivedWrap.archivedEvent ?? archivedWrap.exercisedEvent);
      if (typeof created.offset !== 'number' || typeof archived.offset !== 'number' || created.offset === archived.offset) return undefined;
      const copy = clone(obj(answer.body));
      obj(obj(copy.created).createdEvent).offset = archived.offset;
      return withBody(answer, copy);
    },
  },
  // ============================================================ wallet: transfer offer status
  {
    name: 'blind-r1-wallet-status-unknown-falls-back',
    interface: 'wallet',
    breaks:
      '404 `{error}`: no offer with this tracking id is known (not yet submitted or processed, or submitted before the start of the wallet transaction log).',
    // A miss in the tracking-id lookup falls back to the last offer the user looked up: an unknown tracking id is
    // answered 200 with the status of another offer.
    cites: ['B.transfer-status.4'],
    rewrite(request, answer, memory) {
      const tid = statusTrackingId(request);
      if (tid === undefined) return undefined;
      const key = authOf(request);
      if (answer.status === 200) {
        memory.set(key, { tid, body: clone(answer.body) });
        return undefined;
      }
      const last = memory.get(key) as { tid: string; body: unknown } | undefined;
      if (answer.status !== 404 || !last || last.tid === tid) return undefined;
      return json(200, clone(last.body));
    },
  },
  {
    name: 'blind-r1-wallet-status-other-users-offer',
    interface: 'wallet',
    breaks: 'The token subject must be the ledger user of the user whose wallet the endpoint affects.',
    // Status answers are cached by tracking id across users: a user asking for a tracking id of another user's
    // offer gets that user's offer status instead of 404.
    cites: ['X.auth.3'],
    rewrite(request, answer, memory) {
      const tid = statusTrackingId(request);
      if (tid === undefined) return undefined;
      const auth = authOf(request);
      if (answer.status === 200) {
        memory.set(tid, { auth, body: clone(answer.body) });
        return undefined;
      }
      const cached = memory.get(tid) as { auth: string; body: unknown } | undefined;
      if (answer.status !== 404 || !cached || cached.auth === auth) return undefined;
      return json(200, clone(cached.body));
    },
  },
  {
    name: 'blind-r1-wallet-status-withdrawn-kind-case',
    interface: 'wallet',
    breaks: '`failure_kind` (expired, rejected or withdrawn)',
    // The failure kind is written with the name of the server's enum case: a withdrawn offer reports "Withdrawn".
    cites: ['T.transfer-offer.7'],
    rewrite(request, answer) {
      if (statusTrackingId(request) === undefined || answer.status !== 200) return undefined;
      const b = obj(answer.body);
      if (b.status !== 'failed' || b.failure_kind !== 'withdrawn') return undefined;
      return withBody(answer, { ...b, failure_kind: 'Withdrawn' });
    },
  },
  {
    name: 'blind-r1-wallet-status-accepted-no-contract',
    interface: 'wallet',
    breaks:
      'accepted | Receiver accepted; wallet automation still has to deliver the amount | `status`, `transaction_id` (accepting transaction), `contract_id` (accepted offer)',
    // The accepted state is built from the accepting exercise only: its `contract_id` (the accepted offer) is missing.
    cites: ['T.transfer-offer.3'],
    rewrite(request, answer) {
      if (statusTrackingId(request) === undefined || answer.status !== 200) return undefined;
      const b = obj(answer.body);
      if (b.status !== 'accepted' || !('contract_id' in b)) return undefined;
      const { contract_id: _dropped, ...rest } = b;
      return withBody(answer, rest);
    },
  },
  {
    name: 'blind-r1-wallet-status-404-error-object',
    interface: 'wallet',
    breaks: 'Wallet and scan error bodies are `{error: string}`.',
    // The status endpoint's not-found answer nests its message: {error: {code, message}} instead of a string.
    cites: ['X.errors.13'],
    rewrite(request, answer) {
      if (statusTrackingId(request) === undefined || answer.status !== 404) return undefined;
      return json(404, { error: { code: 'NOT_FOUND', message: errorText(answer) || 'transfer offer not found' } });
    },
  }, // ============================================================ wallet: buy traffic
  {
    name: 'blind-r1-wallet-buy-traffic-duplicate-accepted',
    interface: 'wallet',
    breaks:
      'after a first submission, later calls with the same tracking id are rejected with 409 (request already created) or 429 (currently being processed)',
    // Resubmission is made idempotent: a repeated tracking id is answered 200 with the request contract created the
    // first time, instead of 409.
    cites: ['T.tracking-id.1'],
    rewrite(request, answer, memory) {
      if (!isBuyTraffic(request)) return undefined;
      const tid = buyTrackingId(request);
      if (tid === undefined) return undefined;
      const key = JSON.stringify([authOf(request), tid]);
      if (answer.status === 200) {
        if (!memory.has(key)) memory.set(key, clone(answer.body));
        return undefined;
      }
      const first = memory.get(key);
      if (answer.status !== 409 || first === undefined) return undefined;
      return json(200, clone(first));
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-retry-after-failure-conflict',
    interface: 'wallet',
    breaks:
      'later calls with the same tracking id are rejected with 409 (request already created) or 429 (currently being processed), unless the command failed and no traffic was purchased.',
    // The tracking id is recorded before the command runs: after a submission that failed (nothing created, nothing
    // purchased), a retry with the same tracking id is refused with 409.
    cites: ['T.tracking-id.2'],
    rewrite(request, answer, memory) {
      if (!isBuyTraffic(request)) return undefined;
      const tid = buyTrackingId(request);
      if (tid === undefined) return undefined;
      const key = JSON.stringify([authOf(request), tid]);
      if (answer.status === 400 || answer.status === 500) {
        if (!memory.has(key)) memory.set(key, 'failed');
        return undefined;
      }
      if (answer.status !== 200 || memory.get(key) !== 'failed') return undefined;
      memory.set(key, 'created');
      return json(409, { error: `A buy traffic request with tracking id ${tid} was already created; check its status instead of resubmitting` });
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-multi-hosted-500',
    interface: 'wallet',
    breaks:
      'receiving_validator_party_id: Traffic is bought for the validator hosting this party; if the party is hosted on multiple participants the request fails with 400',
    // The hosting lookup expects a single participant and throws: a party hosted on several participants gives 500.
    cites: ['B.buy-traffic.7'],
    rewrite(request, answer) {
      if (!isBuyTraffic(request) || answer.status !== 400 || !/multiple participants/.test(errorText(answer))) return undefined;
      return json(500, { error: 'Internal error: expected exactly one hosting participant for the receiving validator party' });
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-missing-expiry-accepted',
    interface: 'wallet',
    breaks: 'Body (all required): ... expires_at | int64 | Expiry as unix timestamp in microseconds',
    // expires_at is decoded as optional (no expiry): a body without it creates a request (200) instead of 400.
    cites: ['B.buy-traffic.16'],
    rewrite(request, answer) {
      if (!isBuyTraffic(request) || answer.status !== 400) return undefined;
      const b = body(request);
      if (b.expires_at !== undefined || !/expires_at/.test(errorText(answer))) return undefined;
      for (const f of ['receiving_validator_party_id', 'domain_id', 'tracking_id']) if (typeof b[f] !== 'string') return undefined;
      if (typeof b.traffic_amount !== 'number' || !(b.traffic_amount > 0)) return undefined;
      const digest = createHash('sha256')
        .update(`buy-traffic:${String(b.tracking_id)}`)
        .digest('hex');
      return json(200, { request_contract_id: `00${digest}` });
    },
  },
  {
    name: 'blind-r1-wallet-buy-traffic-201-created',
    interface: 'wallet',
    breaks: 'Responses: 200 `{request_contract_id: string}`',
    // The creation endpoint answers 201 Created (with the same body) instead of 200.
    cites: ['B.buy-traffic.19'],
    rewrite(request, answer) {
      if (!isBuyTraffic(request) || answer.status !== 200) return undefined;
      return { ...answer, status: 201 };
    },
  }, // ============================================================ wallet: dso party id
  {
    name: 'blind-r1-wallet-dso-party-id-camel-case',
    interface: 'wallet',
    breaks: 'GET /v0/scan-proxy/dso-party-id: No parameters. 200 `{dso_party_id: string}`.',
    // The scan-proxy serializer uses camelCase here: {dsoPartyId} instead of {dso_party_id}.
    cites: ['B.dso-party-id.2'],
    rewrite(request, answer) {
      if (request.method !== 'GET' || request.path !== `${WALLET}/v0/scan-proxy/dso-party-id` || answer.status !== 200) return undefined;
      const b = obj(answer.body);
      if (typeof b.dso_party_id !== 'string') return undefined;
      return withBody(answer, { dsoPartyId: b.dso_party_id });
    },
  },
]);
