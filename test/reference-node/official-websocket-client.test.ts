// The reference node's ledger WebSocket channels driven through the network's official client
// (@canton-network/core-asyncapi-client): it opens them as real nodes expect (the token in the subprotocols, the
// deprecated filter form of the request) through the global WebSocket, which Node 20 lacks: undici's stands in
// for this file only.
import { WebSocketClient } from '@canton-network/core-asyncapi-client';
import { WebSocket as UndiciWebSocket } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningReferenceNode, startReferenceNode } from '../../reference-node/index.ts';
import { type Json, stream } from '../support/ledger-requests.ts';
import { call } from '../support/response-conformance.ts';

const globals = globalThis as { WebSocket?: unknown };
let node: RunningReferenceNode;
let before: unknown;
beforeAll(async () => {
  node = await startReferenceNode();
  before = globals.WebSocket;
  globals.WebSocket = UndiciWebSocket;
});
afterAll(async () => {
  globals.WebSocket = before;
  await node?.close();
});

const alice = () => node.credentials.ledgerUserToken;
const aliceParty = () => alice().readAs[0]!;
const amulet = () => `${node.context.world.amuletPackage}:Splice.Amulet:Amulet`;
/** The client logs through pino at level info; the test wants silence (its logger is its own, made in the constructor). */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const client = () => {
  const token = alice().token;
  const c = new WebSocketClient({
    baseUrl: node.urls.ledger.replace(/^http/, 'ws'),
    accessTokenProvider: { getAccessToken: async () => token, getAuthContext: async () => ({ userId: alice().user, accessToken: token }) },
    version: '3.5',
  });
  Object.assign(c, { logger: silent });
  return c;
};

describe('the official WebSocket client', () => {
  it('streams a bounded window of updates as POST /v2/updates answers the request it sends', async () => {
    const received: unknown[] = [];
    for await (const update of client().streamUpdates({ beginExclusive: 0, endInclusive: 150, partyId: aliceParty(), templateIds: [amulet()] }))
      received.push(update);
    // The request it sends: the deprecated filter of one party's template, with blobs, verbose.
    const template = { TemplateFilter: { value: { templateId: amulet(), includeCreatedEventBlob: true } } };
    const request = {
      beginExclusive: 0,
      endInclusive: 150,
      verbose: true,
      filter: { filtersByParty: { [aliceParty()]: { cumulative: [{ identifierFilter: template }] } } },
    };
    const http = (await stream(node, request, { token: alice().token })).json() as Json[];
    expect(http.some((e) => 'Transaction' in e.update)).toBe(true);
    expect(received).toEqual(http);
  });

  it('streams the completion of a command submitted while it listens', async () => {
    const headers = { authorization: `Bearer ${alice().token}`, 'content-type': 'application/json' };
    const end = ((await call(`${node.urls.ledger}/v2/state/ledger-end`, { headers })).json() as Json).offset as number;
    const completions = client().streamCompletions({ beginExclusive: end, userId: alice().user, parties: [aliceParty()] });
    const first = completions.next();
    const command = { CreateCommand: { templateId: amulet(), createArguments: { owner: aliceParty(), amount: '2.0' } } };
    const body = JSON.stringify({ commandId: 'official-ws-client', actAs: [aliceParty()], commands: [command] });
    expect((await call(`${node.urls.ledger}/v2/commands/submit-and-wait`, { method: 'POST', headers, body })).status).toBe(200);
    const { value } = await first;
    await completions.return?.(undefined);
    expect(value?.completionResponse).toMatchObject({ Completion: { value: { commandId: 'official-ws-client', userId: alice().user } } });
  });
});
