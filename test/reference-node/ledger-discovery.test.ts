// The ledger endpoints a run discovers a node's data from (who a token is, its rights, the parties, the ledger
// end, the synchronizers), the wallet users as limited ledger users, and what the administrator's any-party
// stream shows of the wallets' transfer offers and of the multi-hosted party's hosting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../common/json.ts';
import { injectedNode, type InjectedNode } from '../support/injected-node.ts';

let ctx: InjectedNode['ctx'];
let app: InjectedNode['app'];
let creds: InjectedNode['creds'];

beforeAll(async () => {
  ({ ctx, app, creds } = await injectedNode({ defaultIdleTimeoutMs: 1 }));
});
afterAll(() => app?.close());

const wallet = (user: 'alice-wallet' | 'bob-wallet') => creds.walletUsers.find((u) => u.user === user)!;
const partyOf = (hint: string) => ctx.world.parties.find((p) => p.hint === hint)!.id;

async function get(url: string, token?: string): Promise<{ status: number; type: string; body: Json }> {
  const res = await app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const type = String(res.headers['content-type']);
  return { status: res.statusCode, type, body: type.startsWith('application/json') ? res.json() : res.body };
}

async function updates(body: unknown, token = creds.ledgerAdminToken): Promise<{ status: number; body: Json }> {
  const res = await app.inject({ method: 'POST', url: '/v2/updates', headers: { authorization: `Bearer ${token}` }, payload: body as object });
  return { status: res.statusCode, body: res.json() };
}

/** A JsCantonError of this status and code. */
function expectCantonError(res: { status: number; type: string; body: Json }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.type).toMatch(/^application\/json/);
  expect(res.body).toMatchObject({ code, cause: expect.any(String), errorCategory: expect.any(Number) });
}

const own = (party: string) => [{ kind: { CanActAs: { value: { party } } } }, { kind: { CanReadAs: { value: { party } } } }];

describe('who a token is and what it may do', () => {
  it('GET /v2/authenticated-user names the user, with its primary party', async () => {
    const alice = wallet('alice-wallet');
    expect((await get('/v2/authenticated-user', alice.token)).body).toEqual({
      user: {
        id: 'alice-wallet',
        primaryParty: alice.party,
        isDeactivated: false,
        metadata: { resourceVersion: '0', annotations: {} },
        identityProviderId: '',
      },
    });
    expect((await get('/v2/authenticated-user', creds.ledgerAdminToken)).body.user).toMatchObject({ id: 'ledger-admin', primaryParty: '' });
    expectCantonError(await get('/v2/authenticated-user'), 401, 'UNAUTHENTICATED');
    expectCantonError(await get('/v2/authenticated-user', 'not-a-jwt'), 401, 'UNAUTHENTICATED');
    expectCantonError(await get('/v2/authenticated-user', await ctx.auth.issue('nobody')), 403, 'PERMISSION_DENIED');
  });

  it("GET /v2/users/{user-id}/rights: own rights for every user, anyone's for the administrator, 403 otherwise", async () => {
    const alice = wallet('alice-wallet');
    expect((await get('/v2/users/alice-wallet/rights', alice.token)).body).toEqual({ rights: own(alice.party) });
    expect((await get('/v2/users/ledger-admin/rights', creds.ledgerAdminToken)).body).toEqual({
      rights: [{ kind: { ParticipantAdmin: { value: {} } } }, { kind: { CanReadAsAnyParty: { value: {} } } }],
    });
    expect((await get('/v2/users/bob-wallet/rights', creds.ledgerAdminToken)).body).toEqual({ rights: own(wallet('bob-wallet').party) });
    expect((await get(`/v2/users/${creds.ledgerUserToken.user}/rights`, creds.ledgerUserToken.token)).body).toEqual({
      rights: own(creds.ledgerUserToken.readAs[0]!),
    });
    expectCantonError(await get('/v2/users/bob-wallet/rights', alice.token), 403, 'PERMISSION_DENIED');
    expectCantonError(await get('/v2/users/ledger-admin/rights', alice.token), 403, 'PERMISSION_DENIED');
    expectCantonError(await get('/v2/users/nobody/rights', creds.ledgerAdminToken), 404, 'USER_NOT_FOUND');
    expectCantonError(await get('/v2/users/no%20spaces/rights', creds.ledgerAdminToken), 400, 'INVALID_ARGUMENT');
    expectCantonError(await get('/v2/users/alice-wallet/rights'), 401, 'UNAUTHENTICATED');
  });

  it("the wallet token is a limited ledger token: its own party's stream, 403 for another hosted party's or any party's", async () => {
    const alice = wallet('alice-wallet');
    const read = (filter: unknown) => updates({ beginExclusive: 0, endInclusive: 100, filter }, alice.token);
    const mine = await read({ filtersByParty: { [alice.party]: {} } });
    expect(mine.status).toBe(200);
    expect(mine.body.length).toBeGreaterThan(0);
    for (const filter of [{ filtersByParty: { [partyOf('bob')]: {} } }, { filtersForAnyParty: {} }]) {
      const refused = await read(filter);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('PERMISSION_DENIED');
    }
  });
});

describe("the participant's parties and state", () => {
  it('GET /v2/parties pages through every known party in id order, hosted ones local; the administrator only', async () => {
    const seen: Json[] = [];
    let token = '';
    for (let page = 0; page < 10; page++) {
      const res = await get(`/v2/parties?pageSize=5${token ? `&pageToken=${token}` : ''}`, creds.ledgerAdminToken);
      expect(res.status).toBe(200);
      expect(res.body.partyDetails.length).toBeLessThanOrEqual(5);
      seen.push(...res.body.partyDetails);
      token = res.body.nextPageToken;
      if (token === '') break;
    }
    const here = ctx.world.ledgerParticipant.id;
    expect(seen.map((p) => p.party)).toEqual(ctx.world.parties.map((p) => p.id).sort());
    expect(seen.filter((p) => p.isLocal).map((p) => p.party)).toEqual(
      ctx.world.parties
        .filter((p) => p.hostedOn.includes(here))
        .map((p) => p.id)
        .sort(),
    );
    const all = await get('/v2/parties', creds.ledgerAdminToken);
    expect(all.body.partyDetails).toEqual(seen);
    expect(all.body.nextPageToken).toBe('');
    expect((await get('/v2/parties?filter-party=alice', creds.ledgerAdminToken)).body.partyDetails.map((p: Json) => p.party)).toEqual([partyOf('alice')]);

    const bad = await get('/v2/parties?pageSize=many', creds.ledgerAdminToken);
    expect([bad.status, bad.type]).toEqual([400, 'text/plain; charset=utf-8']);
    expectCantonError(await get('/v2/parties?pageSize=-1', creds.ledgerAdminToken), 400, 'INVALID_ARGUMENT');
    expectCantonError(await get('/v2/parties?pageSize=10001', creds.ledgerAdminToken), 400, 'INVALID_ARGUMENT');
    expectCantonError(await get('/v2/parties?pageToken=%21', creds.ledgerAdminToken), 400, 'INVALID_ARGUMENT');
    expectCantonError(await get('/v2/parties', wallet('alice-wallet').token), 403, 'PERMISSION_DENIED');
    expectCantonError(await get('/v2/parties'), 401, 'UNAUTHENTICATED');
  });

  it('GET /v2/state/ledger-end is the offset the stream reads up to', async () => {
    const end = (await get('/v2/state/ledger-end', wallet('alice-wallet').token)).body.offset as number;
    const read = async (beginExclusive: number, endInclusive?: number) =>
      (await updates({ beginExclusive, endInclusive, filter: { filtersForAnyParty: {} } })).body;
    // An open-ended read ends where the ledger ends; nothing lies after it.
    const tail = await read(end - 60);
    expect(tail.length).toBeGreaterThan(0);
    expect(tail).toEqual(await read(end - 60, end));
    expect(await read(end, end + 100)).toEqual([]);
    expectCantonError(await get('/v2/state/ledger-end'), 401, 'UNAUTHENTICATED');
  });

  it('GET /v2/state/connected-synchronizers: every synchronizer; for a party, its hosting and permission on the participant', async () => {
    const { synchronizers, multiHostedParty, participants } = ctx.world;
    const pairs = (body: Json) => body.connectedSynchronizers.map((s: Json) => [s.synchronizerAlias, s.synchronizerId]);
    const all = await get('/v2/state/connected-synchronizers', wallet('alice-wallet').token);
    expect(pairs(all.body)).toEqual(synchronizers.map((s) => [s.alias, s.id]));
    const q = (party: string, participant?: string) =>
      `/v2/state/connected-synchronizers?party=${encodeURIComponent(party)}${participant ? `&participantId=${encodeURIComponent(participant)}` : ''}`;
    // A party's permission is the one its newest topology event on the participant gave it.
    const alice = wallet('alice-wallet');
    const { body: topology } = await updates({
      beginExclusive: 0,
      endInclusive: 2 * ctx.world.baseCount,
      updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice.party] } } },
    });
    const newest = topology
      .flatMap((e: Json) => (e.update.TopologyTransaction?.value.events ?? []).map((ev: Json) => Object.values(ev.event)[0] as Json))
      .filter((ev: Json) => ev.value.participantId === ctx.world.ledgerParticipant.id)
      .at(-1).value.participantPermission;
    const hosting = await get(q(alice.party), alice.token);
    expect(hosting.body.connectedSynchronizers.map((s: Json) => s.permission)).toEqual(synchronizers.map(() => newest));
    // The second hosting of the multi-hosted party, as its topology events left it; a party hosted elsewhere has none here.
    const second = await get(q(multiHostedParty.id, participants[1]!.id), creds.ledgerAdminToken);
    expect(second.body.connectedSynchronizers.map((s: Json) => s.permission)).toEqual(synchronizers.map(() => 'PARTICIPANT_PERMISSION_OBSERVATION'));
    expect((await get(q(partyOf('carol')), creds.ledgerAdminToken)).body).toEqual({ connectedSynchronizers: [] });
    expectCantonError(await get(q(partyOf('bob')), wallet('alice-wallet').token), 403, 'PERMISSION_DENIED');
    expectCantonError(await get('/v2/state/connected-synchronizers'), 401, 'UNAUTHENTICATED');
  });
});

describe("what the administrator's any-party stream shows", () => {
  const anyParty = { filtersForAnyParty: {} };
  const transactionEvents = (els: Json[]) =>
    els.flatMap((e: Json) => (e.update.Transaction ? (e.update.Transaction.value.events as Json[]).map((ev) => Object.entries(ev)[0] as [string, Json]) : []));

  it("every transfer offer of the world: its TransferOffer created with the offer's terms, archived once the offer left the open state", async () => {
    const { body: els } = await updates({
      beginExclusive: 0,
      endInclusive: 2 * ctx.world.baseCount,
      updateFormat: { includeTransactions: { eventFormat: anyParty, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    });
    const events = transactionEvents(els);
    const offers = events.filter(([kind, ev]) => kind === 'CreatedEvent' && ev.templateId.endsWith(':Splice.Wallet.TransferOffer:TransferOffer'));
    const archived = new Set(events.filter(([kind]) => kind === 'ArchivedEvent').map(([, ev]) => ev.contractId));
    expect(offers.map(([, ev]) => ev.createArgument.trackingId).sort()).toEqual(ctx.world.transferOffers.map((o) => o.trackingId).sort());
    for (const o of ctx.world.transferOffers) {
      const [, ev] = offers.find(([, e]) => e.createArgument.trackingId === o.trackingId)!;
      expect(Object.keys(ev.createArgument).sort()).toEqual(['amount', 'description', 'dso', 'expiresAt', 'receiver', 'sender', 'trackingId']);
      expect(ev.createArgument).toMatchObject({ sender: o.sender, receiver: o.receiver, dso: ctx.world.dso.id, amount: { unit: 'AmuletUnit' } });
      // Only offers still waiting for the receiver stay active; the wallet's status names the creating transaction.
      expect(archived.has(ev.contractId), o.trackingId).toBe(o.status.status !== 'created');
      if (o.status.status === 'created')
        expect([ev.contractId, els.find((e: Json) => e.update.Transaction?.value.offset === ev.offset)!.update.Transaction.value.updateId]).toEqual([
          o.status.contract_id,
          o.status.transaction_id,
        ]);
    }
    // Another user's offers: neither sent nor received by the first wallet user.
    const alice = wallet('alice-wallet').party;
    expect(offers.filter(([, ev]) => ev.createArgument.sender !== alice && ev.createArgument.receiver !== alice).length).toBeGreaterThan(0);
  });

  it("the offers' transactions are the ledger's alone: scan knows none of them", async () => {
    const ids = new Set<string>();
    for (const u of ctx.world.ledgerOnly.values()) ids.add(u.updateId);
    for (const id of ids) expect((await app.inject({ method: 'GET', url: `/api/scan/v2/updates/${id}` })).statusCode).toBe(404);
  });

  it('an offer contract has its create and archive for events-by-contract-id', async () => {
    const ended = ctx.world.transferOffers.find((o) => o.status.status === 'failed')!.contract.contractId;
    const res = await app.inject({
      method: 'POST',
      url: '/v2/events/events-by-contract-id',
      headers: { authorization: `Bearer ${creds.ledgerAdminToken}` },
      payload: { contractId: ended },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().created.createdEvent.offset).toBeLessThan(res.json().archived.archivedEvent.offset);
  });

  it('ParticipantAuthorizationAdded events of the multi-hosted party on at least two participants', async () => {
    const { body: els } = await updates({
      beginExclusive: 0,
      endInclusive: 2 * ctx.world.baseCount,
      updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [] } } },
    });
    const added: Json[] = els
      .flatMap((e: Json) => e.update.TopologyTransaction?.value.events ?? [])
      .map((e: Json) => e.event.ParticipantAuthorizationAdded?.value)
      .filter((v: Json) => v?.partyId === ctx.world.multiHostedParty.id);
    expect(new Set(added.map((v) => v.participantId)).size).toBeGreaterThanOrEqual(2);
  });
});
