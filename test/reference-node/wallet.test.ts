// The reference node's wallet interface (/api/validator): every response conforms to wallet-api.yaml,
// the description's rules hold (auth, exactly-once buy-traffic submission, request expiry, transfer offer
// shapes, ownership), and each wallet fault makes exactly its broken rule observable.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTarget, validRequest, type CompiledSpec } from '../../generators/index.ts';
import { Auth } from '../../reference-node/auth.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { WALLET_FAULTS } from '../../reference-node/wallet/faults.ts';
import { INCORPORATION_DELAY_MICROS, PURCHASE_DELAY_MICROS, WALLET_REQUEST_STEP_MICROS } from '../../reference-node/wallet/ledger-timing.ts';
import { builtinSpec } from '../support/builtin-specs.ts';
import { call, responseProblems, type ObservedResponse } from '../support/response-conformance.ts';

const SEED = 20250301;
const PROCESSING_MS = 60;
const MINUTE = 60_000_000;

type Res = Awaited<ReturnType<typeof call>>;

let node: RunningReferenceNode;
let spec: CompiledSpec;

beforeAll(async () => {
  spec = await builtinSpec('wallet');
  node = await startReferenceNode({ seed: 7, walletProcessingMs: PROCESSING_MS });
});
afterAll(() => node?.close());

// --- helpers ---------------------------------------------------------------------------------------

const tokenOf = (n: RunningReferenceNode, user: 'alice-wallet' | 'bob-wallet') => n.credentials.walletUsers.find((u) => u.user === user)!.token;
const partyByHint = (n: RunningReferenceNode, hint: string) => n.context.world.parties.find((p) => p.hint === hint)!.id;
const baseOf = (n: RunningReferenceNode) => n.urls.ledger;

function buyBody(n: RunningReferenceNode, trackingId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    receiving_validator_party_id: partyByHint(n, 'validator1'),
    domain_id: n.context.world.synchronizers[0]!.id,
    traffic_amount: 2_000_000,
    tracking_id: trackingId,
    expires_at: n.context.clock.now() + 10 * MINUTE,
    ...overrides,
  };
}

function buy(n: RunningReferenceNode, token: string | undefined, body: unknown, raw?: string): Promise<Res> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return call(`${n.urls.validator}/v0/wallet/buy-traffic-requests`, {
    method: 'POST',
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}

function offerStatus(n: RunningReferenceNode, token: string | undefined, trackingId: string, init: RequestInit = {}): Promise<Res> {
  const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) };
  if (token) headers.authorization = `Bearer ${token}`;
  return call(`${n.urls.validator}/v0/wallet/transfer-offers/${encodeURIComponent(trackingId)}/status`, { method: 'POST', ...init, headers });
}

/** The buy-traffic status lookup (not in wallet-api.yaml: the description does not show it; real nodes serve it). */
function buyStatus(n: RunningReferenceNode, token: string, trackingId: string): Promise<Res> {
  const headers = { authorization: `Bearer ${token}` };
  return call(`${n.urls.validator}/v0/wallet/buy-traffic-requests/${encodeURIComponent(trackingId)}/status`, { method: 'POST', headers });
}

const dso = (n: RunningReferenceNode, headers: Record<string, string> = {}) => call(`${n.urls.validator}/v0/scan-proxy/dso-party-id`, { headers });

function conforms(operationId: string, res: ObservedResponse): void {
  expect(responseProblems(spec, operationId, res), `${operationId} ${res.status} ${res.text.slice(0, 200)}`).toEqual([]);
}

/** An error answer of the wallet: this status, JSON, exactly `{error: string}`. */
function expectError(res: Res, status: number): string {
  expect(res.status, res.text).toBe(status);
  expect(res.contentType).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  return body.error as string;
}

const traffic = (n: RunningReferenceNode, memberId: string) => ({ ...n.context.world.memberTraffic.get(memberId)! });
const participantOf = (n: RunningReferenceNode, hint: string) => n.context.world.parties.find((p) => p.hint === hint)!.hostedOn[0]!;

// --- 1. self-test -----------------------------------------------------------------------------------

describe('self-test: every response conforms to wallet-api.yaml', () => {
  it('covers every operation with world data and generated requests', async () => {
    const seen = new Map<string, Set<number>>();
    const judge = (op: string, res: Res) => {
      conforms(op, res);
      if (!seen.has(op)) seen.set(op, new Set());
      seen.get(op)!.add(res.status);
    };
    const alice = tokenOf(node, 'alice-wallet');
    const world = node.context.world;

    // createBuyTrafficRequest from world data: created, duplicate, concurrent duplicate, expired, multi-hosted, bad JSON.
    judge('createBuyTrafficRequest', await buy(node, alice, buyBody(node, 'self-test-1')));
    judge('createBuyTrafficRequest', await buy(node, alice, buyBody(node, 'self-test-1')));
    for (const r of await Promise.all([0, 1].map(() => buy(node, alice, buyBody(node, 'self-test-2'))))) judge('createBuyTrafficRequest', r);
    judge('createBuyTrafficRequest', await buy(node, alice, buyBody(node, 'self-test-3', { expires_at: node.context.clock.now() - 1 })));
    judge('createBuyTrafficRequest', await buy(node, alice, buyBody(node, 'self-test-4', { receiving_validator_party_id: world.multiHostedParty.id })));
    judge('createBuyTrafficRequest', await buy(node, alice, undefined, '{"tracking_id": '));
    // getTransferOfferStatus: every offer (own ones 200, others' 404), an unknown id.
    for (const o of world.transferOffers) judge('getTransferOfferStatus', await offerStatus(node, alice, o.trackingId));
    judge('getTransferOfferStatus', await offerStatus(node, alice, 'no-such-offer'));
    judge('getDsoPartyId', await dso(node));

    // Generated valid requests of every operation, sent as alice.
    for (const op of spec.catalog.operations) {
      for (const req of fc.sample(validRequest(op, spec.validators), { numRuns: 6, seed: SEED })) {
        const headers: Record<string, string> = { ...req.headers, authorization: `Bearer ${alice}` };
        if (req.contentType) headers['content-type'] = req.contentType;
        const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
        judge(op.id, await call(baseOf(node) + requestTarget(op, req), { method: op.method.toUpperCase(), headers, body }));
      }
    }
    expect([...seen.keys()].sort()).toEqual(spec.catalog.operations.map((o) => o.id).sort());
    expect([...seen.get('createBuyTrafficRequest')!].sort()).toEqual([200, 400, 409, 429]);
    expect([...seen.get('getTransferOfferStatus')!].sort()).toEqual([200, 404]);
    expect([...seen.get('getDsoPartyId')!]).toEqual([200]);
  });
});

// --- 2. behaviour ------------------------------------------------------------------------------------

describe("authentication (the spec documents no 401/403 for the wallet; these are the node's choice)", () => {
  it('answers 401 {error} without a token or with a bad, foreign or expired token, on both wallet endpoints', async () => {
    const foreign = await new Auth(99).issue('alice-wallet');
    const expired = await node.context.auth.issue('alice-wallet', { nowSeconds: 1_000_000, expiresInSeconds: 60 });
    for (const token of [undefined, 'not-a-jwt', foreign, expired]) {
      expectError(await buy(node, token, buyBody(node, 'auth-1')), 401);
      expectError(await offerStatus(node, token, 'offer-created-1'), 401);
    }
    // Credentials are judged before the body: a broken body without a token is still 401.
    expectError(await buy(node, undefined, undefined, '{broken'), 401);
  });

  it('answers 403 {error} to a valid token whose subject owns no wallet', async () => {
    for (const token of [node.credentials.ledgerAdminToken, await node.context.auth.issue('mallory')]) {
      expectError(await buy(node, token, buyBody(node, 'auth-2')), 403);
      expectError(await offerStatus(node, token, 'offer-created-1'), 403);
    }
  });

  it('serves the DSO party id without credentials and ignores a token', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer garbage' }, { authorization: `Bearer ${tokenOf(node, 'alice-wallet')}` }]) {
      const res = await dso(node, headers);
      conforms('getDsoPartyId', res);
      expect(res.json()).toEqual({ dso_party_id: node.context.world.dso.id });
    }
  });
});

describe('buy-traffic requests', () => {
  it("creates a request contract (200) with a deterministic id in the world's contract id format", async () => {
    const res = await buy(node, tokenOf(node, 'alice-wallet'), buyBody(node, 'create-1'));
    conforms('createBuyTrafficRequest', res);
    const id = (res.json() as { request_contract_id: string }).request_contract_id;
    expect(id).toMatch(/^00[0-9a-f]{72}$/);
    expect(id).toHaveLength(node.context.world.contractId(0, 0).length);
    const twin = await startReferenceNode({ seed: 7, walletProcessingMs: 1 });
    try {
      const again = await buy(twin, tokenOf(twin, 'alice-wallet'), buyBody(twin, 'create-1'));
      expect((again.json() as { request_contract_id: string }).request_contract_id).toBe(id);
    } finally {
      await twin.close();
    }
  });

  it('is exactly-once per tracking id: 429 while processing, 409 once created, never a second contract', async () => {
    const alice = tokenOf(node, 'alice-wallet');
    const both = await Promise.all([0, 1].map(() => buy(node, alice, buyBody(node, 'once-1'))));
    both.forEach((r) => conforms('createBuyTrafficRequest', r));
    expect(both.map((r) => r.status).sort()).toEqual([200, 429]);
    expect(expectError(both.find((r) => r.status === 429)!, 429)).toMatch(/being processed/);
    for (const overrides of [{}, { traffic_amount: 5 }, { expires_at: node.context.clock.now() + 99 * MINUTE }]) {
      const again = await buy(node, alice, buyBody(node, 'once-1', overrides));
      conforms('createBuyTrafficRequest', again);
      expect(expectError(again, 409)).toMatch(/already created/);
    }
  });

  it("keeps tracking ids per wallet user: bob may use alice's tracking id and gets his own contract", async () => {
    const a = await buy(node, tokenOf(node, 'alice-wallet'), buyBody(node, 'shared-tid'));
    const b = await buy(node, tokenOf(node, 'bob-wallet'), buyBody(node, 'shared-tid'));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.json()).not.toEqual(b.json());
    expect((await buy(node, tokenOf(node, 'bob-wallet'), buyBody(node, 'shared-tid'))).status).toBe(409);
  });

  it('rejects invalid bodies with 400 {error}, leaving the tracking id free', async () => {
    const alice = tokenOf(node, 'alice-wallet');
    const world = node.context.world;
    const tid = 'invalid-1';
    const valid = buyBody(node, tid);
    const without = (field: string) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== field));
    const cases: Array<[string, unknown, string?]> = [
      ['non-JSON text', undefined, '{"tracking_id": "invalid-1",'],
      ['empty body', undefined],
      ['array body', [valid]],
      ['string body', 'buy'],
      ...Object.keys(valid).map((f): [string, unknown] => [`missing ${f}`, without(f)]),
      ['null traffic_amount', { ...valid, traffic_amount: null }],
      ['string traffic_amount', { ...valid, traffic_amount: '2000000' }],
      ['fractional traffic_amount', { ...valid, traffic_amount: 1.5 }],
      ['string expires_at', { ...valid, expires_at: '1740834000123456' }],
      ['fractional expires_at', { ...valid, expires_at: 1740834000123456.5 }],
      ['numeric tracking_id', { ...valid, tracking_id: 42 }],
      ['empty tracking_id', { ...valid, tracking_id: '' }],
      ['numeric party', { ...valid, receiving_validator_party_id: 1 }],
      ['empty domain', { ...valid, domain_id: '' }],
      ['zero traffic_amount', { ...valid, traffic_amount: 0 }],
      ['negative traffic_amount', { ...valid, traffic_amount: -5 }],
      ['unknown party', { ...valid, receiving_validator_party_id: 'nobody::1220abcd' }],
      ['multi-hosted party', { ...valid, receiving_validator_party_id: world.multiHostedParty.id }],
      ['unknown domain', { ...valid, domain_id: 'other-domain::1220abcd' }],
    ];
    for (const [name, body, raw] of cases) {
      const res = await buy(node, alice, body, raw);
      expect(res.status, name).toBe(400);
      expectError(res, 400);
      conforms('createBuyTrafficRequest', res);
    }
    expect(expectError(await buy(node, alice, { ...valid, receiving_validator_party_id: world.multiHostedParty.id }), 400)).toMatch(/multiple participants/);
    expect((await buy(node, alice, valid)).status).toBe(200);
  });

  it('lets a failed command (expired) free the tracking id: 400, then a resubmission with a later expires_at is accepted', async () => {
    const alice = tokenOf(node, 'alice-wallet');
    const now = node.context.clock.now();
    const expired = await buy(node, alice, buyBody(node, 'expired-1', { expires_at: now }));
    conforms('createBuyTrafficRequest', expired);
    expect(expectError(expired, 400)).toMatch(/expire/);
    // While the doomed command is still processing, a duplicate is 429; afterwards the id is free again.
    const pair = await Promise.all([
      buy(node, alice, buyBody(node, 'expired-1', { expires_at: 0 })),
      new Promise((r) => setTimeout(r, PROCESSING_MS / 4)).then(() => buy(node, alice, buyBody(node, 'expired-1'))),
    ]);
    expect(pair.map((r) => r.status)).toEqual([400, 429]);
    const retry = await buy(node, alice, buyBody(node, 'expired-1'));
    conforms('createBuyTrafficRequest', retry);
    expect(retry.status).toBe(200);
    expect((await buy(node, alice, buyBody(node, 'expired-1'))).status).toBe(409);
  });

  it('buys the traffic after a processing delay under the ledger clock; the limit catches up later', async () => {
    const member = participantOf(node, 'validator3');
    node.context.clock.advance(MINUTE); // let earlier purchases settle
    const before = traffic(node, member);
    const res = await buy(
      node,
      tokenOf(node, 'alice-wallet'),
      buyBody(node, 'progress-1', { receiving_validator_party_id: partyByHint(node, 'validator3'), traffic_amount: 777_000 }),
    );
    expect(res.status).toBe(200);
    // Creating the request does not buy anything yet.
    expect(traffic(node, member)).toEqual(before);
    expect((await buyStatus(node, tokenOf(node, 'alice-wallet'), 'progress-1')).json()).toEqual({ status: 'created' });
    node.context.clock.advance(PURCHASE_DELAY_MICROS);
    expect(traffic(node, member)).toEqual({ ...before, totalPurchased: before.totalPurchased + 777_000 });
    expect((await buyStatus(node, tokenOf(node, 'alice-wallet'), 'progress-1')).json()).toMatchObject({ status: 'completed' });
    // Another user has no request with this tracking id; an unknown one is not found.
    expect((await buyStatus(node, tokenOf(node, 'bob-wallet'), 'progress-1')).status).toBe(404);
    expect((await buyStatus(node, tokenOf(node, 'alice-wallet'), 'progress-unknown')).status).toBe(404);
    node.context.clock.advance(INCORPORATION_DELAY_MICROS);
    expect(traffic(node, member)).toEqual({ ...before, totalPurchased: before.totalPurchased + 777_000, totalLimit: before.totalLimit + 777_000 });
  });

  it('lets a request that cannot succeed before expires_at expire without buying traffic', async () => {
    const member = participantOf(node, 'carol');
    node.context.clock.advance(MINUTE);
    const before = traffic(node, member);
    // Created one wallet step from now; the purchase would come after expires_at.
    const expiresAt = node.context.clock.now() + WALLET_REQUEST_STEP_MICROS + PURCHASE_DELAY_MICROS / 2;
    const res = await buy(
      node,
      tokenOf(node, 'alice-wallet'),
      buyBody(node, 'progress-2', { receiving_validator_party_id: partyByHint(node, 'carol'), expires_at: expiresAt }),
    );
    expect(res.status).toBe(200);
    node.context.clock.advance(10 * MINUTE);
    expect(traffic(node, member)).toEqual(before);
    expect((await buyStatus(node, tokenOf(node, 'alice-wallet'), 'progress-2')).json()).toEqual({ status: 'failed', failure_reason: 'expired' });
    expect((await buy(node, tokenOf(node, 'alice-wallet'), buyBody(node, 'progress-2'))).status).toBe(409);
  });

  it('lets every wallet request move the ledger clock by a fixed step', async () => {
    const t0 = node.context.clock.now();
    await offerStatus(node, tokenOf(node, 'alice-wallet'), 'offer-created-1');
    expect(node.context.clock.now()).toBe(t0 + WALLET_REQUEST_STEP_MICROS);
  });
});

describe('transfer offer status', () => {
  const FIELDS: Record<string, string[]> = {
    created: ['contract_id', 'status', 'transaction_id'],
    accepted: ['contract_id', 'status', 'transaction_id'],
    completed: ['contract_id', 'status', 'transaction_id'],
  };

  it('reports every state and failure kind with exactly the fields of that state', async () => {
    const kinds = new Set<string>();
    for (const [user, party] of node.context.world.walletUsers) {
      const token = tokenOf(node, user as 'alice-wallet');
      for (const offer of node.context.world.transferOffers.filter((o) => o.sender === party)) {
        const res = await offerStatus(node, token, offer.trackingId);
        conforms('getTransferOfferStatus', res);
        expect(res.status).toBe(200);
        const body = res.json() as Record<string, unknown>;
        expect(body).toEqual(offer.status);
        const state = body.status as string;
        if (state === 'failed') {
          kinds.add(`failed:${body.failure_kind}`);
          const expected = ['failure_kind', 'status', ...('withdrawn_reason' in offer.status ? ['withdrawn_reason'] : [])].sort();
          expect(Object.keys(body).sort()).toEqual(expected);
        } else {
          kinds.add(state);
          expect(Object.keys(body).sort()).toEqual(FIELDS[state]);
        }
      }
    }
    expect([...kinds].sort()).toEqual(['accepted', 'completed', 'created', 'failed:expired', 'failed:rejected', 'failed:withdrawn']);
  });

  it("answers 404 {error} for an unknown tracking id, another user's offer and a buy-traffic tracking id", async () => {
    const alice = tokenOf(node, 'alice-wallet');
    await buy(node, alice, buyBody(node, 'not-an-offer'));
    for (const id of ['no-such-offer', 'offer-bob-created', 'not-an-offer', 'OFFER-CREATED-1']) {
      const res = await offerStatus(node, alice, id);
      conforms('getTransferOfferStatus', res);
      expect(expectError(res, 404)).toContain(id);
    }
    expectError(await offerStatus(node, tokenOf(node, 'bob-wallet'), 'offer-created-1'), 404);
  });

  it('takes no body: an empty, a JSON or a non-JSON body is ignored', async () => {
    const alice = tokenOf(node, 'alice-wallet');
    for (const init of [
      {},
      { body: '{"x":1}', headers: { 'content-type': 'application/json' } },
      { body: '{oops', headers: { 'content-type': 'application/json' } },
      { body: 'hi', headers: { 'content-type': 'text/plain' } },
    ]) {
      const res = await offerStatus(node, alice, 'offer-accepted-1', init);
      conforms('getTransferOfferStatus', res);
      expect((res.json() as { status: string }).status).toBe('accepted');
    }
  });
});

describe('routing', () => {
  // As real nodes' HTTP layer answers a path no handler serves (facts: errors), before the wallet's {error}.
  it('answers unknown routes and methods under /api/validator with the text/plain 404 of the HTTP layer', async () => {
    for (const [method, path] of [
      ['GET', '/v0/nothing'],
      ['GET', '/v0/wallet/buy-traffic-requests'],
      ['POST', '/v0/scan-proxy/dso-party-id'],
      ['GET', '/v0/wallet/transfer-offers/x/status'],
      ['POST', '/v1/wallet/buy-traffic-requests'],
    ] as const) {
      const res = await call(`${node.urls.validator}${path}`, { method });
      expect([res.status, res.contentType, res.text]).toEqual([404, 'text/plain; charset=UTF-8', 'The requested resource could not be found.']);
    }
  });
});

// --- model-based: exactly-once under submit / resubmit / concurrent / status sequences ------------------

describe('model: exactly-once submission', () => {
  interface Model {
    created: Map<string, string>;
    ids: Set<string>;
  }
  interface Real {
    n: RunningReferenceNode;
    run: number;
  }
  type Cmd = fc.AsyncCommand<Model, Real>;
  const USERS = ['alice-wallet', 'bob-wallet'] as const;
  const key = (u: number, t: number) => `${u}:${t}`;
  const tid = (r: Real, t: number) => `model-${r.run}-${t}`;

  class Submit implements Cmd {
    constructor(
      readonly u: number,
      readonly t: number,
      readonly expired: boolean,
    ) {}
    check = () => true;
    async run(m: Model, r: Real) {
      const exp = this.expired ? r.n.context.clock.now() - 1 : undefined;
      const res = await buy(r.n, tokenOf(r.n, USERS[this.u]!), buyBody(r.n, tid(r, this.t), exp === undefined ? {} : { expires_at: exp }));
      conforms('createBuyTrafficRequest', res);
      if (m.created.has(key(this.u, this.t))) expect(res.status).toBe(409);
      else if (this.expired) expect(expectError(res, 400)).toMatch(/expire/);
      else record(m, this.u, this.t, res);
    }
    toString = () => `submit(${this.u},${this.t}${this.expired ? ',expired' : ''})`;
  }

  class SubmitTwiceAtOnce implements Cmd {
    constructor(
      readonly u: number,
      readonly t: number,
    ) {}
    check = () => true;
    async run(m: Model, r: Real) {
      const pair = await Promise.all([0, 1].map(() => buy(r.n, tokenOf(r.n, USERS[this.u]!), buyBody(r.n, tid(r, this.t)))));
      pair.forEach((p) => conforms('createBuyTrafficRequest', p));
      if (m.created.has(key(this.u, this.t))) return expect(pair.map((p) => p.status)).toEqual([409, 409]);
      expect(pair.map((p) => p.status).sort()).toEqual([200, 429]);
      record(m, this.u, this.t, pair.find((p) => p.status === 200)!);
    }
    toString = () => `submitTwiceAtOnce(${this.u},${this.t})`;
  }

  class Status implements Cmd {
    constructor(
      readonly u: number,
      readonly id: string,
    ) {}
    check = () => true;
    async run(_m: Model, r: Real) {
      const res = await offerStatus(r.n, tokenOf(r.n, USERS[this.u]!), this.id === 'buy' ? tid(r, 0) : this.id);
      conforms('getTransferOfferStatus', res);
      const party = r.n.context.world.walletUsers.get(USERS[this.u]!)!;
      const offer = r.n.context.world.transferOffers.find((o) => o.trackingId === this.id && o.sender === party);
      if (offer) expect(res.json()).toEqual(offer.status);
      else expectError(res, 404);
    }
    toString = () => `status(${this.u},${this.id})`;
  }

  function record(m: Model, u: number, t: number, res: Res) {
    expect(res.status, res.text).toBe(200);
    const id = (res.json() as { request_contract_id: string }).request_contract_id;
    expect(m.ids.has(id)).toBe(false);
    m.ids.add(id);
    m.created.set(key(u, t), id);
  }

  let modelNode: RunningReferenceNode;
  beforeAll(async () => {
    modelNode = await startReferenceNode({ seed: 11, walletProcessingMs: 30 });
  });
  afterAll(() => modelNode?.close());

  it('never answers 200 twice for one tracking id of one user, and frees it only after a failed command', async () => {
    const u = fc.integer({ min: 0, max: 1 });
    const t = fc.integer({ min: 0, max: 1 });
    const offerIds = ['offer-created-1', 'offer-failed-withdrawn', 'offer-bob-created', 'unknown', 'buy'];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.commands<Model, Real, false>(
          [
            fc.tuple(u, t, fc.boolean()).map(([a, b, c]) => new Submit(a, b, c)),
            fc.tuple(u, t).map(([a, b]) => new SubmitTwiceAtOnce(a, b)),
            fc.tuple(u, fc.constantFrom(...offerIds)).map(([a, b]) => new Status(a, b)),
          ],
          { maxCommands: 10 },
        ),
        async (cmds) => {
          run++;
          await fc.asyncModelRun(() => ({ model: { created: new Map<string, string>(), ids: new Set<string>() }, real: { n: modelNode, run } }), cmds);
        },
      ),
      { numRuns: 20, seed: SEED },
    );
  });
});

// --- 3. faults -----------------------------------------------------------------------------------------

/** For each fault: true when its broken rule is visible on node `n` (every call uses fresh tracking ids). */
let probe = 0;
const fresh = (label: string) => `probe-${label}-${++probe}`;
/** How much a completed purchase of `amount` for validator3 raised its participant's total_purchased. */
async function boughtFor(n: RunningReferenceNode, label: string, amount: number): Promise<number> {
  const member = participantOf(n, 'validator3');
  const before = traffic(n, member).totalPurchased;
  const body = buyBody(n, fresh(label), { receiving_validator_party_id: partyByHint(n, 'validator3'), traffic_amount: amount });
  expect((await buy(n, tokenOf(n, 'alice-wallet'), body)).status).toBe(200);
  n.context.clock.advance(PURCHASE_DELAY_MICROS);
  return traffic(n, member).totalPurchased - before;
}

const OBSERVE: Record<string, (n: RunningReferenceNode) => Promise<boolean>> = {
  'wallet-tracking-id-not-exactly-once': async (n) => {
    const id = fresh('once');
    const first = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    const second = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    return first.status === 200 && second.status === 200 && first.text !== second.text;
  },
  'wallet-processing-answered-409': async (n) => {
    const id = fresh('concurrent');
    const pair = await Promise.all([0, 1].map(() => buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id))));
    return pair.some((r) => r.status === 409);
  },
  'wallet-dso-party-id-other': async (n) => ((await dso(n)).json() as { dso_party_id: string }).dso_party_id !== n.context.world.dso.id,
  'wallet-created-answered-429': async (n) => {
    const id = fresh('created');
    const first = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    return first.status === 200 && (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id))).status === 429;
  },
  'wallet-failed-command-blocks-retry': async (n) => {
    const id = fresh('retry');
    await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id, { expires_at: 1 }));
    return (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id))).status === 409;
  },
  'wallet-no-auth-required': async (n) =>
    (await offerStatus(n, undefined, 'offer-created-1')).status === 200 && (await buy(n, undefined, buyBody(n, fresh('noauth')))).status === 200,
  'wallet-multi-hosted-accepted': async (n) =>
    (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, fresh('multi'), { receiving_validator_party_id: n.context.world.multiHostedParty.id }))).status ===
    200,
  'wallet-bad-input-500': async (n) =>
    (await buy(n, tokenOf(n, 'alice-wallet'), { tracking_id: fresh('bad') })).status === 500 &&
    (await buy(n, tokenOf(n, 'alice-wallet'), undefined, '{nope')).status === 500,
  'wallet-transfer-status-missing-field': async (n) => {
    const bodies = await Promise.all(
      ['offer-created-1', 'offer-accepted-1', 'offer-completed-1'].map(async (id) => (await offerStatus(n, tokenOf(n, 'alice-wallet'), id)).json() as object),
    );
    return bodies.every((b) => !('contract_id' in b));
  },
  'wallet-transfer-status-extra-field': async (n) => {
    const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as object;
    return 'transaction_id' in body && 'contract_id' in body;
  },
  'wallet-status-unknown-200': async (n) => (await offerStatus(n, tokenOf(n, 'alice-wallet'), fresh('unknown-offer'))).status === 200,
  'wallet-other-users-offer-visible': async (n) => (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-bob-created')).status === 200,
  'wallet-error-body-shape': async (n) => {
    const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'no-such-offer')).json() as object;
    return !('error' in body) && 'message' in body;
  },
  'wallet-error-message-nested': async (n) => {
    const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'no-such-offer')).json() as { error?: unknown };
    return typeof body.error === 'object' && body.error !== null;
  },
  'wallet-dso-requires-auth': async (n) => (await dso(n)).status === 401,
  'wallet-buy-traffic-created-answered-500': async (n) => {
    // Answered 500, yet the request exists: a resubmission of the tracking id is a duplicate.
    const id = fresh('created-500');
    const first = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    const again = await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, id));
    return first.status === 500 && again.status === 409;
  },
  'wallet-buy-traffic-contract-id-camel-case': async (n) => {
    const body = (await buy(n, tokenOf(n, 'alice-wallet'), buyBody(n, fresh('camel')))).json() as object;
    return 'requestContractId' in body && !('request_contract_id' in body);
  },
  'wallet-status-lookup-no-auth': async (n) =>
    (await offerStatus(n, undefined, 'offer-created-1')).status === 200 && (await buy(n, undefined, buyBody(n, fresh('noauth-buy')))).status === 401,
  'wallet-token-signature-unchecked': async (n) => {
    const [header, payload, signature] = tokenOf(n, 'alice-wallet').split('.');
    return (await offerStatus(n, `${header}.${payload}.${'A'.repeat(signature!.length)}`, 'offer-created-1')).status === 200;
  },
  'wallet-dso-party-id-as-text': async (n) => /^text\/plain/.test((await dso(n)).contentType ?? ''),
  'wallet-transfer-status-as-text': async (n) =>
    /^text\/plain/.test((await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).contentType ?? ''),
  'wallet-traffic-credited-in-kilobytes': async (n) => (await boughtFor(n, 'kilobytes', 777_000)) === 777,
  'wallet-traffic-credited-to-other-participant': async (n) => (await boughtFor(n, 'other', 777_000)) === 0,
  'wallet-failed-offer-revived': async (n) => {
    const first = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as { status?: unknown };
    const again = (await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as { status?: unknown };
    return first.status === 'failed' && again.status !== 'failed';
  },
  'wallet-offer-expired-reported-rejected': async (n) =>
    ((await offerStatus(n, tokenOf(n, 'alice-wallet'), 'offer-failed-expired')).json() as { failure_kind?: unknown }).failure_kind === 'rejected',
  'wallet-offer-created-foreign-transaction': (n) => misreported(n, 'offer-created-1', 'transaction_id'),
  'wallet-offer-accepted-names-offer': (n) => misreported(n, 'offer-accepted-1', 'contract_id'),
  'wallet-offer-completed-sender-change': (n) => misreported(n, 'offer-completed-1', 'contract_id'),
  'wallet-status-of-previous-offer': (n) => misreported(n, 'offer-accepted-1', 'contract_id'),
};

/** Whether the status of the world's offer reports another `field` than the world's record of it. */
async function misreported(n: RunningReferenceNode, trackingId: string, field: string): Promise<boolean> {
  const body = (await offerStatus(n, tokenOf(n, 'alice-wallet'), trackingId)).json() as Record<string, unknown>;
  const offer = n.context.world.transferOffers.find((o) => o.trackingId === trackingId)!;
  return typeof body[field] === 'string' && body[field] !== offer.status[field];
}

describe('faults', () => {
  it('are all declared with a wallet- name, a family and a one-sentence rule, each with a probe here', () => {
    for (const f of WALLET_FAULTS) {
      expect(f.name).toMatch(/^wallet-[a-z0-9-]+$/);
      expect(f.interface).toBe('wallet');
      expect(f.family.length).toBeGreaterThan(0);
      expect(f.breaks).toMatch(/^[A-Z][\s\S]*\.$/);
    }
    expect(Object.keys(OBSERVE).sort()).toEqual(WALLET_FAULTS.map((f) => f.name).sort());
  });

  // Faults whose rule is about the schema itself (a required field dropped, the error key renamed, a status
  // the endpoint does not document) are the only ones allowed to make answers non-conformant.
  const SCHEMA_FAULTS = new Set([
    'wallet-transfer-status-missing-field',
    'wallet-error-body-shape',
    'wallet-error-message-nested',
    'wallet-dso-requires-auth',
    'wallet-buy-traffic-contract-id-camel-case',
    'wallet-dso-party-id-as-text',
    'wallet-transfer-status-as-text',
  ]);

  it.each(WALLET_FAULTS.map((f) => [f.name] as const))('%s: visible with the fault on, not with it off', async (name) => {
    const faulty = await startReferenceNode({ seed: 7, walletProcessingMs: PROCESSING_MS, faults: [name] });
    try {
      expect(await OBSERVE[name]!(faulty)).toBe(true);
      if (!SCHEMA_FAULTS.has(name)) {
        // Everything else the fault does not concern stays conformant.
        conforms('getDsoPartyId', await dso(faulty));
        for (const o of faulty.context.world.transferOffers)
          conforms('getTransferOfferStatus', await offerStatus(faulty, tokenOf(faulty, 'alice-wallet'), o.trackingId));
        conforms('createBuyTrafficRequest', await buy(faulty, tokenOf(faulty, 'alice-wallet'), buyBody(faulty, fresh('conformant'))));
      }
    } finally {
      await faulty.close();
    }
    expect(await OBSERVE[name]!(node)).toBe(false);
  });
});
