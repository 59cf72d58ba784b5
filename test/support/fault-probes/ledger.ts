// The ledger faults' probes: each returns true when the fault's broken behaviour is observable on the node,
// reading small windows of the update stream or calling the operation the fault concerns (commands with
// fresh ids, so a node the matrix ran on serves them as well).
import { request } from 'node:http';
import { expect } from 'vitest';
import type { RunningReferenceNode } from '../../../reference-node/index.ts';
import type { LedgerFaultName } from '../../../reference-node/ledger/faults.ts';
import { packageStore } from '../../../reference-node/ledger/package-store.ts';
import { isoMicros } from '../../../reference-node/world/time.ts';
import { buildDar } from '../../../requirements/ledger/dar-archive.ts';
import { builtinSpec } from '../builtin-specs.ts';
import {
  ANY,
  byParty,
  everything,
  flatEvents,
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
  type Json,
  type StreamOptions,
} from '../ledger-requests.ts';
import { call, responseProblems } from '../response-conformance.ts';
import { type OpenChannel, openChannel, type Refused, readChannel } from '../ws-requests.ts';
import type { InterfaceProbes, Probe } from './probe.ts';

const body = (o: Json) => ({ beginExclusive: 0, endInclusive: 100, updateFormat: everything(ANY), ...o });
const read = async (n: RunningReferenceNode, b: unknown, o: StreamOptions = {}) => (await stream(n, b, o)).json() as Json[];
const aliceOf = (n: RunningReferenceNode) => n.credentials.ledgerUserToken.readAs[0]!;
const aliceRead = (n: RunningReferenceNode, shape: string) =>
  read(n, { beginExclusive: 0, updateFormat: txFormat(byParty([aliceOf(n)]), shape) }, { query: 'limit=50' });

/** A window of more elements (270) than the list limit of the matrix's nodes (200). */
const OVER_LIMIT_END = 1000;

const PROBES: Record<LedgerFaultName, Probe> = {
  'ledger-begin-inclusive': async (n) => offsetsOf(await read(n, body({ beginExclusive: 101, endInclusive: 140 }))).some((o) => o <= 101),
  'ledger-end-ignored': async (n) => offsetsOf(await read(n, body({ endInclusive: 60 }))).some((o) => o > 60),
  'ledger-descending-ignored': async (n) => !isDecreasing(offsetsOf(await read(n, body({ descendingOrder: true })))),
  'ledger-descending-without-end-accepted': async (n) =>
    (await stream(n, body({ endInclusive: undefined, descendingOrder: true }), { query: 'limit=3' })).status !== 400,
  'ledger-limit-ignored': async (n) => (await read(n, body({}), { query: 'limit=3' })).length > 3,
  'ledger-limit-plus-one': async (n) => (await read(n, body({}), { query: 'limit=3' })).length === 4,
  'ledger-invalid-limit-accepted': async (n) => (await stream(n, body({}), { query: 'limit=-2' })).status !== 400,
  'ledger-idle-timeout-unchecked': async (n) => (await stream(n, body({}), { query: 'limit=1&stream_idle_timeout_ms=soon' })).status === 200,
  'ledger-submit-and-wait-offset-ahead': async (n) => {
    const { token, readAs } = n.credentials.ledgerUserToken;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const create = {
      CreateCommand: { templateId: `${n.context.world.amuletPackage}:Splice.Amulet:Amulet`, createArguments: { owner: readAs[0], amount: '1.0' } },
    };
    const body = JSON.stringify({ commandId: 'probe-offset-ahead', actAs: [readAs[0]], commands: [create] });
    const answer = (await call(`${n.urls.ledger}/v2/commands/submit-and-wait`, { method: 'POST', headers, body })).json() as { completionOffset: number };
    const end = (await call(`${n.urls.ledger}/v2/state/ledger-end`, { headers })).json() as { offset: number };
    return answer.completionOffset > end.offset;
  },
  'ledger-pruned-reads-served': async (n) => {
    const res = await call(`${n.urls.ledger}/v2/state/latest-pruned-offsets`, { headers: { authorization: `Bearer ${n.credentials.ledgerAdminToken}` } });
    const pruned = (res.json() as { participantPrunedUpToInclusive: number }).participantPrunedUpToInclusive;
    return pruned > 0 && (await stream(n, body({ beginExclusive: pruned - 1 }))).status === 200;
  },
  'ledger-negative-begin-as-zero': async (n) => (await stream(n, body({ beginExclusive: -1 }))).status === 200,
  'ledger-no-413': async (n) => {
    const res = await stream(n, body({ endInclusive: OVER_LIMIT_END }));
    return res.status === 200 && (res.json() as Json[]).length > n.context.settings.listLimit;
  },
  'ledger-list-limit-at-bound-413': async (n) => {
    const last = offsetsOf(await read(n, body({ endInclusive: OVER_LIMIT_END }), { query: `limit=${n.context.settings.listLimit}` })).at(-1);
    return (await stream(n, body({ endInclusive: last }))).status === 413;
  },
  'ledger-limit-at-list-limit-ignored': async (n) =>
    (await stream(n, body({ endInclusive: OVER_LIMIT_END }), { query: `limit=${n.context.settings.listLimit}` })).status === 413,
  'ledger-list-limit-one-over-accepted': async (n) => {
    const limit = n.context.settings.listLimit;
    // The window (0, end] holds the first limit elements and the one after them.
    const last = offsetsOf(await read(n, body({ endInclusive: OVER_LIMIT_END }), { query: `limit=${limit}` })).at(-1);
    const end = offsetsOf(await read(n, body({ beginExclusive: last, endInclusive: OVER_LIMIT_END }), { query: 'limit=1' }))[0];
    return end !== undefined && (await stream(n, body({ endInclusive: end }))).status === 200;
  },
  'ledger-limit-above-list-limit-honoured': async (n) =>
    (await read(n, body({ endInclusive: OVER_LIMIT_END }), { query: `limit=${n.context.settings.listLimit + 1}` })).length === n.context.settings.listLimit + 1,
  'ledger-error-400-as-json': async (n) => !/^text\/plain/.test((await stream(n, body({ beginExclusive: -1 }))).contentType ?? ''),
  'ledger-error-body-shape': async (n) => (await stream(n, body({}), { token: null })).json().errorCategory === undefined,
  'ledger-acs-delta-leak': async (n) => {
    const a = aliceOf(n);
    return flatEvents(await aliceRead(n, 'TRANSACTION_SHAPE_ACS_DELTA')).some(
      ({ kind, ev }) => kind === 'CreatedEvent' && !ev.signatories.includes(a) && !(ev.observers ?? []).includes(a),
    );
  },
  'ledger-ledger-effects-leak': async (n) => {
    const a = aliceOf(n);
    return flatEvents(await aliceRead(n, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')).some(
      ({ ev }) => !n.context.world.witnesses(txAt(n.context.world, ev.offset)).get(ev.nodeId)!.includes(a),
    );
  },
  'ledger-wrong-event-kind': async (n) => flatEvents(await read(n, body({ updateFormat: txFormat(ANY) }))).some((e) => e.kind === 'ExercisedEvent'),
  'ledger-template-filter-ignored': async (n) => {
    const amulet = `${n.context.world.amuletPackage}:Splice.Amulet:Amulet`;
    return flatEvents(await read(n, body({ updateFormat: txFormat({ filtersForAnyParty: templateFilter(amulet) }) }))).some(
      ({ ev }) => ev.templateId !== amulet,
    );
  },
  'ledger-two-keys-update': async (n) => (await read(n, body({}))).some((e) => Object.keys(e.update).length !== 1),
  'ledger-unrequested-kind': async (n) =>
    (await read(n, body({ endInclusive: 300, updateFormat: txFormat(ANY) }), { query: 'limit=50' })).some((e) => 'Reassignment' in e.update),
  'ledger-offsets-not-increasing': async (n) => !isIncreasing(offsetsOf(await read(n, body({})))),
  'ledger-effects-time-shifted': async (n) => {
    type Tx = { update: { Transaction?: { value: { updateId: string; effectiveAt: string } } } };
    const times = async (shape: string) =>
      (await aliceRead(n, shape)).flatMap((e) => {
        const v = (e as Tx).update.Transaction?.value;
        return v ? [`${v.updateId} ${v.effectiveAt}`] : [];
      });
    const delta = new Set(await times('TRANSACTION_SHAPE_ACS_DELTA'));
    return (await times('TRANSACTION_SHAPE_LEDGER_EFFECTS')).some((t) => !delta.has(t) && [...delta].some((d) => d.split(' ')[0] === t.split(' ')[0]));
  },
  'ledger-event-offset-mismatch': async (n) => flatEvents(await read(n, body({}))).some(({ tx, ev }) => ev.offset !== tx.offset),
  'ledger-no-auth': async (n) => (await stream(n, body({}), { token: null })).status === 200,
  'ledger-read-rights-unchecked': async (n) => {
    const bobId = partyOf(n.context.world, 'bob');
    return (await stream(n, body({ updateFormat: txFormat(byParty([bobId])) }), { token: n.credentials.ledgerUserToken.token })).status === 200;
  },
  'ledger-witness-parties-too-wide': async (n) => {
    const a = aliceOf(n);
    return flatEvents(await aliceRead(n, 'TRANSACTION_SHAPE_ACS_DELTA')).some(({ ev }) => ev.witnessParties.some((p: string) => p !== a));
  },
  'ledger-filter-and-format-accepted': async (n) => (await stream(n, body({ filter: ANY }))).status !== 400,
  'ledger-required-field-dropped': async (n) => transactions(await read(n, body({}))).some((tx) => tx.recordTime === undefined),
  'ledger-paging-gap': async (n) => {
    // Every update after b in the window (0, 100] must also be in the window (b, 100].
    const whole = await read(n, body({}));
    const b = offsetsOf(whole)[2]!;
    const right = new Set((await read(n, body({ beginExclusive: b }))).map((e) => JSON.stringify(e)));
    return whole.some((e) => !('OffsetCheckpoint' in e.update) && (recordOf(e).offset as number) > b && !right.has(JSON.stringify(e)));
  },
  'ledger-ledger-effects-archived': async (n) => flatEvents(await aliceRead(n, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')).some((e) => e.kind === 'ArchivedEvent'),
  'ledger-acs-delta-reassignment-leak': async (n) => {
    const a = aliceOf(n);
    const els = await read(n, { beginExclusive: 0, updateFormat: { includeReassignments: byParty([a]) } }, { query: 'limit=50' });
    const assigned = els
      .filter((e) => kindOf(e) === 'Reassignment')
      .flatMap((e) => (recordOf(e).events as Json[]).map((ev) => ev.JsAssignmentEvent?.createdEvent).filter(Boolean));
    return assigned.some((c: Json) => !c.signatories.includes(a) && !(c.observers ?? []).includes(a));
  },
  'ledger-token-signature-unchecked': async (n) => {
    const [header, payload, signature] = n.credentials.ledgerAdminToken.split('.');
    return (await stream(n, body({}), { token: `${header}.${payload}.${'A'.repeat(signature!.length)}` })).status === 200;
  },
  'ledger-any-party-read-unchecked': async (n) =>
    (await stream(n, body({ updateFormat: txFormat(ANY) }), { token: n.credentials.ledgerUserToken.token })).status === 200,
  'ledger-template-filter-package-name-only': async (n) => {
    const amulet = `${n.context.world.amuletPackage}:Splice.Amulet:Amulet`;
    return flatEvents(await read(n, body({ updateFormat: txFormat({ filtersForAnyParty: templateFilter(amulet) }) }))).length === 0;
  },
  'ledger-ledger-effects-participant-view': async (n) => {
    const a = aliceOf(n);
    return flatEvents(await aliceRead(n, 'TRANSACTION_SHAPE_LEDGER_EFFECTS')).some(
      ({ ev }) => !n.context.world.witnesses(txAt(n.context.world, ev.offset)).get(ev.nodeId)!.includes(a),
    );
  },
  'ledger-transactions-always-included': async (n) =>
    (await read(n, body({ updateFormat: { includeReassignments: ANY } }))).some((e) => kindOf(e) === 'Transaction'),
  'ledger-checkpoint-kind-misnamed': async (n) => (await read(n, body({ endInclusive: 140 }))).some((e) => 'offsetCheckpoint' in e.update),
  'ledger-witness-parties-all-requesters': async (n) => {
    // In the ACS-delta shape a requesting party sees a created event only as one of its stakeholders.
    const parties = [aliceOf(n), partyOf(n.context.world, 'bob')];
    const els = await read(n, body({ updateFormat: txFormat(byParty(parties)) }));
    return flatEvents(els).some(
      ({ kind, ev }) => kind === 'CreatedEvent' && ev.witnessParties.some((p: string) => !ev.signatories.includes(p) && !(ev.observers ?? []).includes(p)),
    );
  },
  'ledger-any-party-filters-ignored': async (n) => flatEvents(await read(n, body({ updateFormat: txFormat(ANY) }))).length === 0,
  'ledger-first-party-only': async (n) => {
    // Bob's events in the window are missing once he is listed second.
    const bob = partyOf(n.context.world, 'bob');
    const own = flatEvents(await read(n, body({ updateFormat: txFormat(byParty([bob])) }))).length;
    return own > 0 && flatEvents(await read(n, body({ updateFormat: txFormat(byParty([aliceOf(n), bob])) }))).length < own;
  },
  'ledger-empty-filters-select-nothing': async (n) =>
    flatEvents(await read(n, body({ updateFormat: txFormat(byParty([aliceOf(n)], { cumulative: [] })) }))).length === 0,
  'ledger-empty-filters-with-blob': async (n) =>
    flatEvents(await read(n, body({ updateFormat: txFormat(byParty([aliceOf(n)])) }))).some(({ ev }) => ev.createdEventBlob !== undefined),
  'ledger-legacy-filter-no-topology': async (n) =>
    !(await read(n, { beginExclusive: 0, endInclusive: 300, filter: byParty([aliceOf(n)]) })).some((e) => kindOf(e) === 'TopologyTransaction'),
  'ledger-list-limit-500': async (n) => (await stream(n, body({ endInclusive: OVER_LIMIT_END }))).status === 500,
  'ledger-list-limit-truncates': async (n) => {
    const res = await stream(n, body({ endInclusive: OVER_LIMIT_END }));
    return res.status === 200 && (res.json() as Json[]).length === n.context.settings.listLimit;
  },
  'ledger-list-limit-overflow-only': async (n) => {
    const res = await stream(n, body({ endInclusive: OVER_LIMIT_END }));
    const els = res.status === 200 ? (res.json() as Json[]) : [];
    return els.length > 0 && els.length < n.context.settings.listLimit && offsetsOf(els)[0]! > offsetsOf(await read(n, body({}), { query: 'limit=1' }))[0]!;
  },
  'ledger-limit-takes-window-tail': async (n) =>
    offsetsOf(await read(n, body({}), { query: 'limit=3' })).join() !==
    offsetsOf(await read(n, body({})))
      .slice(0, 3)
      .join(),
  'ledger-command-bad-json-500': async (n) => (await overview(n, 'POST', '/v2/commands/submit-and-wait', '{"commands": ')).status === 500,
  'ledger-completions-body-ignored': async (n) => (await overview(n, 'POST', '/v2/commands/completions', '{"userId": ')).status === 200,
  'ledger-overview-json-as-text': async (n) => /^text\/plain/.test((await overview(n, 'GET', '/v2/version')).contentType ?? ''),
  'ledger-command-completions-unserved': async (n) => (await overview(n, 'POST', '/v2/commands/command-completions', '{"parties": []}')).status === 501,
  'ledger-packages-upload-differs': async (n) => {
    const [dars, packages] = await Promise.all(['/v2/dars', '/v2/packages'].map((p) => upload(n, p, Buffer.from('no DAR'))));
    return (dars!.json() as Json).code !== (packages!.json() as Json).code;
  },
  'ledger-begin-zero-after-checkpoint': async (n) => {
    const fromZero = new Set(offsetsOf(await read(n, body({}))));
    return offsetsOf(await read(n, body({ beginExclusive: 1 }))).some((o) => !fromZero.has(o));
  },
  'ledger-verbose-and-format-accepted': async (n) => (await stream(n, body({ verbose: false }))).status !== 400,
  'ledger-verbose-labels-dropped': async (n) =>
    flatEvents(await read(n, { beginExclusive: 0, endInclusive: 100, filter: ANY, verbose: true })).some(
      ({ kind, ev }) => kind === 'CreatedEvent' && Array.isArray(ev.createArgument),
    ),
  'ledger-party-key-unchecked': async (n) => (await stream(n, body({ updateFormat: txFormat(byParty(['not a party!'])) }))).status === 200,
  'ledger-cumulative-first-template-only': async (n) => {
    const w = n.context.world;
    const amulet = `${w.amuletPackage}:Splice.Amulet:Amulet`;
    const both = { cumulative: [...templateFilter(`${w.walletPackage}:No.Such:Template`).cumulative, ...templateFilter(amulet).cumulative] };
    return flatEvents(await read(n, body({ updateFormat: txFormat({ filtersForAnyParty: both }) }))).length === 0;
  },
  'ledger-wildcard-flags-override': async (n) => {
    const amulet = `${n.context.world.amuletPackage}:Splice.Amulet:Amulet`;
    const filters = { cumulative: [...templateFilter(amulet, true).cumulative, { identifierFilter: { WildcardFilter: { value: {} } } }] };
    const events = flatEvents(await read(n, body({ updateFormat: txFormat({ filtersForAnyParty: filters }) })));
    return events.some(({ kind, ev }) => kind === 'CreatedEvent' && ev.templateId === amulet && ev.createdEventBlob === undefined);
  },
  'ledger-package-status-method-refused': async (n) => {
    const id = [...packageStore(n.context).packages.keys()][0]!;
    return (await overview(n, 'GET', `/v2/packages/${encodeURIComponent(id)}/status`)).status === 405;
  },
  'ledger-version-unstated': async (n) => ((await overview(n, 'GET', '/v2/version')).json() as Json).version === undefined,
  'ledger-events-template-swapped': async (n) => {
    const { contract } = archivedHolding(n);
    return (await lookup(n, contract.contractId)).created.createdEvent.templateId !== contract.templateId;
  },
  'ledger-events-created-at-shifted': async (n) => {
    const { contract } = archivedHolding(n);
    return (await lookup(n, contract.contractId)).created.createdEvent.createdAt !== isoMicros(contract.createdAtMicros);
  },
  'ledger-events-neighbour-contract': async (n) => {
    const { contract } = archivedHolding(n);
    return (await lookup(n, contract.contractId)).created.createdEvent.contractId !== contract.contractId;
  },
  'ledger-events-archive-omitted': async (n) => (await lookup(n, archivedHolding(n).contract.contractId)).archived === undefined,
  'ledger-package-contents-empty': async (n) => {
    const res = await overview(n, 'GET', `/v2/packages/${n.context.world.amuletPackage}`);
    return res.status === 200 && res.text.length === 0;
  },
  'ledger-packages-list-omits-amulet': async (n) =>
    !((await overview(n, 'GET', '/v2/packages')).json() as { packageIds: string[] }).packageIds.includes(n.context.world.amuletPackage),
  'ledger-package-contents-of-another': async (n) => {
    const [a, b] = [n.context.world.amuletPackage, n.context.world.walletPackage];
    const [x, y] = [await overview(n, 'GET', `/v2/packages/${a}`), await overview(n, 'GET', `/v2/packages/${b}`)];
    return x.status === 200 && y.status === 200 && x.text === y.text;
  },
  'ledger-package-archive-as-text': async (n) =>
    /^text\/plain/.test((await overview(n, 'GET', `/v2/packages/${n.context.world.amuletPackage}`)).contentType ?? ''),
  'ledger-package-status-unknown': async (n) =>
    ((await overview(n, 'GET', `/v2/packages/${n.context.world.walletPackage}/status`)).json() as Json).packageStatus === 'PACKAGE_STATUS_UNSPECIFIED',
  'ledger-dar-validate-accepts-anything': async (n) => (await upload(n, '/v2/dars/validate', Buffer.from('no DAR'))).status === 200,
  'ledger-dar-upload-accepts-anything': async (n) => (await upload(n, '/v2/dars', Buffer.from('no DAR'))).status === 200,
  'ledger-dar-upload-forgets-packages': async (n) => {
    const id = n.context.world.walletPackage;
    const dar = buildDar([{ id, payload: packageStore(n.context).packages.get(id)!.payload }]);
    if ((await upload(n, '/v2/dars?vetAllPackages=false', dar)).status !== 200) return false;
    return !((await overview(n, 'GET', '/v2/packages')).json() as Json).packageIds.includes(id);
  },
  'ledger-vetting-dry-run-applied': async (n) => {
    await dryRunUnvetWallet(n);
    const listing = ((await overview(n, 'GET', '/v2/package-vetting')).json() as Json).vettedPackages as Json[];
    const own = listing.find((v) => v.participantId === n.context.world.ledgerParticipant.id && v.synchronizerId === n.context.world.synchronizers[0]!.id)!;
    return !own.packages.some((p: Json) => p.packageId === n.context.world.walletPackage);
  },
  'ledger-vetting-new-state-stale': async (n) =>
    ((await dryRunUnvetWallet(n)).json() as Json).newVettedPackages.packages.some((p: Json) => p.packageId === n.context.world.walletPackage),
  'ledger-updates-missing-body-500': async (n) =>
    (await call(`${n.urls.ledger}/v2/updates`, { method: 'POST', headers: { authorization: `Bearer ${n.credentials.ledgerAdminToken}` } })).status === 500,
  'ledger-idle-timeout-ignored': async (n) => {
    // Held open: a read asking an idle timeout of 10 ms is not answered before one asking 2 s (limited, which the
    // fault leaves alone, and from the ledger end, so it waits its idle time out). The node's own timers decide
    // the order, not the machine's speed.
    const topology = { includeTopologyEvents: { includeParticipantAuthorizationEvents: {} } };
    const short = openRead(n, 'stream_idle_timeout_ms=10', { beginExclusive: 0, updateFormat: topology });
    const long = openRead(n, 'limit=1&stream_idle_timeout_ms=2000', { beginExclusive: await ledgerEndOf(n), updateFormat: topology });
    const first = await Promise.race([short.answered.then(() => short), long.answered.then(() => long)]);
    // The one held open is hung up on (the node stops holding it); the other is let finish, so no request is
    // left in flight on a node that is closed later.
    if (first === long) short.hangUp();
    await Promise.allSettled([short.answered, long.answered]);
    return first === long;
  },
  'ledger-for-transaction-phantom-update': async (n) => {
    const tx = (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction', { commands: aliceCreate(n, 'probe-phantom') })).json() as Json;
    const at = await read(n, { beginExclusive: tx.transaction.offset - 1, endInclusive: tx.transaction.offset, updateFormat: txFormat(byParty([aliceOf(n)])) });
    return !at.some((e) => e.update.Transaction?.value.updateId === tx.transaction.updateId);
  },
  'ledger-transaction-tree-empty': async (n) =>
    Object.keys(
      ((await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction-tree', aliceCreate(n, 'probe-tree'))).json() as Json).transactionTree.eventsById,
    ).length === 0,
  'ledger-async-submit-dropped': async (n) => {
    const end = await ledgerEndOf(n);
    const accepted = (await aliceCall(n, '/v2/commands/async/submit', aliceCreate(n, 'probe-dropped'))).status === 200;
    return accepted && !(await aliceCompletions(n, '/v2/commands/completions', end)).some((c) => c.commandId === 'probe-dropped');
  },
  'ledger-async-archived-accepted': async (n) => {
    const created = (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction', { commands: aliceCreate(n, 'probe-aa-create') })).json() as Json;
    const contractId = created.transaction.events[0].CreatedEvent.contractId;
    const archive = (commandId: string) => ({
      commandId,
      actAs: [aliceOf(n)],
      commands: [{ ExerciseCommand: { templateId: amuletOf(n), contractId, choice: 'Archive', choiceArgument: {} } }],
    });
    expect((await aliceCall(n, '/v2/commands/submit-and-wait', archive('probe-aa-archive'))).status).toBe(200);
    return (await aliceCall(n, '/v2/commands/async/submit', archive('probe-aa-again'))).status === 200;
  },
  'ledger-tree-failure-swallowed': async (n) => {
    const created = (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction', { commands: aliceCreate(n, 'probe-tfs-create') })).json() as Json;
    const contractId = created.transaction.events[0].CreatedEvent.contractId;
    const archive = (commandId: string) => ({
      commandId,
      actAs: [aliceOf(n)],
      commands: [{ ExerciseCommand: { templateId: amuletOf(n), contractId, choice: 'Archive', choiceArgument: {} } }],
    });
    expect((await aliceCall(n, '/v2/commands/submit-and-wait', archive('probe-tfs-archive'))).status).toBe(200);
    return (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction-tree', archive('probe-tfs-again'))).status === 200;
  },
  'ledger-completion-status-failed': async (n) => {
    const end = await ledgerEndOf(n);
    await aliceCall(n, '/v2/commands/submit-and-wait', aliceCreate(n, 'probe-status'));
    const [c] = (await aliceCompletions(n, '/v2/commands/completions', end)).filter((x) => x.commandId === 'probe-status');
    return c !== undefined && (c.status as { code?: unknown } | undefined)?.code === 13;
  },
  'ledger-command-completions-submission-id': async (n) => {
    const end = await ledgerEndOf(n);
    await aliceCall(n, '/v2/commands/submit-and-wait', aliceCreate(n, 'probe-ids', { submissionId: 'probe-submission' }));
    return (await aliceCompletions(n, '/v2/commands/command-completions', end)).some((c) => c.commandId === 'probe-submission');
  },
  'ledger-unassign-counter-unchanged': async (n) => {
    const out = await aliceUnassign(n, 'probe-counter');
    return out.events[0].JsUnassignedEvent.value.reassignmentCounter === 0;
  },
  'ledger-assign-counter-raised': async (n) => {
    const out = await aliceUnassign(n, 'probe-raised');
    const { reassignmentId, source, target } = out.events[0].JsUnassignedEvent.value;
    const assign = { AssignCommand: { value: { reassignmentId, source, target } } };
    const into = (
      await aliceCall(n, '/v2/commands/submit-and-wait-for-reassignment', { ...aliceMove(n, 'probe-raised-in', assign), eventFormat: byParty([aliceOf(n)]) })
    ).json() as Json;
    return into.reassignment.events[0].JsAssignmentEvent.reassignmentCounter === 2;
  },
  'ledger-async-reassignment-dropped': async (n) => {
    const created = (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction', { commands: aliceCreate(n, 'probe-ar-create') })).json() as Json;
    const contractId = created.transaction.events[0].CreatedEvent.contractId;
    const [source, target] = n.context.world.synchronizers.map((x) => x.id);
    const unassign = { UnassignCommand: { value: { contractId, source, target } } };
    const accepted = (await aliceCall(n, '/v2/commands/async/submit-reassignment', aliceMove(n, 'probe-ar-out', unassign))).status === 200;
    // Never unassigned: the contract can be unassigned (again) from where it was.
    return accepted && (await aliceCall(n, '/v2/commands/submit-and-wait-for-reassignment', aliceMove(n, 'probe-ar-out-2', unassign))).status === 200;
  },
  'ledger-ws-reorders': async (n) => !isIncreasing(offsetsOf((await wsRead(n, '/v2/updates', body({}))).messages)),
  'ledger-ws-drops-update': async (n) => (await wsRead(n, '/v2/updates', body({}))).messages.length < (await read(n, body({}))).length,
  'ledger-ws-duplicates-update': async (n) => {
    const offsets = offsetsOf((await wsRead(n, '/v2/updates', body({}))).messages);
    return new Set(offsets).size < offsets.length;
  },
  'ledger-ws-stops-at-list-limit': async (n) => {
    const { messages, close } = await wsRead(n, '/v2/updates', body({ endInclusive: OVER_LIMIT_END }));
    return close?.code === 1000 && messages.length === n.context.settings.listLimit;
  },
  'ledger-ws-filter-ignored': async (n) => {
    const amulet = amuletOf(n);
    const { messages } = await wsRead(n, '/v2/updates', body({ updateFormat: txFormat({ filtersForAnyParty: templateFilter(amulet) }) }));
    return flatEvents(messages).some(({ ev }) => ev.templateId !== amulet);
  },
  'ledger-ws-no-live-updates': async (n) => {
    const ch = await wsOpen(n, '/v2/updates', { beginExclusive: await ledgerEndOf(n), updateFormat: txFormat(byParty([aliceOf(n)])) });
    const { updateId } = (await aliceCall(n, '/v2/commands/submit-and-wait', aliceCreate(n, 'probe-ws-live'))).json() as Json;
    const delivered = await ch.waitFor((ms) => transactions(ms).some((tx) => tx.updateId === updateId), LIVE_WAIT_MS);
    await ch.close();
    return !delivered;
  },
  'ledger-ws-close-ignored': async (n) => {
    const ch = await wsOpen(n, '/v2/updates', { beginExclusive: await ledgerEndOf(n), updateFormat: txFormat(byParty([aliceOf(n)])) });
    return !(await ch.close(LIVE_WAIT_MS));
  },
  'ledger-ws-bad-request-silent-close': async (n) => {
    const { messages, close } = await wsRead(n, '/v2/updates', '{"beginExclusive": ');
    return close !== undefined && messages.length === 0;
  },
  'ledger-ws-token-unchecked': async (n) => !(await openChannel(n, '/v2/updates', { token: null, request: body({}) }).then(closed)).refused,
  'ledger-ws-completions-missing': async (n) => {
    const request = { userId: n.credentials.ledgerUserToken.user, parties: [aliceOf(n)], beginExclusive: await ledgerEndOf(n) };
    const ch = await wsOpen(n, '/v2/commands/completions', request, n.credentials.ledgerUserToken.token);
    await aliceCall(n, '/v2/commands/submit-and-wait', aliceCreate(n, 'probe-ws-completion'));
    const delivered = await ch.waitFor((ms) => ms.some((m) => m.completionResponse?.Completion?.value.commandId === 'probe-ws-completion'), LIVE_WAIT_MS);
    await ch.close();
    return !delivered;
  },
  'ledger-ws-message-malformed': async (n) =>
    (await wsRead(n, '/v2/state/active-contracts', { activeAtOffset: 100, eventFormat: ANY })).messages.some((m) => typeof m.workflowId === 'number'),
  'ledger-ws-active-contracts-archived-included': async (n) => {
    const archived = new Set(
      flatEvents(await read(n, body({})))
        .filter((e) => e.kind === 'ArchivedEvent')
        .map((e) => e.ev.contractId as string),
    );
    const snapshot = (await wsRead(n, '/v2/state/active-contracts', { activeAtOffset: 100, eventFormat: ANY })).messages;
    return snapshot.some((m) => archived.has(m.contractEntry?.JsActiveContract?.createdEvent?.contractId));
  },
  'ledger-reassignment-json-as-text': async (n) => {
    const created = (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction', { commands: aliceCreate(n, 'probe-rt-create') })).json() as Json;
    const contractId = created.transaction.events[0].CreatedEvent.contractId;
    const [source, target] = n.context.world.synchronizers.map((x) => x.id);
    const unassign = { UnassignCommand: { value: { contractId, source, target } } };
    const moved = await aliceCall(n, '/v2/commands/submit-and-wait-for-reassignment', aliceMove(n, 'probe-rt-out', unassign));
    return moved.status === 200 && /^text\/plain/.test(moved.contentType ?? '');
  },
};

/** How long a WebSocket probe waits for what a live channel delivers at once on a clean node. */
const LIVE_WAIT_MS = 2_000;
/** A whole read of a channel, as the admin. */
const wsRead = (n: RunningReferenceNode, path: string, request: unknown) => readChannel(n, path, { request });
/** A channel left open for the probe to drive (it must close it). */
async function wsOpen(n: RunningReferenceNode, path: string, request: unknown, token?: string): Promise<OpenChannel> {
  const ch = await openChannel(n, path, { request, token });
  if (ch.refused) throw new Error(`${path}: the upgrade was refused with ${ch.status}`);
  return ch;
}
/** An upgrade's outcome, the channel closed if it was accepted. */
async function closed(ch: OpenChannel | Refused): Promise<OpenChannel | Refused> {
  if (!ch.refused) await ch.close();
  return ch;
}

/** A POST of alice's (the limited ledger user) to a command endpoint. */
const aliceCall = (n: RunningReferenceNode, path: string, payload: unknown) =>
  call(`${n.urls.ledger}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${n.credentials.ledgerUserToken.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
const amuletOf = (n: RunningReferenceNode) => `${n.context.world.amuletPackage}:Splice.Amulet:Amulet`;
/** A JsCommands body of alice's creating an amulet of her own. */
const aliceCreate = (n: RunningReferenceNode, commandId: string, extra: Json = {}) => ({
  commandId,
  actAs: [aliceOf(n)],
  commands: [{ CreateCommand: { templateId: amuletOf(n), createArguments: { owner: aliceOf(n), amount: '1.0' } } }],
  ...extra,
});
const aliceMove = (n: RunningReferenceNode, commandId: string, command: Json) => ({
  reassignmentCommands: { commandId, submitter: aliceOf(n), commands: [{ command }] },
});
/** A contract alice creates, unassigned from the first synchronizer to the second: the reassignment answered. */
async function aliceUnassign(n: RunningReferenceNode, commandId: string): Promise<Json> {
  const created = (await aliceCall(n, '/v2/commands/submit-and-wait-for-transaction', { commands: aliceCreate(n, `${commandId}-create`) })).json() as Json;
  const contractId = created.transaction.events[0].CreatedEvent.contractId;
  const [source, target] = n.context.world.synchronizers.map((x) => x.id);
  const unassign = { UnassignCommand: { value: { contractId, source, target } } };
  const out = await aliceCall(n, '/v2/commands/submit-and-wait-for-reassignment', { ...aliceMove(n, commandId, unassign), eventFormat: byParty([aliceOf(n)]) });
  return (out.json() as Json).reassignment;
}
const ledgerEndOf = async (n: RunningReferenceNode) =>
  ((await call(`${n.urls.ledger}/v2/state/ledger-end`, { headers: { authorization: `Bearer ${n.credentials.ledgerUserToken.token}` } })).json() as Json)
    .offset as number;
/** alice's completions after `begin` on a completion endpoint: the Completion records. */
async function aliceCompletions(n: RunningReferenceNode, path: string, begin: number): Promise<Json[]> {
  const els = (await aliceCall(n, `${path}?stream_idle_timeout_ms=1`, { parties: [aliceOf(n)], beginExclusive: begin })).json() as Json[];
  return els.map((e) => e.completionResponse?.Completion?.value).filter((v) => v !== undefined);
}

/** A call to an overview endpoint of the ledger, with the admin's credentials. */
const overview = (n: RunningReferenceNode, method: string, path: string, text?: string) =>
  call(`${n.urls.ledger}${path}`, {
    method,
    headers: { authorization: `Bearer ${n.credentials.ledgerAdminToken}`, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
    body: text,
  });

/** Bytes posted to an upload or validation path, with the admin's credentials. */
const upload = (n: RunningReferenceNode, path: string, bytes: Buffer) =>
  call(`${n.urls.ledger}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${n.credentials.ledgerAdminToken}`, 'content-type': 'application/octet-stream' },
    body: bytes,
  });

/** The events of a contract, looked up by its id. */
const lookup = async (n: RunningReferenceNode, contractId: string) =>
  (await overview(n, 'POST', '/v2/events/events-by-contract-id', JSON.stringify({ contractId }))).json() as Json;

const archivedHolding = (n: RunningReferenceNode) => n.context.world.baseHoldings.find((h) => h.archivedIn !== undefined)!;

/** A dry run of unvetting the wallet package on the first synchronizer. */
const dryRunUnvetWallet = (n: RunningReferenceNode) =>
  overview(
    n,
    'POST',
    '/v2/package-vetting',
    JSON.stringify({
      synchronizerId: n.context.world.synchronizers[0]!.id,
      dryRun: true,
      changes: [{ operation: { Unvet: { value: { packages: [{ packageId: n.context.world.walletPackage }] } } } }],
    }),
  );

/** Faults whose rule is the document's schema itself: only their answers may stop conforming. */
const SCHEMA_FAULTS = new Set<LedgerFaultName>([
  'ledger-error-400-as-json',
  'ledger-error-body-shape',
  'ledger-two-keys-update',
  'ledger-required-field-dropped',
  'ledger-checkpoint-kind-misnamed',
]);

/** Problems of a fixed battery of stream reads (several shapes, with and without credentials, one bad body). */
async function batteryProblems(n: RunningReferenceNode): Promise<string[]> {
  const spec = await builtinSpec('ledger');
  const a = aliceOf(n);
  const bodies = [
    body({}),
    { beginExclusive: 0, endInclusive: 300, descendingOrder: true, updateFormat: txFormat(byParty([a]), 'TRANSACTION_SHAPE_LEDGER_EFFECTS') },
    { beginExclusive: 0, filter: byParty([a]) },
    { beginExclusive: -1, filter: {} },
  ];
  const problems: string[] = [];
  for (const b of bodies) {
    for (const token of [undefined, null]) problems.push(...responseProblems(spec, 'getUpdates', await stream(n, b, { token, query: 'limit=40' })));
  }
  return problems;
}

export const LEDGER_PROBES: InterfaceProbes = { probes: PROBES, battery: batteryProblems, documentFaults: SCHEMA_FAULTS };

/** A stream read of the admin's on a connection of its own, which a hang-up closes at once. */
function openRead(n: RunningReferenceNode, query: string, body: Json): { answered: Promise<void>; hangUp(): void } {
  const req = request(`${n.urls.ledger}/v2/updates?${query}`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${n.credentials.ledgerAdminToken}` },
  });
  const answered = new Promise<void>((resolve, reject) => {
    req.on('response', (res) => res.resume().on('end', resolve).on('error', reject));
    req.on('error', reject);
  });
  req.end(JSON.stringify(body));
  return { answered, hangUp: () => req.destroy() };
}
