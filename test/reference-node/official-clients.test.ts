// The reference node driven through the network's official TypeScript clients (@canton-network/core-ledger-client
// and core-splice-client), over a real socket since the clients call the global fetch: every call they offer
// that the node serves must succeed, as it does against a real node.
import { awaitCompletion, LedgerClient, type PostRequest } from '@canton-network/core-ledger-client';
import { ScanClient, ScanProxyClient } from '@canton-network/core-splice-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningReferenceNode, startReferenceNode } from '../../reference-node/index.ts';
import { isoMicros } from '../../reference-node/world/time.ts';

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode({ defaultIdleTimeoutMs: 1 });
});
afterAll(() => node?.close());

/** The clients log through pino (the ledger client asks for children); the test wants silence. */
const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
type LedgerLogger = ConstructorParameters<typeof LedgerClient>[0]['logger'];
const tokens = (token: string) => ({ getAccessToken: async () => token, getAuthContext: async () => ({ userId: '', accessToken: token }) });

const ledgerAs = (token: string) =>
  new LedgerClient({ baseUrl: new URL(node.urls.ledger), logger: silent as unknown as LedgerLogger, accessTokenProvider: tokens(token) });
const admin = () => ledgerAs(node.credentials.ledgerAdminToken);
const alice = () => ledgerAs(node.credentials.ledgerUserToken.token);
const aliceParty = () => node.credentials.ledgerUserToken.readAs[0]!;
const amuletTemplate = () => `${node.context.world.amuletPackage}:Splice.Amulet:Amulet`;
const createAmulet = (commandId: string) => ({
  commandId,
  actAs: [aliceParty()],
  commands: [{ CreateCommand: { templateId: amuletTemplate(), createArguments: { owner: aliceParty(), amount: '5.0' } } }],
});

/** The kinds of the elements a stream read answers with (Transaction, OffsetCheckpoint, ...). */
const kinds = (elements: Array<{ update?: object }>) => new Set(elements.map((e) => Object.keys(e.update ?? {})[0]));

/** A field of a splice-client answer: the package's declarations import its generated paths without an extension,
 *  which NodeNext resolution cannot follow, so its answers type as unknown here. */
const field = (answer: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], answer);

describe('the official ledger client', () => {
  it('reads the version, the packages and the participant state', async () => {
    const client = admin();
    await client.init();
    expect(client.getCurrentClientVersion()).toMatch(/^3\.[45]$/);
    const version = await client.get('/v2/version');
    expect(version.version).toBeTruthy();
    const { packageIds } = await client.get('/v2/packages');
    expect(packageIds?.length).toBeGreaterThan(0);
    const status = await client.get('/v2/packages/{package-id}/status', { path: { 'package-id': packageIds![0]! } });
    expect(status.packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
    expect((await client.get('/v2/state/ledger-end')).offset).toBeGreaterThan(0);
    expect(await client.getSynchronizerId()).toBe(node.context.world.synchronizers[0]!.id);
    expect((await client.get('/v2/authenticated-user')).user?.id).toBeTruthy();
    expect((await client.get('/v2/parties')).partyDetails?.length).toBeGreaterThan(0);
  });

  it('reads the update stream in every shape it offers', async () => {
    const client = admin();
    const window = { beginExclusive: 0, endInclusive: 40 };
    const anyParty = { filtersForAnyParty: {} };
    // The client's types demand updateFormat; on the wire the deprecated filter and verbose stand alone.
    const deprecated = (body: object) => body as PostRequest<'/v2/updates'>;
    const legacy = await client.post('/v2/updates', deprecated({ ...window, filter: anyParty, verbose: true }));
    expect(kinds(legacy)).toContain('Transaction');
    for (const transactionShape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const) {
      const read = await client.post('/v2/updates', {
        ...window,
        updateFormat: {
          includeTransactions: { eventFormat: { ...anyParty, verbose: false }, transactionShape },
          includeReassignments: anyParty,
          includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
        },
      });
      expect(kinds(read)).toContain('Transaction');
    }
    const flats = await client.post('/v2/updates/flats', deprecated({ ...window, filter: anyParty }));
    expect(kinds(flats)).toContain('Transaction');
    const trees = await client.post('/v2/updates/trees', deprecated({ ...window, filter: anyParty }));
    expect(kinds(trees)).toContain('TransactionTree');
  });

  it('submits and waits, and awaitCompletion returns the completion of an async submission', async () => {
    const client = alice();
    const { updateId, completionOffset } = await client.post('/v2/commands/submit-and-wait', createAmulet('official-client-1'));
    expect(updateId).toBeTruthy();
    const { transaction } = await client.post('/v2/commands/submit-and-wait-for-transaction', { commands: createAmulet('official-client-2') });
    const created = transaction.events?.[0];
    expect(created && 'CreatedEvent' in created).toBe(true);
    const contractId = (created as { CreatedEvent: { contractId: string } }).CreatedEvent.contractId;
    const events = await client.post('/v2/events/events-by-contract-id', {
      contractId,
      eventFormat: { filtersByParty: { [aliceParty()]: {} }, verbose: true },
    });
    expect(events.created?.createdEvent.contractId).toBe(contractId);

    await client.post('/v2/commands/async/submit', createAmulet('official-client-3'));
    const completion = await awaitCompletion(client, completionOffset, aliceParty(), node.credentials.ledgerUserToken.user, 'official-client-3');
    expect(completion.commandId).toBe('official-client-3');
    expect(completion.updateId).toBeTruthy();
  });
});

describe('the official splice clients', () => {
  const walletToken = () => node.credentials.walletUsers[0]!.token;
  const scan = () => new ScanClient(new URL(node.urls.scan), silent, tokens(walletToken()));
  const proxy = () => new ScanProxyClient(new URL(node.urls.validator), silent, tokens(walletToken()));

  it('reads the scan', async () => {
    const client = scan();
    const { world } = node.context;
    expect(field(await client.get('/v0/dso'), 'dso_party_id')).toBe(world.dso.id);
    expect(await client.getAmuletSynchronizerId()).toBe(world.synchronizers[0]!.id);
    expect(field(await client.get('/v0/scans'), 'scans', 'length')).toBeGreaterThan(0);
    expect(field(await client.get('/v0/dso-sequencers'), 'domainSequencers', 'length')).toBeGreaterThan(0);
    expect(field(await client.get('/v0/feature-support'), 'dummy')).toBe(false);
    expect(field(await client.get('/v0/backfilling/status'), 'complete')).toBeTypeOf('boolean');
    expect(field(await client.get('/v0/unclaimed-development-fund-coupons'), 'unclaimed-development-fund-coupons')).toBeInstanceOf(Array);
    expect(field(await client.post('/v2/updates', { page_size: 2 }), 'transactions', 'length')).toBe(2);
    expect(field(await client.post('/v0/events', { page_size: 2 }), 'events', 'length')).toBe(2);
    const before = { before: '2100-01-01T00:00:00Z', migration_id: String(world.currentMigrationId) };
    expect(field(await client.get('/v0/state/acs/snapshot-timestamp', { query: before }), 'record_time')).toBeTypeOf('string');
    expect(field(await client.get('/v0/ans-entries', { query: { page_size: '5' } }), 'entries')).toBeInstanceOf(Array);
    const validator = world.validators[0]!.party;
    const faucets = await client.get('/v0/validators/validator-faucets', { query: { validator_ids: validator } });
    expect(field(faucets, 'validatorsReceivedFaucets', '0', 'validator')).toBe(validator);
    expect(field(await client.get('/v0/admin/validator/licenses', { query: { limit: '5' } }), 'validator_licenses', 'length')).toBeGreaterThan(0);
    expect(field(await client.post('/v0/admin/sv/voteresults', { limit: 5 }), 'dso_rules_vote_results')).toBeInstanceOf(Array);
  });

  it('reads the scan history, the snapshots and the per-party lookups', async () => {
    const client = scan();
    const { world } = node.context;
    const update_id = world.updateId(5);
    expect(field(await client.get('/v0/updates/{update_id}', { path: { update_id } }), 'update_id')).toBe(update_id);
    expect(field(await client.get('/v2/updates/{update_id}', { path: { update_id } }), 'update_id')).toBe(update_id);
    expect(field(await client.get('/v0/events/{update_id}', { path: { update_id } }), 'update', 'update_id')).toBe(update_id);
    const s = world.snapshots[0]!;
    const snapshot = { migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros), page_size: 5 };
    expect(field(await client.post('/v0/state/acs', snapshot), 'created_events', 'length')).toBeGreaterThan(0);
    const owners = { ...snapshot, owner_party_ids: world.parties.map((p) => p.id) };
    for (const path of ['/v0/holdings/state', '/v1/holdings/state'] as const)
      expect(field(await client.post(path, owners), 'created_events', 'length')).toBeGreaterThan(0);
    const range = { start_record_time: isoMicros(world.recordTimeMicros(0) - 10), end_record_time: isoMicros(world.recordTimeMicros(world.count - 1)) };
    expect(field(await client.post('/v0/history/bulk/updates', { ...range, page_size: 5 }), 'object_refs')).toBeInstanceOf(Array);
    const domain_id = world.synchronizers[0]!.id;
    const hosts = await client.get('/v1/domains/{domain_id}/parties/{party_id}/participant-id', { path: { domain_id, party_id: world.multiHostedParty.id } });
    expect(field(hosts, 'participant_ids', 'length')).toBeGreaterThan(1);
    const member_id = [...world.memberTraffic.keys()][0]!;
    const traffic = await client.get('/v0/domains/{domain_id}/members/{member_id}/traffic-status', { path: { domain_id, member_id } });
    expect(field(traffic, 'traffic_status', 'target', 'total_purchased')).toBeTypeOf('number');
    const party = [...world.preapprovals.keys()][0]!;
    const preapproval = await client.get('/v0/transfer-preapprovals/by-party/{party}', { path: { party } });
    expect(field(preapproval, 'transfer_preapproval', 'contract', 'contract_id')).toBeTypeOf('string');
    const identities = await client.get('/v0/synchronizer-identities/{domain_id_prefix}', { path: { domain_id_prefix: domain_id.split('::')[0]! } });
    expect(field(identities, 'sequencer_id')).toBeTypeOf('string');
  });

  it('reads through the validator scan proxy', async () => {
    expect(field(await proxy().get('/v0/scan-proxy/dso-party-id'), 'dso_party_id')).toBe(node.context.world.dso.id);
  });

  it('reads the amulet rules and the mining rounds, from the scan and through the proxy, as GET /v0/dso names them', async () => {
    const { world } = node.context;
    const dso = await scan().get('/v0/dso');
    const latestRound = field(dso, 'latest_mining_round', 'contract');
    // The clients pick the active round by the wall clock; this network's clock is its ledger's.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(world.ledgerEndMicros() / 1000);
    try {
      for (const client of [scan(), proxy()]) {
        const rules = await client.getAmuletRules();
        expect(rules).toEqual(field(dso, 'amulet_rules', 'contract'));
        expect(rules.contract_id).toBe(world.amuletRules.contractId);
        expect(await client.isDevNet()).toBe(true);
        expect(await client.getOpenMiningRounds()).toEqual([latestRound]);
        expect(await client.getActiveOpenMiningRound()).toEqual(latestRound);
      }
    } finally {
      vi.useRealTimers();
    }
  });
});
