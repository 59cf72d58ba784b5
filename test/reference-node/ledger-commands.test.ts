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

  it('a create-and-exercise is two root actions: the ledger-effects view shows the contract and its archive, after which it is gone', async () => {
    const w = node.ctx.world;
    const templateId = `${w.amuletPackage}:Splice.Amulet:Amulet`;
    const transient = createCommand('transient', {
      commands: [{ CreateAndExerciseCommand: { templateId, createArguments: { owner: aliceParty(), amount: '5.0' }, choice: 'Archive', choiceArgument: {} } }],
    });
    const effects = { eventFormat: { filtersByParty: { [aliceParty()]: {} } }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' };
    const tx = (await post('/v2/commands/submit-and-wait-for-transaction', { commands: transient, transactionFormat: effects })).json().transaction;
    const [created, exercised] = tx.events.map((e: Record<string, { contractId: string }>) => Object.entries(e)[0]!);
    expect([created[0], exercised[0]]).toEqual(['CreatedEvent', 'ExercisedEvent']);
    expect(exercised[1]).toMatchObject({ contractId: created[1].contractId, choice: 'Archive', consuming: true, actingParties: [aliceParty()] });
    // Created and archived in one transaction: it never reaches the active contract set.
    const acs = await post('/v2/updates?stream_idle_timeout_ms=1', { ...aliceUpdates(tx.offset - 1), endInclusive: tx.offset });
    expect(acs.json()).toEqual([]);
    const archive = (commandId: string) =>
      createCommand(commandId, { commands: [{ ExerciseCommand: { templateId, contractId: created[1].contractId, choice: 'Archive', choiceArgument: {} } }] });
    expect((await post('/v2/commands/submit-and-wait', archive('archive-transient'))).json()).toMatchObject({ code: 'CONTRACT_NOT_FOUND' });
    // Not waited for, the same: refused at once, nothing recorded, no completion.
    const submitted = w.submitted.length;
    const async = await post('/v2/commands/async/submit', archive('archive-transient-async'));
    expect([async.statusCode, async.json().code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    expect(w.submitted).toHaveLength(submitted);
    const completions = (await post('/v2/commands/completions?stream_idle_timeout_ms=1', { parties: [aliceParty()], beginExclusive: tx.offset })).json();
    expect(completions).toEqual([]);
  });

  it('the parties users act as may submit on every synchronizer (their hosting keeps submission permission)', async () => {
    const res = await node.app.inject({ method: 'GET', url: `/v2/state/connected-synchronizers?party=${encodeURIComponent(aliceParty())}`, headers: alice() });
    expect(res.json().connectedSynchronizers.map((s: { permission: string }) => s.permission)).toEqual(
      node.ctx.world.synchronizers.map(() => 'PARTICIPANT_PERMISSION_SUBMISSION'),
    );
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
      const created = (await post('/v2/commands/submit-and-wait-for-transaction', { commands: createCommand('d-1') })).json().transaction;
      const [source, target] = node.ctx.world.synchronizers.map((s) => s.id);
      const contractId = created.events[0].CreatedEvent.contractId;
      const unassign = { UnassignCommand: { value: { contractId, source, target } } };
      return [
        created,
        (await post('/v2/commands/submit-and-wait', createCommand('d-2'))).json(),
        (
          await post('/v2/commands/submit-and-wait-for-reassignment', {
            reassignmentCommands: { commandId: 'd-3', submitter: aliceParty(), commands: [{ command: unassign }] },
          })
        ).json(),
      ];
    };
    expect(await run()).toEqual(await run());
  });
});

describe('reassignment commands move a contract between synchronizers', () => {
  const move = (commandId: string, command: Record<string, unknown>, submitter = aliceParty()) => ({
    reassignmentCommands: { commandId, submitter, commands: [{ command }] },
  });
  /** A contract alice creates (on the first synchronizer), and the two synchronizers. */
  async function aliceContract(commandId: string) {
    const tx = (await post('/v2/commands/submit-and-wait-for-transaction', { commands: createCommand(commandId) })).json().transaction;
    const [source, target] = node.ctx.world.synchronizers.map((s) => s.id);
    return { contractId: tx.events[0].CreatedEvent.contractId as string, offset: tx.offset as number, source: source!, target: target! };
  }

  it('an unassignment then its assignment are the next updates, with the counter, the completions and the archive on the target', async () => {
    const { contractId, offset, source, target } = await aliceContract('r-create');
    const aliceFormat = { filtersByParty: { [aliceParty()]: {} }, verbose: true };
    const unassign = move('r-out', { UnassignCommand: { value: { contractId, source, target } } });
    const out = (await post('/v2/commands/submit-and-wait-for-reassignment', { ...unassign, eventFormat: aliceFormat })).json().reassignment;
    const unassigned = out.events[0].JsUnassignedEvent.value;
    expect(out).toMatchObject({ offset: offset + 1, commandId: 'r-out', synchronizerId: source });
    expect(unassigned).toMatchObject({ contractId, source, target, reassignmentCounter: 1, submitter: aliceParty(), witnessParties: [aliceParty()] });
    // Unassigned, the contract is active nowhere: it can be neither exercised nor unassigned again.
    const archive = {
      commandId: 'r-archive',
      actAs: [aliceParty()],
      commands: [
        { ExerciseCommand: { templateId: `${node.ctx.world.amuletPackage}:Splice.Amulet:Amulet`, contractId, choice: 'Archive', choiceArgument: {} } },
      ],
    };
    expect((await post('/v2/commands/submit-and-wait', archive)).json()).toMatchObject({ code: 'CONTRACT_NOT_FOUND' });
    const again = await post('/v2/commands/submit-and-wait-for-reassignment', move('r-out-2', unassign.reassignmentCommands.commands[0]!.command));
    expect([again.statusCode, again.json().code]).toEqual([409, 'FAILED_PRECONDITION']);

    const assign = move('r-in', { AssignCommand: { value: { reassignmentId: unassigned.reassignmentId, source, target } } });
    const into = (await post('/v2/commands/submit-and-wait-for-reassignment', assign)).json().reassignment;
    expect(into).toMatchObject({ offset: offset + 2, commandId: 'r-in', synchronizerId: target, events: [] });
    expect((await post('/v2/commands/submit-and-wait-for-reassignment', move('r-in-2', assign.reassignmentCommands.commands[0]!.command))).statusCode).toBe(
      409,
    );

    const stream = (await post('/v2/updates?stream_idle_timeout_ms=1', { beginExclusive: offset, updateFormat: { includeReassignments: aliceFormat } })).json();
    const events = stream.map((e: { update: { Reassignment: { value: { events: Record<string, unknown>[] } } } }) => e.update.Reassignment.value.events[0]);
    expect(events[0].JsUnassignedEvent.value).toEqual(unassigned);
    expect(events[1].JsAssignmentEvent).toMatchObject({ reassignmentId: unassigned.reassignmentId, source, target, reassignmentCounter: 1 });
    expect(events[1].JsAssignmentEvent.createdEvent).toMatchObject({ contractId, offset: offset + 2 });

    const completions = (await post('/v2/commands/completions?stream_idle_timeout_ms=1', { parties: [aliceParty()], beginExclusive: offset })).json();
    expect(
      completions.map((c: { completionResponse: { Completion: { value: Record<string, unknown> } } }) => c.completionResponse.Completion.value),
    ).toMatchObject([
      { commandId: 'r-out', updateId: out.updateId, offset: offset + 1, synchronizerTime: { synchronizerId: source } },
      { commandId: 'r-in', updateId: into.updateId, offset: offset + 2, synchronizerTime: { synchronizerId: target } },
    ]);
    // Assigned, the contract is used where it lives now.
    expect((await post('/v2/commands/submit-and-wait', { ...archive, commandId: 'r-archive-2' })).statusCode).toBe(200);
    const lookup = (await post('/v2/events/events-by-contract-id', { contractId })).json();
    expect([lookup.created.synchronizerId, lookup.archived.synchronizerId]).toEqual([source, target]);
  });

  it('refuses a foreign submitter (403), an unknown contract (404), the wrong source (409) and a bad shape (plain-text 400)', async () => {
    const { contractId, source, target } = await aliceContract('r-create-2');
    const bob = node.ctx.world.walletUsers.get('bob-wallet')!;
    const unassign = { UnassignCommand: { value: { contractId, source, target } } };
    const url = '/v2/commands/submit-and-wait-for-reassignment';
    expect((await post(url, move('r-bob', unassign, bob))).statusCode).toBe(403);
    expect((await post('/v2/commands/async/submit-reassignment', move('r-bob', unassign, bob))).statusCode).toBe(403);
    const unknown = await post(url, move('r-unknown', { UnassignCommand: { value: { contractId: `00${'0'.repeat(72)}`, source, target } } }));
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    const wrong = await post(url, move('r-wrong', { UnassignCommand: { value: { contractId, source: target, target: source } } }));
    expect([wrong.statusCode, wrong.headers['content-type']]).toEqual([409, expect.stringMatching(/^application\/json/)]);
    const bad = await post(url, move('r-bad', { UnassignCommand: { value: { contractId, source } } }));
    expect([bad.statusCode, bad.headers['content-type']]).toEqual([400, expect.stringMatching(/^text\/plain/)]);
    expect(node.ctx.world.submitted).toHaveLength(1);
    expect((await post('/v2/commands/async/submit-reassignment', move('r-async', unassign))).json()).toEqual({});
    expect(node.ctx.world.submitted.at(-1)).toMatchObject({ kind: 'unassign', reassignmentCounter: 1, commandId: 'r-async' });
    expect((await post(url, move('r-async', unassign))).json()).toMatchObject({ code: 'DUPLICATE_COMMAND' });
  });
});
