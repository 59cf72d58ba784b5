// The wallet's transfer offers through the interface: created with POST, listed with GET while open (to
// sender and receiver), their status following the ledger clock until they expire; exactly one offer per
// sender and tracking id; invalid bodies refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../common/json.ts';
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
