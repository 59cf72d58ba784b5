// The reference node's ledger interface: every response conforms to specs/ledger-api.yaml, and the update
// stream keeps the rules of the description (checked against an oracle computed from the world). That each
// ledger fault makes its broken rule observable is shown with the detection matrix, on the same node
// (test/support/fault-probes/ledger.ts).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestTarget, validRequest, type GeneratedRequest, type OperationSpec } from '../../generators/index.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { packageStore } from '../../reference-node/ledger/package-store.ts';
import { buildDar } from '../../requirements/ledger/dar-archive.ts';
import type { TransactionUpdate } from '../../reference-node/world/model.ts';
import type { World } from '../../reference-node/world/world.ts';
import { builtinSpec } from '../support/builtin-specs.ts';
import {
  ANY,
  BASE_END,
  byParty,
  everything,
  flatEvents,
  hostedHere,
  isDecreasing,
  isIncreasing,
  kindOf,
  offsetsOf,
  partyOf,
  recordOf,
  stream,
  templateFilter,
  transactions,
  txAt,
  txFormat,
  updateAt,
  indexOfOffset,
  wildcardWithBlob,
  type Json,
  type Response,
  type StreamOptions,
} from '../support/ledger-requests.ts';
import { call, responseProblems } from '../support/response-conformance.ts';

const SEED = 20250301;
const spec = await builtinSpec('ledger');

// ---------------------------------------------------------------------------------------------------
// Request helpers
// ---------------------------------------------------------------------------------------------------

/** A stream answer that must conform to the document; returns the elements of a 200. */
async function elements(node: RunningReferenceNode, body: unknown, o: StreamOptions = {}): Promise<Json[]> {
  const res = await stream(node, body, o);
  expect(responseProblems(spec, 'getUpdates', res)).toEqual([]);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.json() as Json[];
}

// ---------------------------------------------------------------------------------------------------
// World facts (the oracle side)
// ---------------------------------------------------------------------------------------------------

/** The transactions of updates 0..maxIndex and the ledger-only ones among them, with their offsets. */
function* transactionsUpTo(w: World, maxIndex: number): Generator<{ offset: number; u: TransactionUpdate }> {
  for (let i = 0; i <= maxIndex; i++) {
    for (const offset of [2 * (i + 1), 2 * (i + 1) + 1]) {
      const u = offset % 2 === 0 || w.ledgerOnly.has(i) ? updateAt(w, offset) : undefined;
      if (u?.kind === 'transaction') yield { offset, u };
    }
  }
}
const stakeholdersOf = (n: { signatories: string[]; observers: string[] }) => new Set([...n.signatories, ...n.observers]);
const key = (kind: string, offset: number, nodeId: number, witnesses: string[]) => `${kind}@${offset}#${nodeId}[${[...witnesses].sort().join(',')}]`;

/** The events an ACS-delta read by `parties` over updates 0..maxIndex must return. */
function expectedAcsDelta(w: World, parties: string[], maxIndex: number): string[] {
  const out: string[] = [];
  for (const { offset, u } of transactionsUpTo(w, maxIndex)) {
    const consumed = new Set(u.nodes.flatMap((n) => (n.kind === 'exercised' && n.consuming ? [n.contractId] : [])));
    const created = new Set(u.nodes.flatMap((n) => (n.kind === 'created' ? [n.contract.contractId] : [])));
    for (const n of u.nodes) {
      if (n.kind === 'created' && !consumed.has(n.contract.contractId)) {
        const seeing = parties.filter((p) => stakeholdersOf(n.contract).has(p));
        if (seeing.length) out.push(key('CreatedEvent', offset, n.nodeId, seeing));
      } else if (n.kind === 'exercised' && n.consuming && !created.has(n.contractId)) {
        const seeing = parties.filter((p) => stakeholdersOf(n).has(p));
        if (seeing.length) out.push(key('ArchivedEvent', offset, n.nodeId, seeing));
      }
    }
  }
  return out.sort();
}

/** The events a ledger-effects read by `parties` over updates 0..maxIndex must return. */
function expectedLedgerEffects(w: World, parties: string[], maxIndex: number): string[] {
  const out: string[] = [];
  for (const { offset, u } of transactionsUpTo(w, maxIndex)) {
    const witnesses = w.witnesses(u);
    for (const n of u.nodes) {
      const seeing = parties.filter((p) => witnesses.get(n.nodeId)!.includes(p));
      if (seeing.length) out.push(key(n.kind === 'created' ? 'CreatedEvent' : 'ExercisedEvent', offset, n.nodeId, seeing));
    }
  }
  return out.sort();
}

const observedKeys = (els: Json[]) =>
  flatEvents(els)
    .map(({ kind, ev }) => key(kind, ev.offset, ev.nodeId, ev.witnessParties))
    .sort();

// ---------------------------------------------------------------------------------------------------

let node: RunningReferenceNode;
let w: World;
let alice: string;
let bob: string;
let carol: string;

beforeAll(async () => {
  node = await startReferenceNode({ defaultIdleTimeoutMs: 20 });
  w = node.context.world;
  alice = node.credentials.ledgerUserToken.readAs[0]!;
  bob = partyOf(w, 'bob');
  carol = partyOf(w, 'carol');
});
afterAll(async () => {
  await node?.close();
});

describe('ledger self-test: every operation answers within the document', () => {
  function realRequests(n: RunningReferenceNode): Record<string, Array<{ target: string; init: RequestInit }>> {
    const admin = { authorization: `Bearer ${n.credentials.ledgerAdminToken}` };
    const json = (body: unknown, headers: Record<string, string> = admin): RequestInit => ({
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const bytes: RequestInit = {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/octet-stream' },
      body: Buffer.from('PK\u0003\u0004 not really a dar'),
    };
    const get = (headers: Record<string, string> = admin): RequestInit => ({ method: 'GET', headers });
    const wd = n.context.world;
    // A DAR of the node's own amulet package, as the suite builds one.
    const dar: RequestInit = { ...bytes, body: buildDar([{ id: wd.amuletPackage, payload: packageStore(n.context).packages.get(wd.amuletPackage)!.payload }]) };
    const archived = wd.baseHoldings.find((h) => h.archivedIn !== undefined)!.contract.contractId;
    const live = wd.holdingAt(wd.holdingCount - 1)!.contract.contractId;
    const amulet = `${wd.amuletPackage}:Splice.Amulet:Amulet`;
    const limited = { authorization: `Bearer ${n.credentials.ledgerUserToken.token}` };
    const stream = (body: unknown, query = '', headers: Record<string, string> = admin) => ({ target: `/v2/updates${query}`, init: json(body, headers) });
    const cmd = {
      commands: [{ CreateCommand: { templateId: amulet, createArguments: { owner: alice } } }],
      commandId: 'cmd-self-test',
      actAs: [alice],
      userId: 'alice-ledger',
    };
    const [source, target] = wd.synchronizers.map((x) => x.id);
    // Alice moves two of her latest holdings (on the first synchronizer, never reassigned), one per endpoint.
    const movable = Array.from({ length: wd.holdingCount }, (_, i) => wd.holdingAt(i)!.contract)
      .filter((c) => c.signatories.includes(alice))
      .slice(-2);
    const unassign = (commandId: string, contractId: string) => ({
      reassignmentCommands: { commandId, submitter: alice, commands: [{ command: { UnassignCommand: { value: { contractId, source, target } } } }] },
    });
    return {
      getUpdates: [
        stream({ beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(byParty([alice])) }),
        stream({
          beginExclusive: 0,
          endInclusive: BASE_END,
          updateFormat: everything(byParty([alice, bob], wildcardWithBlob), 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
        }),
        stream({ beginExclusive: 100, endInclusive: 400, updateFormat: txFormat(byParty([alice], templateFilter(amulet, true))) }),
        stream({ beginExclusive: 0, endInclusive: BASE_END, descendingOrder: true, filter: byParty([bob]) }, '?limit=7'),
        stream({
          beginExclusive: 0,
          endInclusive: 999,
          updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice] } } },
        }),
        stream({ beginExclusive: 2400, updateFormat: everything(ANY) }, '?stream_idle_timeout_ms=5'),
        stream({ beginExclusive: 0, updateFormat: everything(ANY) }),
        stream({ beginExclusive: 0, endInclusive: 50, filter: byParty([alice]) }, '', limited),
        stream({ beginExclusive: 0, endInclusive: 50, filter: byParty([bob]) }, '', limited),
        stream({ beginExclusive: 0, endInclusive: 50, filter: byParty([alice]) }, '', {}),
        stream({ beginExclusive: -1, filter: ANY }),
        stream({ beginExclusive: 0, filter: ANY, updateFormat: txFormat(ANY) }),
        stream({ beginExclusive: 0, filter: ANY }, '?limit=ten'),
        { target: '/v2/updates', init: { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: '{"beginExclusive": 0,' } },
      ],
      // Commands act as alice with her own token (the administrator may act as no party), each with its own id.
      submitAndWait: [
        { target: '/v2/commands/submit-and-wait', init: json(cmd, limited) },
        { target: '/v2/commands/submit-and-wait', init: json(cmd, {}) },
      ],
      submitAndWaitForTransaction: [
        { target: '/v2/commands/submit-and-wait-for-transaction', init: json({ commands: { ...cmd, commandId: 'cmd-self-test-tx' } }, limited) },
      ],
      submitAndWaitForReassignment: [{ target: '/v2/commands/submit-and-wait-for-reassignment', init: json(unassign('r1', movable[0]!.contractId), limited) }],
      submitAndWaitForTransactionTree: [
        { target: '/v2/commands/submit-and-wait-for-transaction-tree', init: json({ ...cmd, commandId: 'cmd-self-test-tree' }, limited) },
      ],
      submitAsync: [{ target: '/v2/commands/async/submit', init: json({ ...cmd, commandId: 'cmd-self-test-async' }, limited) }],
      submitReassignmentAsync: [
        { target: '/v2/commands/async/submit-reassignment', init: json(unassign('r2', movable[1]!.contractId), limited) },
        { target: '/v2/commands/async/submit-reassignment', init: json({ reassignmentCommands: {} }) },
      ],
      getCompletions: [{ target: '/v2/commands/completions', init: json({ userId: 'alice-ledger', parties: [alice], beginExclusive: 0 }) }],
      getCommandCompletions: [{ target: '/v2/commands/command-completions', init: json({ userId: 'alice-ledger', parties: [alice], beginExclusive: 0 }) }],
      getEventsByContractId: [
        { target: '/v2/events/events-by-contract-id', init: json({ contractId: archived }) },
        { target: '/v2/events/events-by-contract-id', init: json({ contractId: live, eventFormat: byParty(hostedHere(wd)) }) },
        { target: '/v2/events/events-by-contract-id', init: json({ contractId: '00ff' }) },
        { target: '/v2/events/events-by-contract-id', init: json({ contractId: archived }, { authorization: 'Bearer nonsense' }) },
      ],
      getVersion: [
        { target: '/v2/version', init: get() },
        { target: '/v2/version', init: get({}) },
      ],
      validateDar: [
        { target: '/v2/dars/validate', init: bytes },
        { target: '/v2/dars/validate', init: dar },
      ],
      uploadDar: [
        { target: '/v2/dars', init: bytes },
        { target: '/v2/dars?vetAllPackages=false', init: dar },
      ],
      listPackages: [{ target: '/v2/packages', init: get() }],
      uploadPackages: [
        { target: '/v2/packages', init: bytes },
        { target: '/v2/packages', init: dar },
      ],
      getPackage: [
        { target: `/v2/packages/${wd.amuletPackage}`, init: get() },
        { target: '/v2/packages/unknown', init: get() },
      ],
      getPackageStatus: [
        { target: `/v2/packages/${wd.walletPackage}/status`, init: get() },
        { target: '/v2/packages/unknown/status', init: get() },
      ],
      getPackageVetting: [{ target: '/v2/package-vetting', init: get() }],
      postPackageVetting: [
        {
          target: '/v2/package-vetting',
          init: json({
            synchronizerId: wd.synchronizers[0]!.id,
            changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'splice-amulet' }] } } } }],
          }),
        },
        {
          target: '/v2/package-vetting',
          init: json({
            synchronizerId: wd.synchronizers[1]!.id,
            dryRun: true,
            changes: [{ operation: { Unvet: { value: { packages: [{ packageId: wd.walletPackage, packageName: '', packageVersion: '' }] } } } }],
          }),
        },
      ],
    };
  }

  /** Generated requests, plus a variant made semantically sensible (no legacy fields next to updateFormat, usable limit). */
  function generated(op: OperationSpec): GeneratedRequest[] {
    const raw = fc.sample(validRequest(op, spec.validators), { numRuns: 6, seed: SEED });
    const fast = (r: GeneratedRequest): GeneratedRequest => ({ ...r, query: r.query.map(([k, v]) => [k, k === 'stream_idle_timeout_ms' ? '5' : v]) });
    if (op.id !== 'getUpdates') return raw;
    const sensible = raw.map((r) => {
      const body = { ...(r.body as Json) };
      if (body.updateFormat !== undefined) {
        delete body.filter;
        delete body.verbose;
      } else if (body.filter === undefined) body.filter = {};
      if (body.descendingOrder && body.endInclusive === undefined) body.endInclusive = 300;
      return { ...r, body, query: r.query.map(([k, v]) => [k, k === 'limit' ? String(Math.abs(Number(v)) % 600) : v] as [string, string]) };
    });
    return [...raw, ...sensible].map(fast);
  }

  it('covers every operation of the document with real-data requests', () => {
    expect(Object.keys(realRequests(node)).sort()).toEqual(spec.catalog.operations.map((o) => o.id).sort());
  });

  it.each(spec.catalog.operations.map((o) => [o.id, o] as const))('%s: real-data and generated requests get conforming answers', async (id, op) => {
    const sent: Array<{ target: string; init: RequestInit }> = [...realRequests(node)[id]!];
    for (const r of generated(op)) {
      const headers: Record<string, string> = { ...r.headers, authorization: `Bearer ${node.credentials.ledgerAdminToken}` };
      if (r.contentType) headers['content-type'] = r.contentType;
      sent.push({
        target: requestTarget(op, r),
        init: { method: op.method.toUpperCase(), headers, body: r.body === undefined ? undefined : JSON.stringify(r.body) },
      });
    }
    const statuses = new Set<number>();
    for (const { target, init } of sent) {
      const res = await call(node.urls.ledger + target, init);
      statuses.add(res.status);
      expect(responseProblems(spec, id, res), `${init.method} ${target} -> ${res.status} ${res.text.slice(0, 200)}`).toEqual([]);
      expect(res.status, `${target}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    }
    expect(statuses.has(200)).toBe(true);
  });
});

describe('update stream: offsets and order', () => {
  it('returns only offsets strictly greater than beginExclusive and at most endInclusive', async () => {
    for (const [b, e] of [
      [0, 60],
      [101, 200],
      [10, 11],
      [99, 101],
      [250, 250],
      [2479, 5000],
    ] as const) {
      const els = await elements(node, { beginExclusive: b, endInclusive: e, updateFormat: everything(ANY) });
      for (const o of offsetsOf(els)) {
        expect(o).toBeGreaterThan(b);
        expect(o).toBeLessThanOrEqual(e);
      }
    }
    // A checkpoint sits at 101: the window (100, 101] holds exactly it.
    expect(offsetsOf(await elements(node, { beginExclusive: 100, endInclusive: 101, updateFormat: everything(ANY) }))).toEqual([101]);
    expect(await elements(node, { beginExclusive: 101, endInclusive: 101, updateFormat: everything(ANY) })).toEqual([]);
  });

  it('gives positive, strictly increasing offsets, and every event carries its update offset', async () => {
    const els = await elements(node, { beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(ANY, 'TRANSACTION_SHAPE_LEDGER_EFFECTS') });
    expect(els.length).toBeGreaterThan(100);
    expect(isIncreasing(offsetsOf(els))).toBe(true);
    expect(offsetsOf(els).every((o) => o > 0)).toBe(true);
    for (const { tx, ev } of flatEvents(els)) expect(ev.offset).toBe(tx.offset);
  });

  it('descendingOrder returns the same window in descending order', async () => {
    const body = { beginExclusive: 40, endInclusive: 300, updateFormat: everything(ANY) };
    const up = await elements(node, body);
    const down = await elements(node, { ...body, descendingOrder: true });
    expect(isDecreasing(offsetsOf(down))).toBe(true);
    expect(down).toEqual([...up].reverse());
  });

  it('honours limit: the first elements in the order asked', async () => {
    const body = { beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(ANY) };
    const all = await elements(node, body);
    expect(await elements(node, body, { query: 'limit=5' })).toEqual(all.slice(0, 5));
    expect(await elements(node, { ...body, descendingOrder: true }, { query: 'limit=4' })).toEqual([...all].reverse().slice(0, 4));
    expect(await elements(node, body, { query: 'limit=0' })).toEqual([]);
  });

  it('windows compose: (a,b] ++ (b,c] = (a,c]', async () => {
    for (const [a, b, c] of [
      [0, 101, 300],
      [17, 18, 19],
      [0, 250, BASE_END],
    ] as const) {
      const fmt = everything(byParty([alice, bob]), 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
      const left = await elements(node, { beginExclusive: a, endInclusive: b, updateFormat: fmt });
      const right = await elements(node, { beginExclusive: b, endInclusive: c, updateFormat: fmt });
      expect([...left, ...right]).toEqual(await elements(node, { beginExclusive: a, endInclusive: c, updateFormat: fmt }));
    }
  });

  it('an open-ended read returns what exists up to the ledger end after the idle timeout', async () => {
    // Asked together, the read without the parameter (the node's own setting, 20 ms here) is answered before the
    // one asking 300 ms, which waits at least that long: the node's timers order them, whatever the machine's speed.
    const open = { beginExclusive: 2400, updateFormat: everything(ANY) };
    const t0 = Date.now();
    const order: string[] = [];
    const [els] = await Promise.all([
      elements(node, open, { query: 'stream_idle_timeout_ms=300' }).then((x) => {
        order.push('300 ms');
        return x;
      }),
      elements(node, open).then(() => order.push('default')),
    ]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(order).toEqual(['default', '300 ms']);
    // Everything up to the ledger end: the same as a read bounded far beyond it.
    expect(els.length).toBeGreaterThan(0);
    expect(els).toEqual(await elements(node, { beginExclusive: 2400, endInclusive: 10 ** 9, updateFormat: everything(ANY) }));
  });
});

describe('update stream: shape and selection', () => {
  it('wraps exactly one key per update and per event', async () => {
    const els = await elements(node, { beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(ANY, 'TRANSACTION_SHAPE_LEDGER_EFFECTS') });
    const kinds = new Set<string>();
    for (const e of els) {
      expect(Object.keys(e)).toEqual(['update']);
      expect(Object.keys(e.update)).toHaveLength(1);
      expect(['OffsetCheckpoint', 'Reassignment', 'TopologyTransaction', 'Transaction']).toContain(kindOf(e));
      kinds.add(kindOf(e));
    }
    expect(kinds.size).toBe(4);
    for (const tx of transactions(els)) for (const ev of tx.events) expect(Object.keys(ev)).toHaveLength(1);
    for (const e of els.filter((x) => kindOf(x) === 'Reassignment')) {
      for (const ev of recordOf(e).events) {
        const k = Object.keys(ev)[0]!;
        // JsAssignmentEvent holds its record directly, JsUnassignedEvent under `value`.
        if (k === 'JsAssignmentEvent') expect(ev[k].createdEvent).toBeDefined();
        else expect(ev[k].value.reassignmentId).toBeDefined();
      }
    }
  });

  it('emits only the kinds the update format asks for', async () => {
    const formats: Record<string, Json> = {
      Transaction: txFormat(ANY),
      Reassignment: { includeReassignments: ANY },
      TopologyTransaction: { includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } },
    };
    for (const picked of [['Transaction'], ['Reassignment'], ['TopologyTransaction'], ['Transaction', 'TopologyTransaction'], []]) {
      const updateFormat = Object.assign({}, ...picked.map((k) => formats[k]));
      const kinds = new Set((await elements(node, { beginExclusive: 0, endInclusive: BASE_END, updateFormat })).map(kindOf));
      expect([...kinds].sort()).toEqual([...picked, 'OffsetCheckpoint'].sort());
    }
  });

  it('ACS delta: only created and archived events of contracts with a requesting stakeholder', async () => {
    for (const parties of [[alice], [alice, bob], hostedHere(w)]) {
      const els = await elements(node, { beginExclusive: 0, endInclusive: BASE_END, updateFormat: txFormat(byParty(parties)) });
      const events = flatEvents(els);
      expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['CreatedEvent', 'ArchivedEvent']));
      for (const { kind, ev } of events) {
        const node0 = txAt(w, ev.offset).nodes[ev.nodeId]!;
        const sh = node0.kind === 'created' ? stakeholdersOf(node0.contract) : stakeholdersOf(node0);
        expect(ev.witnessParties.length).toBeGreaterThan(0);
        for (const p of ev.witnessParties) expect(sh.has(p) && parties.includes(p)).toBe(true);
        if (kind === 'CreatedEvent') expect(ev.acsDelta).toBe(true);
      }
      expect(observedKeys(els)).toEqual(expectedAcsDelta(w, parties, 239));
      for (const tx of transactions(els)) expect(tx.events.length).toBeGreaterThan(0);
    }
  });

  it('ledger effects: only created and exercised events a requesting party witnesses', async () => {
    for (const parties of [[alice], [bob, partyOf(w, 'shared')]]) {
      const els = await elements(node, {
        beginExclusive: 0,
        endInclusive: BASE_END,
        updateFormat: txFormat(byParty(parties), 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
      });
      const events = flatEvents(els);
      expect(new Set(events.map((e) => e.kind))).toEqual(new Set(['CreatedEvent', 'ExercisedEvent']));
      for (const { ev } of events) {
        const witnesses = w.witnesses(txAt(w, ev.offset)).get(ev.nodeId)!;
        expect(ev.witnessParties.length).toBeGreaterThan(0);
        for (const p of ev.witnessParties) expect(witnesses.includes(p) && parties.includes(p)).toBe(true);
      }
      expect(observedKeys(els)).toEqual(expectedLedgerEffects(w, parties, 239));
    }
  });

  it('witnessParties are always among the requesting parties (transactions and reassignments)', async () => {
    const parties = [alice, bob];
    for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) {
      const els = await elements(node, { beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(byParty(parties), shape) });
      for (const { ev } of flatEvents(els)) for (const p of ev.witnessParties) expect(parties).toContain(p);
      for (const e of els.filter((x) => kindOf(x) === 'Reassignment')) {
        for (const ev of recordOf(e).events) {
          const wp = ev.JsAssignmentEvent?.createdEvent.witnessParties ?? ev.JsUnassignedEvent.value.witnessParties;
          for (const p of wp) expect(parties).toContain(p);
        }
      }
    }
  });

  it('a party hosted on another participant sees nothing here', async () => {
    const els = await elements(node, {
      beginExclusive: 0,
      endInclusive: BASE_END,
      updateFormat: everything(byParty([carol]), 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
    });
    expect(els.filter((e) => ['Transaction', 'Reassignment'].includes(kindOf(e)))).toEqual([]);
  });

  it('template filters narrow events; the created-event blob comes only when asked for', async () => {
    const amulet = `${w.amuletPackage}:Splice.Amulet:Amulet`;
    const fmt = (f: Json) => ({ beginExclusive: 0, endInclusive: BASE_END, updateFormat: txFormat(byParty([alice], f)) });
    const narrowed = flatEvents(await elements(node, fmt(templateFilter(amulet))));
    expect(narrowed.length).toBeGreaterThan(0);
    for (const { ev } of narrowed) expect(ev.templateId).toBe(amulet);
    expect(narrowed.every(({ ev }) => ev.createdEventBlob === undefined)).toBe(true);
    // Package-name references select the same template.
    expect(flatEvents(await elements(node, fmt(templateFilter('#splice-amulet:Splice.Amulet:Amulet'))))).toEqual(narrowed);
    const withBlob = flatEvents(await elements(node, fmt(templateFilter(amulet, true)))).filter((e) => e.kind === 'CreatedEvent');
    expect(withBlob.length).toBeGreaterThan(0);
    expect(withBlob.every(({ ev }) => typeof ev.createdEventBlob === 'string')).toBe(true);
    const wild = flatEvents(await elements(node, fmt({}))).filter((e) => e.kind === 'CreatedEvent');
    expect(wild.every(({ ev }) => ev.createdEventBlob === undefined)).toBe(true);
    expect(new Set(wild.map(({ ev }) => ev.templateId)).size).toBeGreaterThan(1);
    // A cumulative entry without identifierFilter (optional in the official document) defines no filter, like Empty.
    expect(await elements(node, fmt({ cumulative: [{}] }))).toEqual(await elements(node, fmt({})));
  });

  it('commandId appears only when a requesting party submitted the transaction', async () => {
    const els = await elements(node, {
      beginExclusive: 0,
      endInclusive: BASE_END,
      updateFormat: txFormat(byParty([alice]), 'TRANSACTION_SHAPE_LEDGER_EFFECTS'),
    });
    let withId = 0;
    for (const tx of transactions(els)) {
      const submitted = txAt(w, tx.offset).submitters.includes(alice);
      expect(tx.commandId !== undefined).toBe(submitted);
      if (submitted) withId++;
    }
    expect(withId).toBeGreaterThan(0);
    expect(withId).toBeLessThan(transactions(els).length);
  });

  it('records carry their required fields, reassignment counters and times from the world', async () => {
    const els = await elements(node, { beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(ANY) });
    for (const tx of transactions(els)) {
      for (const f of ['updateId', 'effectiveAt', 'events', 'offset', 'synchronizerId', 'recordTime']) expect(tx[f], f).toBeDefined();
      expect(tx.recordTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    const reassignments = els.filter((e) => kindOf(e) === 'Reassignment').map(recordOf);
    expect(reassignments.length).toBeGreaterThan(0);
    for (const r of reassignments) {
      const u = w.getUpdate(indexOfOffset(r.offset));
      const ev = r.events[0];
      const counter = ev.JsAssignmentEvent?.reassignmentCounter ?? ev.JsUnassignedEvent.value.reassignmentCounter;
      expect(u.kind === 'assign' || u.kind === 'unassign').toBe(true);
      if (u.kind === 'assign' || u.kind === 'unassign') expect(counter).toBe(u.reassignmentCounter);
    }
    const checkpoints = els.filter((e) => kindOf(e) === 'OffsetCheckpoint').map(recordOf);
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const c of checkpoints) expect(c.synchronizerTimes.length).toBeGreaterThan(0);
  });

  it("the deprecated filter maps to ACS-delta transactions, reassignments and the named parties' topology events", async () => {
    const legacy = await elements(node, { beginExclusive: 0, endInclusive: BASE_END, filter: byParty([alice]), verbose: false });
    const explicit = await elements(node, {
      beginExclusive: 0,
      endInclusive: BASE_END,
      updateFormat: { ...everything(byParty([alice])), includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [alice] } } },
    });
    expect(legacy).toEqual(explicit);
    expect(new Set(legacy.map(kindOf)).size).toBe(4);
    for (const e of legacy.filter((x) => kindOf(x) === 'TopologyTransaction')) {
      for (const ev of recordOf(e).events) expect((Object.values(ev.event)[0] as Json).value.partyId).toBe(alice);
    }
  });
});

describe('update stream: errors', () => {
  async function expectPlain400(res: Response) {
    expect(res.status, res.text).toBe(400);
    expect(res.contentType).toMatch(/^text\/plain/);
    expect(res.text.trim().length).toBeGreaterThan(0);
    expect(responseProblems(spec, 'getUpdates', res)).toEqual([]);
  }

  it('rejects filter or verbose next to updateFormat with a plain-text 400', async () => {
    await expectPlain400(await stream(node, { beginExclusive: 0, filter: byParty([alice]), updateFormat: txFormat(byParty([alice])) }));
    await expectPlain400(await stream(node, { beginExclusive: 0, verbose: false, updateFormat: txFormat(byParty([alice])) }));
  });

  it('rejects invalid limit and stream_idle_timeout_ms with a plain-text 400', async () => {
    const body = { beginExclusive: 0, endInclusive: 10, filter: ANY };
    for (const q of [
      'limit=-1',
      'limit=ten',
      'limit=1.5',
      'limit=',
      'limit=1&limit=2',
      'limit=99999999999999999999',
      'stream_idle_timeout_ms=soon',
      'stream_idle_timeout_ms=-5',
    ]) {
      await expectPlain400(await stream(node, body, { query: q }));
    }
  });

  it('rejects invalid bodies with a plain-text 400', async () => {
    const bad: unknown[] = [
      '{"beginExclusive": 0',
      '[1,2]',
      '"text"',
      '',
      {},
      { beginExclusive: -1, filter: ANY },
      { beginExclusive: 1.5, filter: ANY },
      { beginExclusive: '0', filter: ANY },
      { beginExclusive: 0, endInclusive: 'x', filter: ANY },
      { beginExclusive: 0, descendingOrder: 'yes', filter: ANY },
      { beginExclusive: 0, descendingOrder: true, filter: ANY },
      { beginExclusive: 0, updateFormat: txFormat(ANY, 'TRANSACTION_SHAPE_TREE') },
      { beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat: ANY } } },
      { beginExclusive: 0, filter: { filtersByParty: [] } },
      { beginExclusive: 0, filter: { filtersByParty: { [alice]: { cumulative: [{ identifierFilter: { TemplateFilter: { value: {} } } }] } } } },
      { beginExclusive: 0 },
      { beginExclusive: 0, verbose: true },
    ];
    for (const body of bad) await expectPlain400(await stream(node, body));
  });

  it('answers 413 with a JsCantonError when the result exceeds the list limit', async () => {
    const small = await startReferenceNode({ listLimit: 20, defaultIdleTimeoutMs: 10 });
    try {
      const body = { beginExclusive: 0, endInclusive: BASE_END, updateFormat: everything(ANY) };
      for (const query of ['', 'limit=21', 'limit=1000']) {
        const res = await stream(small, body, { query });
        expect(res.status).toBe(413);
        expect(responseProblems(spec, 'getUpdates', res)).toEqual([]);
        const err = res.json();
        expect(typeof err.code).toBe('string');
        expect(typeof err.cause).toBe('string');
        expect(typeof err.errorCategory).toBe('number');
        expect(typeof err.context).toBe('object');
      }
      expect(await elements(small, body, { query: 'limit=20' })).toHaveLength(20);
      // Exactly at the limit is fine.
      const twenty = await elements(small, body, { query: 'limit=20' });
      expect(await elements(small, { ...body, endInclusive: offsetsOf(twenty)[19] })).toEqual(twenty);
    } finally {
      await small.close();
    }
  });

  it('401 without or with bad credentials, 403 for parties the user may not read', async () => {
    const body = { beginExclusive: 0, endInclusive: 60, filter: byParty([alice]) };
    const limited = node.credentials.ledgerUserToken.token;
    const expectError = async (res: Response, status: number) => {
      expect(res.status).toBe(status);
      expect(responseProblems(spec, 'getUpdates', res)).toEqual([]);
      expect(res.json().errorCategory).toBeTypeOf('number');
    };
    await expectError(await stream(node, body, { token: null }), 401);
    await expectError(await stream(node, body, { token: 'not-a-jwt' }), 401);
    await expectError(await stream(node, body, { token: null, headers: { authorization: 'Basic YWxpY2U6c2VjcmV0' } }), 401);
    await expectError(await stream(node, body, { token: await node.context.auth.issue('nobody') }), 403);
    await expectError(await stream(node, { ...body, filter: byParty([bob]) }, { token: limited }), 403);
    await expectError(await stream(node, { ...body, filter: ANY }, { token: limited }), 403);
    await expectError(
      await stream(
        node,
        { ...body, filter: undefined, updateFormat: { includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } } },
        { token: limited },
      ),
      403,
    );
    expect((await elements(node, body, { token: limited })).length).toBeGreaterThan(0);
  });

  it('accepts the API key in Sec-WebSocket-Protocol', async () => {
    const body = { beginExclusive: 0, endInclusive: 60, filter: byParty([alice]) };
    const viaKey = await elements(node, body, {
      token: null,
      headers: { 'sec-websocket-protocol': `daml.ws.auth, jwt.token.${node.credentials.ledgerUserToken.token}` },
    });
    expect(viaKey).toEqual(await elements(node, body));
    expect((await stream(node, body, { token: null, headers: { 'sec-websocket-protocol': 'daml.ws.auth, jwt.token.forged' } })).status).toBe(401);
  });

  it('answers a million-update world without materialising it', async () => {
    const big = await startReferenceNode({ scale: 1000, defaultIdleTimeoutMs: 10 });
    // What the reads build of the history, counted rather than timed (how fast is the benchmark's business).
    const world = big.context.world;
    const getUpdate = world.getUpdate.bind(world);
    let built = 0;
    world.getUpdate = (index) => {
      built++;
      return getUpdate(index);
    };
    try {
      expect((await stream(big, { beginExclusive: 0, updateFormat: everything(byParty([alice])) })).status).toBe(413);
      const end = 2 * big.context.world.count;
      const tail = await elements(big, { beginExclusive: 0, endInclusive: end, descendingOrder: true, updateFormat: everything(ANY) }, { query: 'limit=5' });
      expect(tail).toHaveLength(5);
      expect(isDecreasing(offsetsOf(tail))).toBe(true);
      expect(offsetsOf(tail)[0]).toBeLessThanOrEqual(end);
      expect(offsetsOf(tail)[4]).toBeGreaterThan(end - 400);
      // A read stops once it has enough elements: both together built well under 1 % of the history.
      expect(built).toBeLessThan(world.count / 100);
    } finally {
      await big.close();
    }
  });
});

describe('overview endpoints', () => {
  // The admin's credentials unless the headers say otherwise: every ledger endpoint requires them.
  const admin = () => ({ authorization: `Bearer ${node.credentials.ledgerAdminToken}` });
  const get = (path: string, headers: Record<string, string> = admin()): Promise<Response> => call(node.urls.ledger + path, { headers });
  const post = (path: string, body: unknown, headers: Record<string, string> = admin()): Promise<Response> =>
    call(node.urls.ledger + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('serves version, packages and package contents', async () => {
    const version = await get('/v2/version');
    expect(version.json().version).toBe('3.5.14');
    const ids = (await get('/v2/packages')).json().packageIds;
    expect(ids).toEqual([w.amuletPackage, w.walletPackage]);
    const pkg = await get(`/v2/packages/${ids[0]}`);
    expect(pkg.status).toBe(200);
    expect(pkg.contentType).toBe('application/octet-stream');
    const missing = await get('/v2/packages/0000');
    expect(missing.status).toBe(404);
    expect(responseProblems(spec, 'getPackage', missing)).toEqual([]);
    expect((await get(`/v2/packages/${ids[1]}/status`)).json().packageStatus).toBe('PACKAGE_STATUS_REGISTERED');
  });

  it('finds the created and archived events of a contract', async () => {
    const h = w.baseHoldings.find((x) => x.archivedIn !== undefined)!;
    const res = (await post('/v2/events/events-by-contract-id', { contractId: h.contract.contractId })).json();
    expect(res.created.createdEvent.contractId).toBe(h.contract.contractId);
    expect(res.created.createdEvent.offset).toBe(2 * (h.contract.createdIn + 1));
    expect(res.archived.archivedEvent.offset).toBe(2 * (h.archivedIn! + 1));
    const active = w.baseHoldings.find((x) => x.archivedIn === undefined)!;
    expect((await post('/v2/events/events-by-contract-id', { contractId: active.contract.contractId })).json().archived).toBeUndefined();
    expect((await post('/v2/events/events-by-contract-id', { contractId: '00deadbeef' })).status).toBe(404);
  });

  it('refuses an invalid command in plain text without changing the ledger; nobody else reads its completions', async () => {
    const before = await elements(node, { beginExclusive: 2400, updateFormat: everything(ANY) });
    const res = await post('/v2/commands/submit-and-wait', { commands: [], commandId: 'c1', actAs: [alice] });
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^text\/plain/);
    expect(await elements(node, { beginExclusive: 2400, updateFormat: everything(ANY) })).toEqual(before);
    const limited = { authorization: `Bearer ${node.credentials.ledgerUserToken.token}` };
    expect((await post('/v2/commands/completions?stream_idle_timeout_ms=1', { userId: 'u', parties: [alice], beginExclusive: 0 }, limited)).status).toBe(403);
  });

  it("credentials are required there, invalid ones get 401; unknown routes get the HTTP layer's text/plain 404", async () => {
    expect((await get('/v2/version', { authorization: `Bearer ${node.credentials.ledgerUserToken.token}` })).status).toBe(200);
    for (const headers of [{}, { authorization: 'Bearer broken' }] as Array<Record<string, string>>) {
      const refused = await get('/v2/version', headers);
      expect(refused.status).toBe(401);
      expect(responseProblems(spec, 'getVersion', refused)).toEqual([]);
    }
    for (const path of ['/v2/nothing-here', '/v2/updates/flat']) {
      const res = await get(path, {});
      expect(res.status).toBe(404);
      // As real nodes answer a path none of their handlers serves (facts: errors): no JsCantonError.
      expect(res.contentType).toMatch(/^text\/plain/);
      expect(res.text).toBe('The requested resource could not be found.');
    }
    const badJson = await call(`${node.urls.ledger}/v2/commands/submit-and-wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(badJson.status).toBe(400);
    expect(responseProblems(spec, 'submitAndWait', badJson)).toEqual([]);
  });
});
