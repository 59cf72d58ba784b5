// A reference node playing an older release (ReferenceNodeOptions.releases): the scan serves the routes the
// description dates only from their release on (and the root-hash path of its release), the ledger of line
// 3.4 answers as that line and has no command-completions; a route a release lacks answers as an unknown
// path does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObject, type Json } from '../../common/json.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { buildContext } from '../../reference-node/server.ts';
import { SPLICE_RELEASE } from '../../reference-node/splice-version.ts';
import { call } from '../support/response-conformance.ts';

type Res = Awaited<ReturnType<typeof call>>;

const OLD_ROOT_HASH = '/v0/reward-accounting-process/rounds/1/root-hash';
const NEW_ROOT_HASH = '/v0/internal/reward-accounting-process/rounds/1/root-hash';

/** One request per dated scan route, with arguments any node can take (a served route answers 200 or its own JSON error). */
const DATED: Record<string, { method: 'GET' | 'POST'; path: string }> = {
  getHoldingsStateV1: { method: 'POST', path: '/v1/holdings/state' },
  downloadBulkHistoryObject: { method: 'GET', path: '/v0/history/bulk/download/no-such-object' },
  listBulkHistoryUpdates: { method: 'POST', path: '/v0/history/bulk/updates' },
  getPartyToParticipantV1: { method: 'GET', path: '/v1/domains/no-such-domain/parties/no-such-party/participant-id' },
  getPreviousSvRewardWeight: { method: 'POST', path: '/v0/admin/sv/previous-sv-reward-weight' },
  rootHashOldPath: { method: 'GET', path: OLD_ROOT_HASH },
  rootHashNewPath: { method: 'GET', path: NEW_ROOT_HASH },
};

/** Routes the description does not date: served at every release. */
const UNDATED: Record<string, { method: 'GET' | 'POST'; path: string }> = {
  getHoldingsStateV0: { method: 'POST', path: '/v0/holdings/state' },
  getHoldingsStateV2: { method: 'POST', path: '/v2/holdings/state' },
  getUpdateByIdV0: { method: 'GET', path: '/v0/updates/no-such-update' },
  getUpdateByIdV2: { method: 'GET', path: '/v2/updates/no-such-update' },
  earliestRootHashRound: { method: 'GET', path: '/v0/internal/reward-accounting-process/rounds/earliest-available' },
};

const scan = (node: RunningReferenceNode, r: { method: 'GET' | 'POST'; path: string }) =>
  call(node.urls.scan + r.path, r.method === 'POST' ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' } : {});

/** The answer of the node's HTTP layer to a path nothing serves. */
const unknownPath = (node: RunningReferenceNode) => call(`${node.urls.scan}/v0/no-such-route`);
const answer = (r: Res) => ({ status: r.status, contentType: r.contentType, text: r.text });

/** Which of the dated routes the node serves, by name. */
async function served(node: RunningReferenceNode): Promise<string[]> {
  const unknown = answer(await unknownPath(node));
  const out: string[] = [];
  for (const [name, r] of Object.entries(DATED)) if (JSON.stringify(answer(await scan(node, r))) !== JSON.stringify(unknown)) out.push(name);
  return out;
}

const started: RunningReferenceNode[] = [];
const start = async (options: Parameters<typeof startReferenceNode>[0]) => {
  const node = await startReferenceNode({ scale: 0.05, ...options });
  started.push(node);
  return node;
};
afterAll(async () => {
  await Promise.all(started.map((n) => n.close()));
});

describe('the scan at an older release', () => {
  let old: RunningReferenceNode;
  let current: RunningReferenceNode;
  beforeAll(async () => {
    [old, current] = await Promise.all([start({ releases: { scan: '0.5.13' } }), start({})]);
  });

  it('states its release at GET /version; the validator still states its own', async () => {
    expect((await call(`${old.urls.scan}/version`)).json()).toEqual({ version: '0.5.13', commit_ts: expect.any(String) });
    expect(((await call(`${old.urls.validator}/version`)).json() as { version: string }).version).toBe(SPLICE_RELEASE);
    expect(((await call(`${current.urls.scan}/version`)).json() as { version: string }).version).toBe(SPLICE_RELEASE);
  });

  it('answers a route of a later release exactly as an unknown path: the plain-text 404 of the HTTP layer', async () => {
    const unknown = answer(await unknownPath(old));
    expect(unknown).toEqual({ status: 404, contentType: 'text/plain; charset=UTF-8', text: 'The requested resource could not be found.' });
    for (const name of [
      'getHoldingsStateV1',
      'getPreviousSvRewardWeight',
      'listBulkHistoryUpdates',
      'downloadBulkHistoryObject',
      'getPartyToParticipantV1',
      'rootHashNewPath',
    ])
      expect({ name, ...answer(await scan(old, DATED[name]!)) }).toEqual({ name, ...unknown });
  });

  it('serves the root hash at the path before 0.6.5, with the answers the newer path gives', async () => {
    const before = await scan(old, DATED.rootHashOldPath!);
    expect(before.status).toBe(200);
    expect(answer(before)).toEqual(answer(await scan(current, DATED.rootHashNewPath!)));
    const missing = await call(`${old.urls.scan}/v0/reward-accounting-process/rounds/999999999/root-hash`);
    expect(answer(missing)).toEqual(answer(await call(`${current.urls.scan}/v0/internal/reward-accounting-process/rounds/999999999/root-hash`)));
    expect(missing.status).toBe(404);
    expect(missing.contentType).toMatch(/^application\/json/);
  });

  it('serves what the description does not date at every release', async () => {
    const unknown = answer(await unknownPath(old));
    for (const [name, r] of Object.entries(UNDATED)) {
      const res = answer(await scan(old, r));
      expect({ name, res }).not.toEqual({ name, res: unknown });
      expect(res).toEqual(answer(await scan(current, r)));
    }
  });
});

describe('the dated scan routes, release by release', () => {
  const ALL = Object.keys(DATED).filter((n) => n !== 'rootHashOldPath');
  it.each([
    ['0.5.13', ['rootHashOldPath']],
    ['0.5.16', ['downloadBulkHistoryObject', 'rootHashOldPath']],
    ['0.5.17', ['downloadBulkHistoryObject', 'getPartyToParticipantV1', 'rootHashOldPath']],
    ['0.5.18', ['downloadBulkHistoryObject', 'listBulkHistoryUpdates', 'getPartyToParticipantV1', 'rootHashOldPath']],
    ['0.6.4', ['getHoldingsStateV1', 'downloadBulkHistoryObject', 'listBulkHistoryUpdates', 'getPartyToParticipantV1', 'rootHashOldPath']],
    ['0.6.5', ['getHoldingsStateV1', 'downloadBulkHistoryObject', 'listBulkHistoryUpdates', 'getPartyToParticipantV1', 'rootHashNewPath']],
    ['0.6.9', ALL],
    // Compared part by part: 0.10.0 is after 0.6.9.
    ['0.10.0', ALL],
    [undefined, ALL],
  ])('at %s', async (release, expected) => {
    const node = await start({ releases: { scan: release } });
    expect(await served(node)).toEqual(Object.keys(DATED).filter((n) => expected.includes(n)));
  });
});

describe('a scan stating another release than it plays', () => {
  it('states scanStated at GET /version and serves what its release has', async () => {
    const node = await start({ releases: { scan: '0.5.13', scanStated: '0.7.5' } });
    expect(((await call(`${node.urls.scan}/version`)).json() as { version: string }).version).toBe('0.7.5');
    expect(await served(node)).toEqual(['rootHashOldPath']);
  });
});

describe('the ledger at release line 3.4', () => {
  let old: RunningReferenceNode;
  let current: RunningReferenceNode;
  beforeAll(async () => {
    [old, current] = await Promise.all([start({ releases: { ledger: '3.4' } }), start({})]);
  });
  const admin = (node: RunningReferenceNode) => ({ authorization: `Bearer ${node.credentials.ledgerAdminToken}`, 'content-type': 'application/json' });
  const post = (node: RunningReferenceNode, path: string, body: unknown) =>
    call(`${node.urls.ledger}${path}`, { method: 'POST', headers: admin(node), body: JSON.stringify(body) });

  it('states a 3.4 version', async () => {
    expect(((await call(`${old.urls.ledger}/v2/version`, { headers: admin(old) })).json() as { version: string }).version).toMatch(/^3\.4\.\d+$/);
    expect(((await call(`${current.urls.ledger}/v2/version`, { headers: admin(current) })).json() as { version: string }).version).toMatch(/^3\.5\./);
  });

  it('answers POST /v2/commands/command-completions (since 3.5) as an unknown path; the completions of 3.4 are served', async () => {
    const party = old.context.world.parties[0]!.id;
    const body = { parties: [party], beginExclusive: 0 };
    const unknown = answer(await post(old, '/v2/no-such-route', body));
    expect(unknown.status).toBe(404);
    expect(answer(await post(old, '/v2/commands/command-completions?stream_idle_timeout_ms=5', body))).toEqual(unknown);
    expect((await post(current, '/v2/commands/command-completions?stream_idle_timeout_ms=5', body)).status).toBe(200);
    expect((await post(old, '/v2/commands/completions?stream_idle_timeout_ms=5', body)).status).toBe(200);
  });

  it('writes events without acsDelta and representativePackageId, as the deviation ledger-pre-3-5 does', async () => {
    const events = async (node: RunningReferenceNode) => {
      const parties = node.context.world.parties.filter((p) => p.hostedOn.includes(node.context.world.ledgerParticipant.id)).map((p) => p.id);
      const filtersByParty = Object.fromEntries(parties.map((p) => [p, { cumulative: [{ identifierFilter: { WildcardFilter: { value: {} } } }] }]));
      const res = await post(node, '/v2/updates', {
        beginExclusive: 0,
        endInclusive: 100,
        updateFormat: { includeTransactions: { eventFormat: { filtersByParty }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
      });
      expect(res.status).toBe(200);
      const out: Record<string, Json>[] = [];
      for (const el of res.json() as Json[]) {
        const tx = isObject(el) && isObject(el.update) && isObject(el.update.Transaction) ? el.update.Transaction.value : undefined;
        if (!isObject(tx) || !Array.isArray(tx.events)) continue;
        for (const wrapped of tx.events) if (isObject(wrapped) && isObject(wrapped.CreatedEvent)) out.push(wrapped.CreatedEvent);
      }
      expect(out.length).toBeGreaterThan(0);
      return out;
    };
    for (const ev of await events(old)) {
      expect(ev).not.toHaveProperty('acsDelta');
      expect(ev).not.toHaveProperty('representativePackageId');
    }
    for (const ev of await events(current)) expect(ev).toHaveProperty('acsDelta');
  });

  it('reads the line from 3.4.x and 3.5.x too', () => {
    expect(buildContext({ releases: { ledger: '3.4.7' } }).release.ledger).toBe('3.4');
    expect(buildContext({ releases: { ledger: '3.4.x' } }).release.ledger).toBe('3.4');
    expect(buildContext({ releases: { ledger: '3.5.14' } }).release.ledger).toBe('3.5');
  });
});

describe('release options of the wrong form', () => {
  it.each(['0.5', 'v0.5.13', '0.5.13-rc1', '', 'latest'])('refuse scan %j, naming the option and the form', (scan) => {
    expect(() => buildContext({ releases: { scan } })).toThrow(`releases.scan must be a Splice release x.y.z (digits, e.g. ${SPLICE_RELEASE}), got "${scan}"`);
  });
  it.each(['3.3', '3.6', '3', '3.4.1.2', 'v3.4'])('refuse ledger %j, naming the option and the form', (ledger) => {
    expect(() => buildContext({ releases: { ledger } })).toThrow(`releases.ledger must be a ledger release line 3.4 or 3.5 (or 3.4.x, 3.5.x), got "${ledger}"`);
  });
  it('default to the newest of each', () => {
    expect(buildContext().release).toEqual({ scan: SPLICE_RELEASE, scanStated: SPLICE_RELEASE, ledger: '3.5' });
  });
});
