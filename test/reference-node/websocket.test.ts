// The reference node's ledger WebSocket channels (facts: websocket-stream): on the node's own port, the token in
// the subprotocols, one request message, then one message per element; the same stream as POST /v2/updates
// without its list limit, live when open-ended; the completion channels; the active contracts at an offset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceNode, startReferenceNode } from '../../reference-node/index.ts';
import { ANY, byParty, everything, type Json, kindOf, offsetsOf, partyOf, recordOf, stream, transactions, txFormat } from '../support/ledger-requests.ts';
import { call } from '../support/response-conformance.ts';
import { AUTH_PROTOCOL, type OpenChannel, openChannel, readChannel } from '../support/ws-requests.ts';

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode();
});
afterAll(() => node?.close());

const alice = () => node.credentials.ledgerUserToken;
const aliceParty = () => alice().readAs[0]!;
const window = (o: Json = {}) => ({ beginExclusive: 0, endInclusive: 100, updateFormat: everything(ANY), ...o });
const ledgerEnd = async () =>
  ((await call(`${node.urls.ledger}/v2/state/ledger-end`, { headers: { authorization: `Bearer ${alice().token}` } })).json() as Json).offset as number;
/** alice creates an amulet of her own, waiting for it: the update id. */
const aliceCreates = async (commandId: string) => {
  const command = {
    CreateCommand: { templateId: `${node.context.world.amuletPackage}:Splice.Amulet:Amulet`, createArguments: { owner: aliceParty(), amount: '1.0' } },
  };
  const res = await call(`${node.urls.ledger}/v2/commands/submit-and-wait`, {
    method: 'POST',
    headers: { authorization: `Bearer ${alice().token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ commandId, actAs: [aliceParty()], commands: [command] }),
  });
  expect(res.status).toBe(200);
  return (res.json() as Json).updateId as string;
};
const opened = async (path: string, request: unknown, token?: string): Promise<OpenChannel> => {
  const ch = await openChannel(node, path, { request, token });
  if (ch.refused) throw new Error(`refused with ${ch.status}`);
  return ch;
};

describe('the ledger WebSocket channels', () => {
  it('accept the token of the subprotocols with daml.ws.auth, and refuse an upgrade without any token (401) or on no channel (404)', async () => {
    const ok = await readChannel(node, '/v2/updates', { request: window({ endInclusive: 10 }) });
    expect([ok.protocol, ok.close?.code]).toEqual([AUTH_PROTOCOL, 1000]);
    const anonymous = await readChannel(node, '/v2/updates', { token: null, request: window() });
    expect(anonymous.refused?.status).toBe(401);
    expect(JSON.parse(anonymous.refused!.body).code).toBe('UNAUTHENTICATED');
    expect((await readChannel(node, '/v2/no-such-channel', { request: window() })).refused?.status).toBe(404);
  });

  it('answer a bad token, missing read rights and a bad request with one JsCantonError message, then a normal close', async () => {
    const refused = async (request: unknown, token?: string) => {
      const { messages, close } = await readChannel(node, '/v2/updates', { request, token });
      expect(messages, JSON.stringify(request)).toHaveLength(1);
      expect(messages[0]).toMatchObject({ cause: expect.any(String), context: expect.any(Object), errorCategory: expect.any(Number) });
      expect(close?.code).toBe(1000);
      return messages[0]!.code;
    };
    expect(await refused(window(), 'not.a.token')).toBe('UNAUTHENTICATED');
    const bob = partyOf(node.context.world, 'bob');
    expect(await refused(window({ updateFormat: txFormat(byParty([bob])) }), alice().token)).toBe('PERMISSION_DENIED');
    expect(await refused('{"beginExclusive": ')).toBe('INVALID_ARGUMENT');
    expect(await refused({ beginExclusive: 'zero', updateFormat: everything(ANY) })).toBe('INVALID_ARGUMENT');
    expect(await refused({ beginExclusive: 0, descendingOrder: true, updateFormat: everything(ANY) })).toBe('INVALID_ARGUMENT');
  });

  it('deliver a bounded read as POST /v2/updates answers it, in every request form', async () => {
    const forms = [
      window(),
      window({ beginExclusive: 30, endInclusive: 300, descendingOrder: true }),
      window({ updateFormat: txFormat(byParty([aliceParty()]), 'TRANSACTION_SHAPE_LEDGER_EFFECTS') }),
      { beginExclusive: 0, endInclusive: 150, filter: byParty([aliceParty()]), verbose: true },
    ];
    for (const request of forms) {
      const ws = await readChannel(node, '/v2/updates', { request });
      expect(ws.close?.code).toBe(1000);
      expect(ws.messages).toEqual((await stream(node, request)).json());
    }
  });

  it('deliver whole a window that POST /v2/updates refuses with 413', async () => {
    const request = window({ endInclusive: 1000 });
    expect((await stream(node, request)).status).toBe(413);
    const { messages, close } = await readChannel(node, '/v2/updates', { request });
    expect(close?.code).toBe(1000);
    expect(messages.length).toBeGreaterThan(node.context.settings.listLimit);
    const offsets = offsetsOf(messages);
    expect(offsets.every((o, i) => i === 0 || o > offsets[i - 1]!)).toBe(true);
    expect(offsets.at(-1)).toBeLessThanOrEqual(1000);
  });

  it('go on with what is committed after an open-ended read opened, until the client closes', async () => {
    const ch = await opened('/v2/updates', { beginExclusive: await ledgerEnd(), updateFormat: txFormat(byParty([aliceParty()])) }, alice().token);
    const updateId = await aliceCreates('ws-test-live');
    expect(await ch.waitFor((ms) => transactions(ms).some((tx) => tx.updateId === updateId))).toBe(true);
    expect(transactions(ch.messages).find((tx) => tx.updateId === updateId)?.commandId).toBe('ws-test-live');
    expect(await ch.close()).toBe(true);
    expect((await ch.closed).code).toBe(1000);
  });

  it('deliver the completion of a later command on both completion channels', async () => {
    const begin = await ledgerEnd();
    const channels = await Promise.all([
      opened('/v2/commands/completions', { userId: alice().user, parties: [aliceParty()], beginExclusive: begin }, alice().token),
      opened('/v2/commands/command-completions', { parties: [aliceParty()], beginExclusive: begin }, alice().token),
    ]);
    await aliceCreates('ws-test-completion');
    for (const ch of channels) {
      const completed = (ms: Json[]) => ms.some((m) => m.completionResponse?.Completion?.value.commandId === 'ws-test-completion');
      expect(await ch.waitFor(completed)).toBe(true);
      expect(ch.messages[0]!.completionResponse.Completion.value).toMatchObject({ userId: alice().user, actAs: [aliceParty()], status: { code: 0 } });
      await ch.close();
    }
  });

  it('send the contracts active at an offset (created, not archived; in flight: unassigned), then close', async () => {
    // The offset of an unassignment whose assignment comes later (the base history's reassignment pairs).
    const moves = (await stream(node, { beginExclusive: 0, endInclusive: 100, updateFormat: { includeReassignments: ANY } })).json() as Json[];
    const moved = (e: Json) => (recordOf(e).events as Json[])[0]!;
    const at = offsetsOf(
      moves.filter((e, i) => {
        const id = moved(e).JsUnassignedEvent?.value.contractId;
        return id !== undefined && moves.slice(i + 1).some((later) => moved(later).JsAssignmentEvent?.createdEvent.contractId === id);
      }),
    ).at(-1)!;
    const { messages, close } = await readChannel(node, '/v2/state/active-contracts', { request: { activeAtOffset: at, eventFormat: ANY } });
    expect(close?.code).toBe(1000);
    // What the update stream up to the offset says: creations and assignments less archives, unassigned ones in flight.
    const history = (await stream(node, { beginExclusive: 0, endInclusive: at, updateFormat: everything(ANY) })).json() as Json[];
    const created = new Map<string, Json>();
    const inFlight = new Set<string>();
    let archives = 0;
    for (const e of history) {
      for (const ev of (recordOf(e).events as Json[] | undefined) ?? []) {
        const c = ev.CreatedEvent ?? ev.JsAssignmentEvent?.createdEvent;
        if (c) created.set(c.contractId, c);
        if (ev.JsAssignmentEvent) inFlight.delete(c.contractId);
        if (ev.ArchivedEvent) archives += created.delete(ev.ArchivedEvent.contractId) ? 1 : 0;
        if (ev.JsUnassignedEvent) inFlight.add(ev.JsUnassignedEvent.value.contractId);
      }
    }
    expect([inFlight.size, archives].every((n) => n > 0)).toBe(true);
    const entries = messages.map((m) => m.contractEntry as Json);
    const active = entries.flatMap((c) => (c.JsActiveContract ? [c.JsActiveContract] : []));
    const unassigned = entries.flatMap((c) => (c.JsIncompleteUnassigned ? [c.JsIncompleteUnassigned] : []));
    expect(active.length + unassigned.length).toBe(messages.length);
    expect(new Set(unassigned.map((u) => u.unassignedEvent.contractId))).toEqual(inFlight);
    expect(active.map((a) => a.createdEvent.contractId).sort()).toEqual([...created.keys()].filter((id) => !inFlight.has(id)).sort());
    for (const a of active) expect(a.createdEvent).toEqual(created.get(a.createdEvent.contractId));
    expect(active.every((a) => typeof a.synchronizerId === 'string' && Number.isInteger(a.reassignmentCounter))).toBe(true);
    // A snapshot past the ledger end cannot be taken.
    const beyond = await readChannel(node, '/v2/state/active-contracts', { request: { activeAtOffset: (await ledgerEnd()) + 1, eventFormat: ANY } });
    expect(beyond.messages.map((m) => m.code)).toEqual(['OFFSET_AFTER_LEDGER_END']);
  });

  it('read and write offsets in the numbering of a node with shifted offsets, as its HTTP endpoints do', async () => {
    const own = await startReferenceNode({ offsetShift: 1000 });
    try {
      const request = window({ beginExclusive: 1000, endInclusive: 1100 });
      const ws = await readChannel(own, '/v2/updates', { request });
      expect(offsetsOf(ws.messages)[0]).toBeGreaterThan(1000);
      expect(ws.messages).toEqual((await stream(own, request)).json());
    } finally {
      await own.close();
    }
  });

  it('are closed (1001) when the node stops', async () => {
    const own = await startReferenceNode();
    const ch = await openChannel(own, '/v2/updates', { request: { beginExclusive: 0, updateFormat: txFormat(ANY) } });
    if (ch.refused) throw new Error('refused');
    await own.close();
    expect((await ch.closed).code).toBe(1001);
  });

  it('of release line 3.4: the flat and tree channels, and no command-completions', async () => {
    const own = await startReferenceNode({ releases: { ledger: '3.4' } });
    try {
      const request = { beginExclusive: 0, endInclusive: 60, filter: ANY };
      const trees = await readChannel(own, '/v2/updates/trees', { request });
      expect(new Set(trees.messages.map(kindOf))).toContain('TransactionTree');
      expect((await readChannel(own, '/v2/updates/flats', { request })).messages).toEqual((await stream(own, request)).json());
      expect((await readChannel(own, '/v2/commands/command-completions', { request: { parties: [] } })).refused?.status).toBe(404);
    } finally {
      await own.close();
    }
  });
});
