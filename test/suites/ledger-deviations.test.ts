// The ledger's real-world deviations, shown on the wire: a node with one switched on really answers the way
// production nodes do (and differs from a clean node of the same seed in nothing else), and the suite's own
// readers of those answers take them as real nodes mean them. The MUST/SHOULD proof of each is in
// deviations.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isObject, type Json } from '../../common/json.ts';
import { responseProblems } from '../../generators/index.ts';
import { LEDGER_DEVIATIONS } from '../../reference-node/ledger/deviations.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { CheckSkipped } from '../../engine/model.ts';
import { ledgerReleaseLine, parseReleaseLine, predates, type ReleaseLineContext } from '../../interfaces/ledger/release-line.ts';
import { cantonErrorProblems } from '../../requirements/ledger/updates/errors.ts';
import { LEDGER_REQUIREMENTS } from '../../requirements/ledger/index.ts';
import { RunCache, sharing } from '../../engine/run-cache.ts';
import { loadedSpecs, runAgainst } from '../support/suite-harness.ts';

const nodes: Record<'clean' | 'errorNulls' | 'nullFields' | 'pre35', RunningReferenceNode> = {} as never;

beforeAll(async () => {
  [nodes.clean, nodes.errorNulls, nodes.nullFields, nodes.pre35] = await Promise.all([
    startReferenceNode(),
    startReferenceNode({ faults: ['ledger-error-null-fields'] }),
    startReferenceNode({ faults: ['ledger-null-optional-fields'] }),
    startReferenceNode({ faults: ['ledger-pre-3-5'] }),
  ]);
});
afterAll(async () => {
  await Promise.all(Object.values(nodes).map((n) => n?.close()));
});

const hosted = (node: RunningReferenceNode) =>
  node.context.world.parties.filter((p) => p.hostedOn.includes(node.context.world.ledgerParticipant.id)).map((p) => p.id);

/** A bounded read of every kind as the hosted parties; blobs asked for when `blobs`. */
async function read(node: RunningReferenceNode, shape: 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS', blobs = false) {
  const filters = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: blobs } } } }] };
  const filtersByParty = Object.fromEntries(hosted(node).map((p) => [p, filters]));
  const res = await fetch(`${node.urls.ledger}/v2/updates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${node.credentials.ledgerAdminToken}` },
    body: JSON.stringify({
      beginExclusive: 0,
      endInclusive: 300,
      updateFormat: {
        includeTransactions: { eventFormat: { filtersByParty }, transactionShape: shape },
        includeReassignments: { filtersByParty },
        includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
      },
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Json[];
}

interface Difference {
  path: string;
  key: string;
  clean: unknown;
  deviating: unknown;
}

/** Where two JSON values differ: each property present on one side only or with another value. */
function differences(clean: unknown, deviating: unknown, path = '', key = ''): Difference[] {
  if (Array.isArray(clean) && Array.isArray(deviating) && clean.length === deviating.length)
    return clean.flatMap((c, i) => differences(c, deviating[i], `${path}/${i}`, key));
  if (isObject(clean) && isObject(deviating)) {
    const keys = [...new Set([...Object.keys(clean), ...Object.keys(deviating)])];
    return keys.flatMap((k) => differences(clean[k], deviating[k], `${path}/${k}`, k));
  }
  return JSON.stringify(clean) === JSON.stringify(deviating) ? [] : [{ path, key, clean, deviating }];
}

/** The value without its null-valued properties (what a null-tolerant judge reads). */
const withoutNulls = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutNulls)
    : isObject(v)
      ? Object.fromEntries(Object.entries(v).flatMap(([k, x]) => (x === null ? [] : [[k, withoutNulls(x)]])))
      : v;

const events = (els: Json[], kind: string): Json[] =>
  els.flatMap((e) => (e.update.Transaction ? (e.update.Transaction.value.events as Json[]).flatMap((w) => (w[kind] ? [w[kind]] : [])) : []));
const records = (els: Json[], kind: string): Json[] => els.flatMap((e) => (e.update[kind] ? [e.update[kind].value] : []));

describe('the ledger deviations', () => {
  it('name operations of the built-in ledger document', async () => {
    const ops = new Set((await loadedSpecs()).ledger.catalog.operations.map((o) => o.id));
    for (const d of LEDGER_DEVIATIONS) for (const op of d.operations ?? []) expect(ops.has(op), `${d.name}: ${op}`).toBe(true);
  });
});

describe('ledger-error-null-fields', () => {
  it('sends correlationId, definiteAnswer and retryInfo as null in every JsCantonError, and nothing else changes', async () => {
    const probes = [
      { path: '/v2/updates', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"beginExclusive": 0}' } }, // 401
      { path: '/v2/packages/no-such-package', init: {} }, // 404
      { path: '/v2/events/events-by-contract-id', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' } }, // 400
    ];
    for (const p of probes) {
      const clean = await fetch(`${nodes.clean.urls.ledger}${p.path}`, p.init);
      const deviating = await fetch(`${nodes.errorNulls.urls.ledger}${p.path}`, p.init);
      expect(deviating.status, p.path).toBe(clean.status);
      const [c, d] = [await clean.json(), await deviating.json()];
      expect(d, p.path).toMatchObject({ correlationId: null, definiteAnswer: null, retryInfo: null });
      // The clean node's definiteAnswer false becomes null; the rest is the same error.
      expect(
        differences(c, d).map((x) => x.key),
        p.path,
      ).toEqual(['definiteAnswer', 'correlationId', 'retryInfo']);
    }
  });

  it("the stream's 400 stays plain text", async () => {
    const res = await fetch(`${nodes.errorNulls.urls.ledger}/v2/updates?limit=ten`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${nodes.errorNulls.credentials.ledgerAdminToken}` },
      body: '{"beginExclusive": 0}',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('LEDGER-UPDATES-ERROR-BODY reads the nulls as absent, and passes', async () => {
    const rule = LEDGER_REQUIREMENTS.filter((r) => r.id === 'LEDGER-UPDATES-ERROR-BODY');
    const [result] = await runAgainst(nodes.errorNulls, rule);
    expect(`${result?.status} ${result?.reason ?? ''}`).toBe('passed ');
  });
});

describe('cantonErrorProblems', () => {
  const base = { code: 'NOT_FOUND', cause: 'gone', context: {}, errorCategory: 11 };
  it('reads an optional field sent as null as absent', () => {
    expect(
      cantonErrorProblems(JSON.stringify({ ...base, correlationId: null, traceId: null, retryInfo: null, definiteAnswer: null, resources: null })),
    ).toEqual([]);
  });
  it('still refuses a required field sent as null, and an optional one of the wrong type', () => {
    expect(cantonErrorProblems(JSON.stringify({ ...base, code: null })).map((p) => p.pointer)).toEqual(['/code']);
    expect(cantonErrorProblems(JSON.stringify({ ...base, definiteAnswer: 'no' })).map((p) => p.pointer)).toEqual(['/definiteAnswer']);
  });
});

describe('ledger-null-optional-fields', () => {
  /** What the deviation may change: a null for an absent optional field, "" for an unrequested blob or command id. */
  const allowed: Record<string, (clean: unknown, deviating: unknown) => boolean> = {
    interfaceId: (c, d) => c === undefined && d === null,
    contractKey: (c, d) => c === undefined && d === null,
    externalTransactionHash: (c, d) => c === undefined && d === null,
    createdEventBlob: (c, d) => c === undefined && d === '',
    commandId: (c, d) => c === undefined && d === '',
    traceContext: (c, d) => c === undefined && isObject(d) && typeof d.traceparent === 'string' && d.tracestate === null,
  };

  it.each(['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const)(
    '%s: the stream differs from a clean node only by those nulls and empty strings, and validates once the nulls are dropped',
    async (shape) => {
      const [clean, deviating] = await Promise.all([read(nodes.clean, shape), read(nodes.nullFields, shape)]);
      const diffs = differences(clean, deviating);
      expect(diffs.filter((x) => !allowed[x.key]?.(x.clean, x.deviating))).toEqual([]);
      // Each field the facts name shows up.
      const keys = new Set(diffs.map((x) => x.key));
      for (const k of ['contractKey', 'createdEventBlob', 'commandId', 'traceContext', 'externalTransactionHash']) expect(keys.has(k), k).toBe(true);
      if (shape === 'TRANSACTION_SHAPE_LEDGER_EFFECTS') expect(keys.has('interfaceId')).toBe(true);
      // Present values stay: some transaction keeps its hash, and the submitter's reads keep their command ids.
      const txs = records(deviating, 'Transaction');
      expect(txs.some((t) => typeof t.externalTransactionHash === 'string')).toBe(true);
      expect(txs.some((t) => typeof t.commandId === 'string' && t.commandId !== '')).toBe(true);
      const { ledger } = await loadedSpecs();
      expect(responseProblems(ledger, 'getUpdates', { status: 200, contentType: 'application/json', text: JSON.stringify(withoutNulls(deviating)) })).toEqual(
        [],
      );
    },
  );

  it('a requested blob is sent as it is, not as ""', async () => {
    const created = events(await read(nodes.nullFields, 'TRANSACTION_SHAPE_ACS_DELTA', true), 'CreatedEvent');
    expect(created.length).toBeGreaterThan(0);
    for (const ev of created) expect(ev.createdEventBlob).toMatch(/./);
  });

  it('events-by-contract-id answers the same way', async () => {
    const contractId = events(await read(nodes.clean, 'TRANSACTION_SHAPE_ACS_DELTA'), 'CreatedEvent')[0].contractId;
    const [clean, deviating] = await Promise.all(
      [nodes.clean, nodes.nullFields].map(async (n) => {
        const res = await fetch(`${n.urls.ledger}/v2/events/events-by-contract-id`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${n.credentials.ledgerAdminToken}` },
          body: JSON.stringify({ contractId }),
        });
        expect(res.status).toBe(200);
        return res.json();
      }),
    );
    expect(differences(clean, deviating).map((x) => [x.path, x.deviating])).toEqual([
      ['/created/createdEvent/createdEventBlob', ''],
      ['/created/createdEvent/contractKey', null],
    ]);
  });
});

describe('ledger-pre-3-5', () => {
  it('states a 3.4 version, and its events differ from a clean node only by lacking acsDelta and representativePackageId', async () => {
    const auth = { authorization: `Bearer ${nodes.pre35.credentials.ledgerAdminToken}` };
    const version = (await (await fetch(`${nodes.pre35.urls.ledger}/v2/version`, { headers: auth })).json()) as Json;
    expect(version.version).toMatch(/^3\.4\.\d+$/);
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const) {
      const [clean, deviating] = await Promise.all([read(nodes.clean, shape), read(nodes.pre35, shape)]);
      const diffs = differences(clean, deviating);
      expect(diffs.length).toBeGreaterThan(0);
      expect(diffs.filter((x) => !['acsDelta', 'representativePackageId'].includes(x.key) || x.deviating !== undefined)).toEqual([]);
      // Every event of the answer lacks them.
      for (const kind of ['CreatedEvent', 'ExercisedEvent']) for (const ev of events(deviating, kind)) expect(ev.acsDelta).toBeUndefined();
    }
  });
});

describe('the ledger release line', () => {
  const context = (node: RunningReferenceNode | undefined, seen: Array<{ method: string; path: string; status: number }> = []): ReleaseLineContext => {
    const shared = sharing(new RunCache());
    if (!node)
      return {
        shared,
        get ledger(): Client {
          throw new CheckSkipped('no ledger URL given');
        },
      };
    const ledger = new Client({
      origin: node.urls.ledger,
      prefix: '',
      credentials: { bearer: node.credentials.ledgerAdminToken },
      timeoutMs: 5000,
      maxBodyBytes: 1 << 20,
      limits: new RunLimits({ maxRequests: 0 }),
      seen,
    });
    return { ledger, shared };
  };

  it('parses the versions nodes state', () => {
    expect(parseReleaseLine('3.4.9')).toEqual({ major: 3, minor: 4, version: '3.4.9' });
    expect(parseReleaseLine('3.5.0-snapshot.20250101.1')).toMatchObject({ major: 3, minor: 5 });
    expect(parseReleaseLine('v3.10')).toMatchObject({ major: 3, minor: 10 });
    for (const v of ['', 'latest', '3', '3.x', 35, undefined]) expect(parseReleaseLine(v), String(v)).toBeUndefined();
  });

  it('is read once per run (outside the request budget) and tells a 3.4 node from a 3.5 one', async () => {
    const seen: Array<{ method: string; path: string; status: number }> = [];
    const old = context(nodes.pre35, seen);
    expect(await ledgerReleaseLine(old)).toMatchObject({ major: 3, minor: 4 });
    expect(await predates(old, '3.5')).toBe(true);
    expect(await predates(old, '3.4')).toBe(false);
    expect(seen).toEqual([{ method: 'GET', path: '/v2/version', status: 200 }]);
    const current = context(nodes.clean);
    expect(await ledgerReleaseLine(current)).toMatchObject({ major: 3, minor: 5 });
    expect(await predates(current, '3.5')).toBe(false);
  });

  it('is unknown without a ledger URL, and an unknown line is taken as current', async () => {
    const none = context(undefined);
    expect(await ledgerReleaseLine(none)).toBeUndefined();
    expect(await predates(none, '3.5')).toBe(false);
  });
});
