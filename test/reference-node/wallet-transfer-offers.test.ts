// The wallet's transfer offers through the interface: created with POST, listed with GET while open (to
// sender and receiver), accepted (then completed), rejected, withdrawn or expired, each step on the ledger
// stream; exactly one offer per sender and tracking id; invalid bodies refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../common/json.ts';
import { OFFER_COMPLETION_DELAY_MICROS } from '../../reference-node/wallet/ledger-timing.ts';
import { injectedNode, type InjectedNode } from '../support/injected-node.ts';

const MINUTE = 60_000_000;
const BASE = '/api/validator/v0/wallet/transfer-offers';

let ctx: InjectedNode['ctx'];
let app: InjectedNode['app'];
let creds: InjectedNode['creds'];

beforeAll(async () => {
  ({ ctx, app, creds } = await injectedNode({ seed: 5 }));
});
afterAll(() => app?.close());

const user = (name: 'alice-wallet' | 'bob-wallet') => creds.walletUsers.find((u) => u.user === name)!;

async function send(method: 'GET' | 'POST', url: string, token: string | undefined, payload?: unknown): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return { status: res.statusCode, body: res.json() };
}

const offer = (trackingId: string, overrides: Record<string, unknown> = {}) => ({
  receiver_party_id: user('bob-wallet').party,
  amount: '12.5',
  description: 'Dinner',
  expires_at: ctx.clock.now() + 10 * MINUTE,
  tracking_id: trackingId,
  ...overrides,
});
const create = (token: string, body: unknown) => send('POST', BASE, token, body);
const list = async (token: string) => ((await send('GET', BASE, token)).body.offers as Json[]).map((c) => c.payload.trackingId as string);
const status = async (token: string, trackingId: string) => (await send('POST', `${BASE}/${trackingId}/status`, token)).body;

describe('creating, listing and expiring an offer', () => {
  it('is created, listed to sender and receiver while open, and expires with the ledger clock', async () => {
    const [alice, bob] = [user('alice-wallet'), user('bob-wallet')];
    const created = await create(alice.token, offer('dinner-1'));
    expect(created.status).toBe(200);
    const contractId = created.body.offer_contract_id as string;
    expect(Object.keys(created.body)).toEqual(['offer_contract_id']);

    const [listed] = ((await send('GET', BASE, bob.token)).body.offers as Json[]).filter((c) => c.payload.trackingId === 'dinner-1');
    expect(listed).toMatchObject({
      template_id: `${ctx.world.walletPackage}:Splice.Wallet.TransferOffer:TransferOffer`,
      contract_id: contractId,
      payload: {
        sender: alice.party,
        receiver: bob.party,
        dso: ctx.world.dso.id,
        amount: { amount: '12.5000000000', unit: 'AmuletUnit' },
        description: 'Dinner',
      },
      created_event_blob: expect.any(String),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await list(alice.token)).toContain('dinner-1');
    expect(await status(alice.token, 'dinner-1')).toEqual({
      status: 'created',
      transaction_id: expect.stringMatching(/^1220[0-9a-f]{64}$/),
      contract_id: contractId,
    });

    ctx.clock.advance(10 * MINUTE);
    expect(await status(alice.token, 'dinner-1')).toEqual({ status: 'failed', failure_kind: 'expired' });
    expect(await list(alice.token)).not.toContain('dinner-1');
    expect(await list(bob.token)).not.toContain('dinner-1');
  });

  it("lists the world's open offers of the caller only: created ones it sends or receives", async () => {
    const alice = user('alice-wallet');
    const open = ctx.world.transferOffers.filter((o) => o.status.status === 'created');
    const mine = open.filter((o) => o.sender === alice.party || o.receiver === alice.party).map((o) => o.trackingId);
    expect(mine.length).toBeGreaterThan(0);
    const listed = await list(alice.token);
    expect(listed.filter((id) => ctx.world.transferOffers.some((o) => o.trackingId === id))).toEqual(mine);
    // The status of an offer is its sender's: the receiver's wallet answers 404.
    await create(user('bob-wallet').token, offer('to-alice', { receiver_party_id: alice.party }));
    expect(await list(alice.token)).toContain('to-alice');
    expect((await send('POST', `${BASE}/to-alice/status`, alice.token)).status).toBe(404);
  });

  it('takes a tracking id once per sender (409, also for an offer of the world), other senders may reuse it', async () => {
    const [alice, bob] = [user('alice-wallet'), user('bob-wallet')];
    expect((await create(alice.token, offer('once'))).status).toBe(200);
    const again = await create(alice.token, offer('once', { amount: '1' }));
    expect(again.status).toBe(409);
    expect(Object.keys(again.body)).toEqual(['error']);
    const worldOffer = ctx.world.transferOffers.find((o) => o.sender === alice.party)!.trackingId;
    expect((await create(alice.token, offer(worldOffer))).status).toBe(409);
    expect((await create(bob.token, offer('once', { receiver_party_id: alice.party }))).status).toBe(200);
  });

  it('refuses invalid bodies with 400 {error}, leaving the tracking id free; an offer to oneself is accepted', async () => {
    const alice = user('alice-wallet');
    const { receiver_party_id: _, ...noReceiver } = offer('bad-1');
    const invalid: unknown[] = [
      noReceiver,
      offer('bad-1', { amount: '-1' }),
      offer('bad-1', { amount: '0' }),
      offer('bad-1', { amount: '1.00000000001' }),
      offer('bad-1', { amount: 12 }),
      offer('bad-1', { expires_at: '2030-01-01T00:00:00Z' }),
      offer('bad-1', { expires_at: ctx.clock.now() }),
      offer('bad-1', { receiver_party_id: 'nobody::1220ab' }),
      offer('bad-1', { tracking_id: '' }),
      offer('bad-1', { description: 'x'.repeat(280) }),
      [],
    ];
    for (const body of invalid) {
      const res = await create(alice.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(res.body)).toEqual(['error']);
    }
    expect((await create(alice.token, offer('bad-1', { receiver_party_id: alice.party }))).status).toBe(200);
  });

  it('needs a wallet user: 401 without a token, 403 for a user without a wallet', async () => {
    for (const [method, payload] of [['GET', undefined] as const, ['POST', offer('auth-1')] as const]) {
      expect((await send(method, BASE, undefined, payload)).status).toBe(401);
      expect((await send(method, BASE, creds.ledgerAdminToken, payload)).status).toBe(403);
    }
  });
});

// The offer's life after creation, through the wallet's own interface, each step seen on the ledger stream.
describe("a created offer's life", () => {
  const act = (token: string, contractId: string, action: 'accept' | 'reject' | 'withdraw') =>
    app.inject({ method: 'POST', url: `${BASE}/${contractId}/${action}`, headers: { authorization: `Bearer ${token}` } });
  const ledgerEnd = async () =>
    (await app.inject({ method: 'GET', url: '/v2/state/ledger-end', headers: { authorization: `Bearer ${creds.ledgerAdminToken}` } })).json().offset as number;
  /** The transactions after `begin` as the sender and receiver see them, each event as `kind name contract`. */
  async function ledgerSince(begin: number): Promise<Array<{ updateId: string; events: string[] }>> {
    const filtersByParty = Object.fromEntries([user('alice-wallet').party, user('bob-wallet').party].map((p) => [p, {}]));
    const res = await app.inject({
      method: 'POST',
      url: '/v2/updates?stream_idle_timeout_ms=1',
      headers: { authorization: `Bearer ${creds.ledgerAdminToken}` },
      payload: {
        beginExclusive: begin,
        updateFormat: { includeTransactions: { eventFormat: { filtersByParty, verbose: true }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
      },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as Json[]).map((el) => {
      const tx = el.update.Transaction.value;
      const events = (tx.events as Json[]).map((e) =>
        e.CreatedEvent
          ? `created ${String(e.CreatedEvent.templateId).split(':').pop()} ${e.CreatedEvent.contractId}`
          : `exercised ${e.ExercisedEvent.choice} ${e.ExercisedEvent.contractId}`,
      );
      return { updateId: tx.updateId as string, events };
    });
  }
  const opened = async (trackingId: string, overrides: Record<string, unknown> = {}) => {
    const res = await create(user('alice-wallet').token, offer(trackingId, overrides));
    expect(res.status).toBe(200);
    return res.body.offer_contract_id as string;
  };

  it('accepted by the receiver, then completed by the automation with the receiver’s holding', async () => {
    const [alice, bob] = [user('alice-wallet'), user('bob-wallet')];
    const begin = await ledgerEnd();
    const offerId = await opened('life-accept');
    const created = await status(alice.token, 'life-accept');
    // Only the receiver accepts.
    expect((await act(alice.token, offerId, 'accept')).statusCode).toBe(404);
    const res = await act(bob.token, offerId, 'accept');
    expect(res.statusCode).toBe(200);
    const acceptedId = res.json().accepted_offer_contract_id as string;
    const accepted = await status(alice.token, 'life-accept');
    expect(accepted).toEqual({ status: 'accepted', transaction_id: expect.any(String), contract_id: acceptedId });
    expect(await list(bob.token)).not.toContain('life-accept');
    expect((await act(bob.token, offerId, 'accept')).statusCode).toBe(404);

    ctx.clock.advance(OFFER_COMPLETION_DELAY_MICROS);
    const completed = await status(alice.token, 'life-accept');
    expect(completed).toEqual({ status: 'completed', transaction_id: expect.any(String), contract_id: expect.any(String) });
    expect(await ledgerSince(begin)).toEqual([
      { updateId: created.transaction_id, events: [`created TransferOffer ${offerId}`] },
      { updateId: accepted.transaction_id, events: [`exercised TransferOffer_Accept ${offerId}`, `created AcceptedTransferOffer ${acceptedId}`] },
      {
        updateId: completed.transaction_id,
        events: [
          `exercised AcceptedTransferOffer_Complete ${acceptedId}`,
          `created Amulet ${completed.contract_id}`,
          expect.stringMatching(/^created Amulet /),
        ],
      },
    ]);
    const tx = ctx.world.submitted.find((t) => t.updateId === completed.transaction_id)!;
    if (tx.kind !== 'transaction') throw new Error(`update ${tx.updateId} is a ${tx.kind}, not a transaction`);
    const holding = tx.nodes[1]!;
    expect(holding.kind === 'created' && holding.contract.createArguments.owner).toBe(bob.party);
  });

  it('rejected by the receiver, withdrawn by the sender: failed, the offer archived by that choice', async () => {
    const [alice, bob] = [user('alice-wallet'), user('bob-wallet')];
    const rejectedId = await opened('life-reject');
    expect((await act(alice.token, rejectedId, 'reject')).statusCode).toBe(404);
    let begin = await ledgerEnd();
    const rejected = await act(bob.token, rejectedId, 'reject');
    expect([rejected.statusCode, rejected.body]).toEqual([200, '']);
    expect(await status(alice.token, 'life-reject')).toEqual({ status: 'failed', failure_kind: 'rejected' });
    expect((await ledgerSince(begin)).map((t) => t.events)).toEqual([[`exercised TransferOffer_Reject ${rejectedId}`]]);
    expect((await act(alice.token, rejectedId, 'withdraw')).statusCode).toBe(404);

    const withdrawnId = await opened('life-withdraw');
    expect((await act(bob.token, withdrawnId, 'withdraw')).statusCode).toBe(404);
    begin = await ledgerEnd();
    expect((await act(alice.token, withdrawnId, 'withdraw')).statusCode).toBe(200);
    expect(await status(alice.token, 'life-withdraw')).toEqual({ status: 'failed', failure_kind: 'withdrawn', withdrawn_reason: expect.any(String) });
    expect((await ledgerSince(begin)).map((t) => t.events)).toEqual([[`exercised TransferOffer_Withdraw ${withdrawnId}`]]);
    expect(await list(bob.token)).not.toContain('life-withdraw');
  });

  it('expires with the ledger clock, open or accepted and not yet completed; the world’s offers keep their states', async () => {
    const bob = user('bob-wallet');
    const begin = await ledgerEnd();
    const openId = await opened('life-expire', { expires_at: ctx.clock.now() + MINUTE });
    const acceptedOfferId = await opened('life-expire-accepted', { expires_at: ctx.clock.now() + OFFER_COMPLETION_DELAY_MICROS + 1 });
    const acceptedId = (await act(bob.token, acceptedOfferId, 'accept')).json().accepted_offer_contract_id;
    ctx.clock.advance(MINUTE);
    for (const id of ['life-expire', 'life-expire-accepted'])
      expect(await status(user('alice-wallet').token, id)).toEqual({ status: 'failed', failure_kind: 'expired' });
    const ends = (await ledgerSince(begin)).flatMap((t) => t.events).filter((e) => e.includes('_Expire'));
    expect(ends).toEqual([`exercised AcceptedTransferOffer_Expire ${acceptedId}`, `exercised TransferOffer_Expire ${openId}`]);
    const worldCreated = ctx.world.transferOffers.find((o) => o.status.status === 'created' && o.receiver === bob.party)!;
    expect((await act(bob.token, worldCreated.contract.contractId, 'accept')).statusCode).toBe(404);
  });
});

describe("an offer's life is deterministic", () => {
  it('two nodes of one seed given the same requests record the same ledger', async () => {
    const ledgers: string[] = [];
    for (const node of [await injectedNode({ seed: 9 }), await injectedNode({ seed: 9 })]) {
      const [alice, bob] = ['alice-wallet', 'bob-wallet'].map((u) => node.creds.walletUsers.find((w) => w.user === u)!);
      const post = (url: string, token: string, payload?: object) =>
        node.app.inject({ method: 'POST', url: `${BASE}${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
      const body = (trackingId: string) => ({ ...offer(trackingId), receiver_party_id: bob!.party, expires_at: node.ctx.clock.now() + MINUTE });
      const first = (await post('', alice!.token, body('det-1'))).json().offer_contract_id;
      await post(`/${first}/accept`, bob!.token);
      const second = (await post('', alice!.token, body('det-2'))).json().offer_contract_id;
      await post(`/${second}/reject`, bob!.token);
      await post('', alice!.token, body('det-3'));
      node.ctx.clock.advance(2 * MINUTE);
      ledgers.push(JSON.stringify(node.ctx.world.submitted));
      await node.app.close();
    }
    expect(JSON.parse(ledgers[0]!)).toHaveLength(7);
    expect(ledgers[1]).toBe(ledgers[0]);
  });
});
