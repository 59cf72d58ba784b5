// What real ledger clients meet on the wire, where the description is silent: a POST body without a
// Content-Type is read as JSON (the official client sends none), every ledger endpoint requires credentials
// as the official document declares, and the values real nodes send (version features, the package hash).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectedNode, type InjectedNode } from '../support/injected-node.ts';

let node: InjectedNode;
beforeAll(async () => {
  node = await injectedNode({ defaultIdleTimeoutMs: 1 });
});
afterAll(() => node?.app.close());

const admin = () => ({ authorization: `Bearer ${node.creds.ledgerAdminToken}` });
const aliceToken = () => ({ authorization: `Bearer ${node.creds.ledgerUserToken.token}` });
const alice = () => node.creds.ledgerUserToken.readAs[0]!;
const create = (commandId: string) => ({
  commandId,
  actAs: [alice()],
  commands: [{ CreateCommand: { templateId: `${node.ctx.world.amuletPackage}:Splice.Amulet:Amulet`, createArguments: { owner: alice() } } }],
});

/** A POST whose body goes out as text with no Content-Type header, as the official ledger client sends it. */
async function untyped(url: string, text: string, headers: Record<string, string> = admin()) {
  const res = await node.app.inject({ method: 'POST', url, headers, payload: text });
  expect(res.raw.req.headers['content-type']).toBeUndefined();
  return res;
}

describe('ledger POST bodies without a Content-Type', () => {
  it('are read as JSON on the stream, the event lookup and the commands', async () => {
    const read = await untyped('/v2/updates?limit=3', JSON.stringify({ beginExclusive: 0, filter: { filtersForAnyParty: {} } }));
    expect(read.statusCode).toBe(200);
    expect(read.json()).toHaveLength(3);

    const contract = node.ctx.world.baseHoldings[0]!.contract.contractId;
    const events = await untyped('/v2/events/events-by-contract-id', JSON.stringify({ contractId: contract }));
    expect(events.statusCode).toBe(200);
    expect(events.json().created.createdEvent.contractId).toBe(contract);

    const submitted = await untyped('/v2/commands/submit-and-wait', JSON.stringify(create('untyped-1')), aliceToken());
    expect(submitted.statusCode).toBe(200);
    const completions = await untyped(
      '/v2/commands/completions?stream_idle_timeout_ms=1',
      JSON.stringify({ parties: [alice()], beginExclusive: 0 }),
      aliceToken(),
    );
    expect(completions.statusCode).toBe(200);
    expect(completions.json()).toHaveLength(1);
  });

  it("a body that is not JSON still gets the node's usual 400", async () => {
    const stream = await untyped('/v2/updates', '{"beginExclusive": 0,');
    expect(stream.statusCode).toBe(400);
    expect(stream.headers['content-type']).toMatch(/^text\/plain/);
    // The commands' undecodable bodies are plain text too, as the official document declares.
    const command = await untyped('/v2/commands/submit-and-wait', 'not json');
    expect(command.statusCode).toBe(400);
    expect(command.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('ledger credentials, as the official document declares them for every operation', () => {
  const OPERATIONS: Array<[string, string]> = [
    ['POST', '/v2/updates'],
    ['POST', '/v2/commands/submit-and-wait'],
    ['POST', '/v2/commands/async/submit'],
    ['POST', '/v2/commands/command-completions'],
    ['POST', '/v2/events/events-by-contract-id'],
    ['GET', '/v2/version'],
    ['GET', '/v2/packages'],
    ['GET', '/v2/package-vetting'],
    ['POST', '/v2/dars'],
    ['GET', '/v2/authenticated-user'],
    ['GET', '/v2/state/ledger-end'],
  ];

  it.each(OPERATIONS)('%s %s without a token is a JsCantonError 401', async (method, url) => {
    const res = await node.app.inject({ method: method as 'GET' | 'POST', url, ...(method === 'POST' ? { payload: {} } : {}) });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED', errorCategory: 6 });
  });

  it('the same submission with a token is accepted', async () => {
    const res = await node.app.inject({ method: 'POST', url: '/v2/commands/submit-and-wait', headers: aliceToken(), payload: create('with-token') });
    expect(res.statusCode).toBe(200);
  });
});

describe('values real nodes send where the description is silent', () => {
  it('/v2/version carries features.packageFeature', async () => {
    const res = await node.app.inject({ method: 'GET', url: '/v2/version', headers: admin() });
    const size = res.json().features.packageFeature.maxVettedPackagesPageSize;
    expect(Number.isInteger(size) && size >= 2).toBe(true);
  });

  it('a package download carries its hash in Canton-Package-Hash', async () => {
    const id = node.ctx.world.amuletPackage;
    const res = await node.app.inject({ method: 'GET', url: `/v2/packages/${id}`, headers: admin() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['canton-package-hash']).toBe(id);
  });
});

describe('package requests read as the official document shapes them', () => {
  const plain400 = (res: { statusCode: number; headers: Record<string, unknown>; body: string }, what: RegExp) => {
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(what);
  };
  const vetting = (method: 'GET' | 'POST', payload?: unknown) =>
    node.app.inject({ method, url: '/v2/package-vetting', headers: { ...admin(), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  it('an upload refuses a vetAllPackages that is no boolean before it reads the body', async () => {
    const headers = { ...admin(), 'content-type': 'application/octet-stream' };
    for (const url of ['/v2/dars', '/v2/packages']) {
      plain400(await node.app.inject({ method: 'POST', url: `${url}?vetAllPackages=yes`, headers, payload: Buffer.from('PK') }), /vetAllPackages/);
      const noDar = await node.app.inject({ method: 'POST', url: `${url}?vetAllPackages=true`, headers, payload: Buffer.from('PK') });
      expect([noDar.statusCode, noDar.json().code]).toEqual([400, 'INVALID_DAR']);
    }
  });

  it('the vetting listing reads the body of its GET, and takes none as the empty request', async () => {
    plain400(await vetting('GET', { pageSize: 2 ** 31 }), /pageSize must be a 32-bit integer/);
    plain400(await vetting('GET', { topologyStateFilter: { participantIds: 'p' } }), /participantIds must be an array/);
    const all = await node.app.inject({ method: 'GET', url: '/v2/package-vetting', headers: admin() });
    expect(all.statusCode).toBe(200);
    expect((await vetting('GET', { pageSize: 10 })).json()).toEqual(all.json());
  });

  it('a vetting change needs its changes and answers the state after them', async () => {
    plain400(await vetting('POST', { dryRun: true }), /changes is missing/);
    plain400(await vetting('POST', { changes: [{ operation: { Vet: {}, Unvet: {} } }] }), /exactly one of/);
    plain400(await vetting('POST', { changes: [{}], expectedTopologySerial: { serial: 'none' } }), /serial must be a JSON object/);
    plain400(await vetting('POST', { changes: [{}], updateVettedPackagesForceFlags: ['FORCE'] }), /updateVettedPackagesForceFlags/);
    const changed = await vetting('POST', {
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'splice-amulet' }] } } } }],
      synchronizerId: node.ctx.world.synchronizers[0]!.id,
    });
    expect(changed.statusCode).toBe(200);
    const after = changed.json().newVettedPackages;
    expect(after.synchronizerId).toBe(node.ctx.world.synchronizers[0]!.id);
    expect(after.packages.map((p: { packageName: string }) => p.packageName)).toContain('splice-amulet');
    const unknown = await vetting('POST', { changes: [{}], synchronizerId: 'nowhere::1220' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'SYNCHRONIZER_NOT_FOUND' });
  });
});
