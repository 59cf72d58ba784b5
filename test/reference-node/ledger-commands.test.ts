// Commands simulated for real: shapes and rights checked as the official ledger document and real nodes do,
// and a submission's transaction recorded in the world the stream, the event lookup and the completions serve.
import { beforeEach, describe, expect, it } from 'vitest';
import { injectedNode, type InjectedNode } from '../support/injected-node.ts';

let node: InjectedNode;
beforeEach(async () => {
  node = await injectedNode({ defaultIdleTimeoutMs: 1 });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const alice = () => ({ ...bearer(node.creds.ledgerUserToken.token) });
const aliceParty = () => node.creds.ledgerUserToken.readAs[0]!;
const post = (url: string, payload: unknown, headers: Record<string, string> = alice()) =>
  node.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });

function createCommand(commandId: string, extra: Record<string, unknown> = {}) {
  const w = node.ctx.world;
  return {
    commandId,
    actAs: [aliceParty()],
    commands: [{ CreateCommand: { templateId: `${w.amuletPackage}:Splice.Amulet:Amulet`, createArguments: { owner: aliceParty(), amount: '5.0' } } }],
    ...extra,
  };
}

const aliceUpdates = (beginExclusive: number) => ({
  beginExclusive,
  updateFormat: {
    includeTransactions: {
      eventFormat: { filtersByParty: { [aliceParty()]: {} }, verbose: true },
      transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
    },
  },
});

describe('command requests as the official document shapes them', () => {
  it.each([
    ['no commands', { commandId: 'c', actAs: ['x'], commands: [] }],
    ['no commandId', { actAs: ['x'], commands: [{ CreateCommand: { templateId: 't', createArguments: {} } }] }],
    ['no actAs', { commandId: 'c', commands: [{ CreateCommand: { templateId: 't', createArguments: {} } }] }],
    ['an unknown command kind', { commandId: 'c', actAs: ['x'], commands: [{ Frobnicate: {} }] }],
    ['a body that is not an object', [1, 2]],
  ])('%s is a plain-text 400', async (_what, body) => {
    const res = await post('/v2/commands/submit-and-wait', body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^Invalid value for: body/);
  });

  it('a body that is no JSON is a plain-text 400 on the completions too', async () => {
    const res = await node.app.inject({
      method: 'POST',
      url: '/v2/commands/completions',
      headers: { ...alice(), 'content-type': 'application/json' },
      payload: '{',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('command authorization', () => {
  it('acting as a party outside the token’s act-as rights is 403, and records nothing', async () => {
    const bob = node.ctx.world.walletUsers.get('bob-wallet')!;
    const res = await post('/v2/commands/submit-and-wait', createCommand('foreign', { actAs: [bob] }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
    // The administrator reads as any party but may act as none.
    expect((await post('/v2/commands/submit-and-wait', createCommand('admin'), bearer(node.creds.ledgerAdminToken))).statusCode).toBe(403);
    expect(node.ctx.world.submitted).toHaveLength(0);
  });

  it('without a token is 401', async () => {
    expect((await post('/v2/commands/submit-and-wait', createCommand('anon'), {})).statusCode).toBe(401);
  });

  it('an unknown template is 404, a duplicate command 409', async () => {
    const unknown = createCommand('unknown', { commands: [{ CreateCommand: { templateId: '#iou-model:Iou:Iou', createArguments: {} } }] });
    expect((await post('/v2/commands/submit-and-wait', unknown)).json()).toMatchObject({ code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND' });
    expect((await post('/v2/commands/submit-and-wait', createCommand('once'))).statusCode).toBe(200);
    expect((await post('/v2/commands/submit-and-wait', createCommand('once'))).statusCode).toBe(409);
  });
});

describe('a submitted command changes the ledger', () => {
  it('a create via submit-and-wait is the next transaction of the stream, found by its contract id', async () => {
    const end = (await node.app.inject({ method: 'GET', url: '/v2/state/ledger-end', headers: alice() })).json().offset as number;
    const res = await post('/v2/commands/submit-and-wait', createCommand('create-1'));
    expect(res.statusCode).toBe(200);
    const { updateId, completionOffset } = res.json();
    expect(completionOffset).toBe(end + 1);
    expect((await node.app.inject({ method: 'GET', url: '/v2/state/ledger-end', headers: alice() })).json().offset).toBe(completionOffset);

    const stream = (await post('/v2/updates?stream_idle_timeout_ms=1', aliceUpdates(end))).json();
    expect(stream).toHaveLength(1);
    const tx = stream[0].update.Transaction.value;
    expect(tx).toMatchObject({ updateId, offset: completionOffset, commandId: 'create-1' });
    const created = tx.events[0].CreatedEvent;
    expect(created.signatories).toEqual([aliceParty()]);

    const events = (await post('/v2/events/events-by-contract-id', { contractId: created.contractId })).json();
    expect(events.created.createdEvent).toMatchObject({ contractId: created.contractId, offset: completionOffset });
    expect(events.archived).toBeUndefined();
  });

  it('archiving the created contract shows in the stream and the event lookup; the same command again is 404', async () => {
    const w = node.ctx.world;
    const tx = (await post('/v2/commands/submit-and-wait-for-transaction', { commands: createCommand('create-2') })).json().transaction;
    const contractId = tx.events[0].CreatedEvent.contractId as string;
    const archive = {
      commandId: 'archive-2',
      actAs: [aliceParty()],
      commands: [{ ExerciseCommand: { templateId: `${w.amuletPackage}:Splice.Amulet:Amulet`, contractId, choice: 'Archive', choiceArgument: {} } }],
    };
    const archived = (await post('/v2/commands/submit-and-wait-for-transaction', { commands: archive })).json().transaction;
    expect(archived.events[0].ArchivedEvent).toMatchObject({ contractId, offset: tx.offset + 1 });
    const events = (await post('/v2/events/events-by-contract-id', { contractId })).json();
    expect(events.archived.archivedEvent.offset).toBe(tx.offset + 1);
    expect((await post('/v2/commands/submit-and-wait', { ...archive, commandId: 'archive-again' })).json()).toMatchObject({ code: 'CONTRACT_NOT_FOUND' });
  });

  it('an async submit completes: the completion endpoints answer it, honouring the idle timeout', async () => {
    expect((await post('/v2/commands/async/submit', createCommand('async-1'))).json()).toEqual({});
    const query = { parties: [aliceParty()], beginExclusive: 0 };
    let offset = 0;
    for (const url of ['/v2/commands/completions', '/v2/commands/command-completions']) {
      const res = await post(`${url}?stream_idle_timeout_ms=5`, query);
      expect(res.statusCode).toBe(200);
      const [only, ...rest] = res.json();
      expect(rest).toEqual([]);
      expect(only.completionResponse.Completion.value).toMatchObject({ commandId: 'async-1', userId: 'alice-ledger', actAs: [aliceParty()] });
      offset = only.completionResponse.Completion.value.offset;
    }
    // Nothing after the completion: the read completes empty once idle, without hanging.
    expect((await post('/v2/commands/completions?stream_idle_timeout_ms=5', { ...query, beginExclusive: offset })).json()).toEqual([]);
  });

  it('the same seed and command sequence give the same ledger', async () => {
    const run = async () => {
      node = await injectedNode({ defaultIdleTimeoutMs: 1 });
      return [
        (await post('/v2/commands/submit-and-wait', createCommand('d-1'))).json(),
        (await post('/v2/commands/submit-and-wait', createCommand('d-2'))).json(),
      ];
    };
    expect(await run()).toEqual(await run());
  });
});
