// The scan faults' probes: the detector of each fault's rule lists what breaks it on the node (nothing on a
// clean node), with requests of its own; the faults a scan requirement probes are named with it. The battery
// sweeps every operation with the world's data: schema problems appear only for the faults about the wire shape.
import type { RunningReferenceNode } from '../../../reference-node/index.ts';
import { SCAN_FAULTS, type ScanFaultName } from '../../../reference-node/scan/faults.ts';
import { isoMicros } from '../../../reference-node/world/time.ts';
import { builtinSpec } from '../builtin-specs.ts';
import { inject, responseProblems } from '../response-conformance.ts';
import {
  ansUrlOk,
  byValidator,
  creationOrder,
  download,
  errorShapeProblems,
  expectedHoldings,
  faucetArithmeticProblems,
  faucetQuery,
  fetchUpdates,
  holdingsBody,
  isSorted,
  lastSnapshot,
  MICROS_ISO,
  offsetProblems,
  PARTICIPANT_ID,
  reassignmentIndices,
  reassignmentProblems,
  scanClient,
  scanIndices,
  scanWorldRequests,
  sha256,
  transactionIndices,
  treeProblems,
  walkHoldings,
  type ScanClient,
} from '../../reference-node/scan-support.ts';
import type { Json as AnyJson } from '../../../common/json.ts';
import type { InterfaceProbes } from './probe.ts';

type Json = Record<string, AnyJson>;
type Detector = (n: RunningReferenceNode, c: ScanClient) => Promise<string[]>;

const enc = encodeURIComponent;
const owners = (n: RunningReferenceNode) => n.context.world.bulkHoldingOwners;
const walk7 = (n: RunningReferenceNode, c: ScanClient) => walkHoldings(c, 'v1', holdingsBody(lastSnapshot(n), owners(n), 7), 200);
const statusNot = (res: { status: number; text: string }, status: number, what: string) =>
  res.status === status ? [] : [`${what}: ${res.status} ${res.text.slice(0, 120)}`];
const domain = (n: RunningReferenceNode) => enc(n.context.world.synchronizers[0]!.id);
const firstTransactionId = (n: RunningReferenceNode) => n.context.world.getUpdate(transactionIndices(n)[0]!).updateId;

async function treeFindings(n: RunningReferenceNode, c: ScanClient, phrase: string): Promise<string[]> {
  const txs = await fetchUpdates(c, n, transactionIndices(n).slice(0, 40));
  return txs.flatMap((tx) => treeProblems(tx)).filter((p) => p.includes(phrase));
}

async function ans(c: ScanClient, query: string): Promise<Json[]> {
  return ((await c.get(`/v0/ans-entries?${query}`)).json() as Json).entries as Json[];
}

/** Faults whose probe is the one scan requirement each breaks (one it names: the matrix's run shows it). */
const REQUIREMENT_DETECTED: Partial<Record<ScanFaultName, string>> = {
  'scan-holdings-time-not-echoed': 'SCAN-HOLDINGS-REQUEST-ECHOED',
  'scan-holdings-at-or-before-refused': 'SCAN-HOLDINGS-AT-OR-BEFORE',
  'scan-holdings-v0-event-type-missing': 'SCAN-HOLDINGS-V0-CREATED-EVENTS',
  'scan-holdings-v0-missing-contract': 'SCAN-HOLDINGS-V0-MATCHES-V1',
  'scan-holdings-v2-missing-contract': 'SCAN-HOLDINGS-V2-MATCHES-V1',
  'scan-holdings-v0-created-at-shifted': 'SCAN-HOLDINGS-V0-MATCHES-V1',
  'scan-holdings-v2-created-in-dropped': 'SCAN-HOLDINGS-V2-MATCHES-V1',
  'scan-holdings-first-owner-only': 'SCAN-HOLDINGS-OWNERS-UNION',
  'scan-tree-orphan-event': 'SCAN-UPDATES-TREE-ALL-REACHABLE',
  'scan-lossless-tree-differs': 'SCAN-UPDATES-LOSSLESS-VARIANTS',
  'scan-protobuf-tree-differs': 'SCAN-EVENTS-ENCODING-VARIANTS',
  'scan-reassignment-update-id-mismatch': 'SCAN-REASSIGNMENT-RECORDS',
  'scan-verdict-update-id-mismatch': 'SCAN-EVENTS-VERDICT-FIELDS',
  'scan-verdict-unknown-root-view': 'SCAN-EVENTS-VERDICT-VIEWS',
  'scan-traffic-envelope-unknown-view': 'SCAN-EVENTS-TRAFFIC-SUMMARY',
  'scan-app-activity-weight-missing': 'SCAN-EVENTS-APP-ACTIVITY',
  'scan-faucet-unknown-listed': 'SCAN-FAUCETS-UNKNOWN-IGNORED',
  'scan-bulk-token-skips-object': 'SCAN-BULK-PAGING-COMPLETE',
  'scan-root-hash-not-hex': 'SCAN-ROOT-HASH-RESULT-SHAPE',
  'scan-reward-weight-number': 'SCAN-REWARD-WEIGHT-STRING-OR-ABSENT',
  'scan-reward-weight-before-ignored': 'SCAN-REWARD-WEIGHT-EFFECTIVE-BEFORE',
  'scan-unknown-synchronizer-400': 'SCAN-ERRORS-NOT-FOUND-404',
  'scan-v2-unknown-update-500': 'SCAN-ERRORS-NOT-FOUND-404',
  'scan-backfilling-flag-text': 'SCAN-BACKFILLING-COMPLETE-FLAG',
  'scan-feature-flag-text': 'SCAN-FEATURE-SUPPORT',
  'scan-synchronizer-mediator-missing': 'SCAN-SYNCHRONIZER-IDENTITIES',
  'scan-coupon-wrong-template': 'SCAN-DEVELOPMENT-FUND-COUPONS',
  'scan-preapproval-created-at-text': 'SCAN-TRANSFER-PREAPPROVAL',
  'scan-bulk-end-exclusive': 'SCAN-BULK-COVERS-RANGE',
  'scan-v2-children-reversed': 'SCAN-UPDATES-V2-CHILDREN-IN-ORDER',
  'scan-protobuf-compact': 'SCAN-EVENTS-ENCODING-VARIANTS',
  'scan-protobuf-value-differs': 'SCAN-EVENTS-ENCODING-VARIANTS',
  'scan-v0-update-record-time-shifted': 'SCAN-UPDATES-VARIANTS-SAME-UPDATE',
  'scan-ans-page-newest': 'SCAN-ANS-OLDEST-FIRST',
  'scan-holdings-at-or-before-rounds-up': 'SCAN-HOLDINGS-AT-OR-BEFORE',
  'scan-faucet-single-round-spread': 'SCAN-FAUCETS-ROUND-ARITHMETIC',
  'scan-reassignment-unassign-id-mismatch': 'SCAN-REASSIGNMENT-PAIR-COUNTER',
  'scan-record-time-zeros-trimmed': 'SCAN-HISTORY-RECORD-TIME-SIX-DIGITS',
  'scan-ans-special-entry-contract-id': 'SCAN-ANS-SPECIAL-NO-CONTRACT',
  'scan-ans-empty-prefix-none': 'SCAN-ANS-EMPTY-PREFIX-ALL',
  'scan-lossless-default-true': 'SCAN-UPDATES-LOSSLESS-DEFAULT',
  'scan-event-encoding-default-protobuf': 'SCAN-EVENTS-ENCODING-DEFAULT',
  'scan-force-acs-stale-migration': 'SCAN-HOLDINGS-FORCE-ACS-MIGRATION',
  'scan-participant-id-first-only': 'SCAN-PARTICIPANT-ID-MULTI-HOSTED',
  'scan-effective-at-format': 'SCAN-UPDATES-EFFECTIVE-AT-ISO',
  'scan-exercised-event-type-missing': 'SCAN-UPDATES-EVENT-TYPES',
  'scan-holdings-created-in-earlier-migration': 'SCAN-HOLDINGS-CREATED-IN-MIGRATION',
  'scan-holdings-created-at-record-time': 'SCAN-HOLDINGS-CREATED-AT-EFFECTIVE',
  'scan-holdings-verbose-arguments': 'SCAN-HOLDINGS-CREATE-ARGUMENTS-COMPACT',
  'scan-holdings-archived-included': 'SCAN-HOLDINGS-ACTIVE-AT-SNAPSHOT',
  'scan-reassignment-migration-shifted': 'SCAN-REASSIGNMENT-MIGRATION-OF-SYNCHRONIZER',
  'scan-ans-prefix-case-folded': 'SCAN-ANS-NAME-PREFIX',
  'scan-ans-expiry-grace-hour': 'SCAN-ANS-NO-EXPIRED',
  'scan-protobuf-children-reversed': 'SCAN-EVENTS-V2-CHILDREN-IN-ORDER',
  'scan-lossless-workflow-dropped': 'SCAN-UPDATES-LOSSLESS-VARIANTS',
  'scan-reward-weight-at-or-before': 'SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE',
  'scan-reward-weight-earliest': 'SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE',
  'scan-bulk-page-max-refused': 'SCAN-BULK-PAGE-SIZE-400',
  'scan-bulk-token-on-last-page': 'SCAN-BULK-PAGING-COMPLETE',
  'scan-bulk-full-last-page-token-refused': 'SCAN-BULK-PAGING-COMPLETE',
  'scan-holdings-none-found': 'SCAN-HOLDINGS-V1-OF-OWNERS',
  'scan-v0-lookup-other-update': 'SCAN-UPDATES-BY-ID',
  'scan-v2-lookup-other-update': 'SCAN-UPDATES-V2-BY-ID',
  'scan-event-lookup-other-update': 'SCAN-EVENTS-BY-ID',
  'scan-preapproval-other-receiver': 'SCAN-TRANSFER-PREAPPROVAL',
  'scan-faucets-every-validator': 'SCAN-FAUCETS-ASKED-VALIDATORS',
  'scan-faucets-none-found': 'SCAN-FAUCETS-ASKED-VALIDATORS',
  'scan-synchronizer-prefix-other': 'SCAN-SYNCHRONIZER-IDENTITIES-OF-PREFIX',
  'scan-synchronizer-miss-repeats-last-hit': 'SCAN-ERRORS-NOT-FOUND-404',
  'scan-v2-created-at-record-time': 'SCAN-EVENTS-BY-ID',
  'scan-assignment-values-compact': 'SCAN-EVENTS-ENCODING-VARIANTS',
  'scan-ans-prefixed-bad-url': 'SCAN-ANS-URL',
  'scan-events-protobuf-dangling-child': 'SCAN-EVENTS-BY-ID',
  'scan-ans-prefix-lists-none': 'SCAN-ANS-LOOKUP-BY-NAME',
  'scan-participant-id-wrong-host': 'SCAN-PARTICIPANT-ID-HOSTS-SEEN',
  'scan-events-update-offset': 'SCAN-EVENTS-UPDATE-NO-OFFSET',
  'scan-lossless-ignored': 'SCAN-UPDATES-LOSSLESS-VARIANTS',
  'scan-traffic-med-refused': 'SCAN-TRAFFIC-MEMBER-ID-400',
  'scan-synchronizer-prefix-exact-only': 'SCAN-SYNCHRONIZER-IDENTITIES-PREFIX',
};

const DETECTORS: Partial<Record<ScanFaultName, Detector>> = {
  // The release stated has the operation (since 0.6.9), and the node answers it as an unknown path.
  'scan-root-hash-old-path': async (_n, c) => {
    const [moved, old] = await Promise.all(
      ['/v0/internal/reward-accounting-process/rounds/0/root-hash', '/v0/reward-accounting-process/rounds/0/root-hash'].map((p) => c.get(p)),
    );
    return moved!.text.startsWith('The requested resource') && !old!.text.startsWith('The requested resource')
      ? [`moved path ${moved!.status}, old path ${old!.status}`]
      : [];
  },
  'scan-previous-reward-weight-unserved': async (_n, c) => {
    const version = ((await c.get('/version')).json() as Json).version;
    const res = await c.post('/v0/admin/sv/previous-sv-reward-weight', {});
    return version === '0.7.5' && res.status === 404 && res.text.startsWith('The requested resource') ? [`${version}: ${res.status} ${res.text}`] : [];
  },
  'scan-holdings-lost-item': async (n, c) => {
    const walk = await walk7(n, c);
    return expectedHoldings(n, lastSnapshot(n), owners(n))
      .filter((id) => !walk.ids.includes(id))
      .map((id) => `missing ${id}`);
  },
  'scan-holdings-duplicate': async (n, c) => {
    const ids = (await walk7(n, c)).ids;
    return ids.filter((id, k) => ids.indexOf(id) !== k).map((id) => `repeated ${id}`);
  },
  'scan-holdings-endless-token': async (n, c) => {
    const page = (await c.post('/v1/holdings/state', holdingsBody(lastSnapshot(n), owners(n), 1000))).json() as Json;
    return page.next_page_token === undefined ? [] : [`token ${page.next_page_token} after the last holding`];
  },
  'scan-holdings-page-too-large': async (n, c) =>
    (await walk7(n, c)).pages.filter((p) => p.created_events.length > 7).map((p) => `${p.created_events.length} on a page of 7`),
  'scan-holdings-wrong-order': async (n, c) => {
    const order = creationOrder(n);
    return (await walk7(n, c)).pages
      .map((p) => p.created_events.map((e: Json) => String(order.get(e.contract_id)).padStart(8, '0')) as string[])
      .filter((positions) => !isSorted(positions))
      .map((positions) => `page order ${positions.join(',')}`);
  },
  'scan-holdings-owner-leak': async (n, c) => {
    const alice = owners(n)[0]!;
    const w = await walkHoldings(c, 'v1', holdingsBody(lastSnapshot(n), [alice], 50), 50);
    return w.pages
      .flatMap((p) => p.created_events)
      .filter((e: Json) => e.create_arguments.owner !== alice)
      .map((e: Json) => `owned by ${e.create_arguments.owner}`);
  },
  'scan-holdings-exact-ignored': async (n, c) => {
    const s = lastSnapshot(n);
    return statusNot(
      await c.post('/v1/holdings/state', holdingsBody(s, owners(n), 5, { record_time: isoMicros(s.recordTimeMicros + 1) })),
      400,
      'non-snapshot time as exact',
    );
  },
  'scan-holdings-empty-owners-accepted': async (n, c) =>
    statusNot(await c.post('/v2/holdings/state', holdingsBody(lastSnapshot(n), [], 5)), 400, 'empty owner_party_ids'),
  'scan-required-field-dropped': async (n, c) => {
    const page = (await c.post('/v1/holdings/state', holdingsBody(lastSnapshot(n), owners(n), 5))).json() as Json;
    return page.created_events.filter((e: Json) => e.template_id === undefined).map((e: Json) => `${e.contract_id} without template_id`);
  },
  'scan-force-acs-time-rejected': async (n, c) => {
    const forced = (await c.post('/v0/state/acs/force')).json() as Json;
    return statusNot(
      await c.post('/v1/holdings/state', { migration_id: forced.migration_id, record_time: forced.record_time, page_size: 5, owner_party_ids: owners(n) }),
      200,
      'force-ACS time as exact',
    );
  },
  'scan-tree-dangling-root': (n, c) => treeFindings(n, c, 'root'),
  'scan-tree-dangling-child': (n, c) => treeFindings(n, c, 'child'),
  'scan-tree-event-id-mismatch': (n, c) => treeFindings(n, c, 'differs from its key'),
  'scan-v2-updates-dangling-root': async (n, c) =>
    (await fetchUpdates(c, n, transactionIndices(n).slice(0, 20), 'v2')).flatMap((tx) => treeProblems(tx)).filter((p) => p.includes('root')),
  'scan-events-update-record-time-nanos': async (n, c) => {
    const out: string[] = [];
    for (const i of transactionIndices(n).slice(0, 10)) {
      const item = (await c.get(`/v0/events/${n.context.world.updateId(i)}`)).json() as Json;
      const rt = (item.update as Json).record_time as string;
      if (!MICROS_ISO.test(rt)) out.push(`${i}: ${rt}`);
    }
    return out;
  },
  'scan-v2-unsorted': async (n, c) => {
    const multi = transactionIndices(n)
      .filter((i) => {
        const u = n.context.world.getUpdate(i);
        return u.kind === 'transaction' && u.nodes.length > 1;
      })
      .slice(0, 10);
    return (await fetchUpdates(c, n, multi, 'v2')).filter((tx) => !isSorted(Object.keys(tx.events_by_id))).map((tx) => `${tx.update_id} unsorted`);
  },
  'scan-reassignment-counter-mismatch': async (n, c) =>
    reassignmentProblems(await fetchUpdates(c, n, reassignmentIndices(n))).filter((p) => p.startsWith('pair')),
  'scan-reassignment-counter-not-increasing': async (n, c) =>
    reassignmentProblems(await fetchUpdates(c, n, reassignmentIndices(n))).filter((p) => p.includes('not strictly increasing')),
  'scan-record-time-format': async (n, c) =>
    (await fetchUpdates(c, n, scanIndices(n).slice(0, 20))).filter((u) => !MICROS_ISO.test(u.record_time)).map((u) => u.record_time),
  'scan-offsets-not-increasing': async (n, c) => offsetProblems(await fetchUpdates(c, n, scanIndices(n).slice(0, 30))).filter((p) => p.startsWith('offset')),
  'scan-external-hash-null': async (n, c) =>
    (await fetchUpdates(c, n, transactionIndices(n).slice(0, 20)))
      .filter((tx) => tx.external_transaction_hash === null)
      .map((tx) => `${tx.update_id}: null hash`),
  'scan-faucet-arithmetic': async (n, c) =>
    faucetArithmeticProblems(((await c.get(faucetQuery(n.context.world.validators.map((v) => v.party)))).json() as Json).validatorsReceivedFaucets),
  'scan-faucet-order-dependent': async (n, c) => {
    const ids = n.context.world.validators.map((v) => v.party);
    const [a, b] = await Promise.all([c.get(faucetQuery(ids)), c.get(faucetQuery([...ids].reverse()))]);
    return JSON.stringify(byValidator((a.json() as Json).validatorsReceivedFaucets)) ===
      JSON.stringify(byValidator((b.json() as Json).validatorsReceivedFaucets))
      ? []
      : ['answers differ with argument order'];
  },
  'scan-traffic-limit-above-purchased': async (n, c) => {
    const out: string[] = [];
    for (const member of n.context.world.memberTraffic.keys()) {
      const t = ((await c.get(`/v0/domains/${domain(n)}/members/${enc(member)}/traffic-status`)).json() as Json).traffic_status;
      if (t.actual.total_limit > t.target.total_purchased) out.push(`${member}: limit ${t.actual.total_limit} > purchased ${t.target.total_purchased}`);
    }
    return out;
  },
  'scan-member-id-unchecked': async (n, c) =>
    statusNot(await c.get(`/v0/domains/${domain(n)}/members/participant1/traffic-status`), 400, 'member id participant1'),
  'scan-participant-id-format': async (n, c) => {
    const ids = ((await c.get(`/v1/domains/${domain(n)}/parties/${enc(n.context.world.multiHostedParty.id)}/participant-id`)).json() as Json)
      .participant_ids as string[];
    return ids.filter((id) => !PARTICIPANT_ID.test(id));
  },
  'scan-ans-prefix-ignored': async (_n, c) => (await ans(c, 'page_size=100&name_prefix=app')).filter((e) => !e.name.startsWith('app')).map((e) => e.name),
  'scan-ans-expired-listed': async (n, c) => {
    const now = n.context.clock.now();
    const expired = new Set(n.context.world.ansEntries.filter((e) => e.expiresAtMicros !== undefined && e.expiresAtMicros <= now).map((e) => e.name));
    return (await ans(c, 'page_size=100')).filter((e) => expired.has(e.name)).map((e) => `expired ${e.name}`);
  },
  'scan-ans-bad-url': async (_n, c) => (await ans(c, 'page_size=100')).filter((e) => !ansUrlOk(e.url)).map((e) => e.url),
  'scan-ans-too-many': async (_n, c) => {
    const entries = await ans(c, 'page_size=2');
    return entries.length > 2 ? [`${entries.length} entries for page_size 2`] : [];
  },
  'scan-bulk-digest-mismatch': async (n, c) => {
    const w = n.context.world;
    const page = (
      await c.post('/v0/history/bulk/updates', {
        start_record_time: isoMicros(w.recordTimeMicros(0)),
        end_record_time: isoMicros(w.recordTimeMicros(400)),
        page_size: 3,
      })
    ).json() as Json;
    const out: string[] = [];
    for (const ref of page.object_refs) if (sha256((await download(ref.url)).bytes) !== ref.digest) out.push(`digest of ${ref.url}`);
    return out;
  },
  'scan-bulk-page-size-unchecked': async (_n, c) => {
    const range = { start_record_time: '2025-01-06T09:00:00Z', end_record_time: '2025-01-06T09:30:00Z' };
    return [
      ...statusNot(await c.post('/v0/history/bulk/updates', { ...range, page_size: 0 }), 400, 'page_size 0'),
      ...statusNot(await c.post('/v0/history/bulk/updates', { ...range, page_size: 1001 }), 400, 'page_size 1001'),
    ];
  },
  'scan-error-body-shape': async (_n, c) => errorShapeProblems(await c.get(`/v0/synchronizer-identities/no-such-prefix`), 404),
  'scan-error-message-nested': async (_n, c) => errorShapeProblems(await c.get(`/v0/synchronizer-identities/no-such-prefix`), 404),
  'scan-bad-input-500': async (_n, c) => statusNot(await c.get('/v0/ans-entries?page_size=zero'), 400, 'page_size zero'),
  'scan-bulk-download-json-type': async (n, c) => {
    const w = n.context.world;
    const page = (
      await c.post('/v0/history/bulk/updates', {
        start_record_time: isoMicros(w.recordTimeMicros(0)),
        end_record_time: isoMicros(w.recordTimeMicros(400)),
        page_size: 3,
      })
    ).json() as Json;
    const out: string[] = [];
    for (const ref of page.object_refs) {
      const type = (await download(ref.url)).contentType;
      if (type !== 'application/octet-stream') out.push(`${ref.url} served as ${type}`);
    }
    return out;
  },
  'scan-holdings-walked-page-malformed': async (n, c) =>
    (await walk7(n, c)).pages.flatMap((p, i) =>
      (p.created_events as Json[]).filter((e) => typeof e.created_at !== 'string').map((e) => `page ${i + 1}: created_at ${String(e.created_at)}`),
    ),
  'scan-participant-id-no-fingerprint': async (n, c) => {
    const ids = ((await c.get(`/v1/domains/${domain(n)}/parties/${enc(n.context.world.multiHostedParty.id)}/participant-id`)).json() as Json)
      .participant_ids as string[];
    return ids.filter((id) => !PARTICIPANT_ID.test(id));
  },
  // Offsets compared as the description compares them: as strings.
  'scan-offsets-unpadded': async (n, c) => offsetProblems(await fetchUpdates(c, n, scanIndices(n).slice(0, 30))).filter((p) => p.startsWith('offset')),
  'scan-holdings-grouped-by-owner': async (n, c) => {
    const order = creationOrder(n);
    return (await walk7(n, c)).pages
      .map((p) => p.created_events.map((e: Json) => String(order.get(e.contract_id)).padStart(8, '0')) as string[])
      .filter((positions) => !isSorted(positions))
      .map((positions) => `page order ${positions.join(',')}`);
  },
  'scan-holdings-cohosted-owners': async (n, c) => {
    const alice = owners(n)[0]!;
    const w = await walkHoldings(c, 'v1', holdingsBody(lastSnapshot(n), [alice], 50), 50);
    return w.pages
      .flatMap((p) => p.created_events)
      .filter((e: Json) => e.create_arguments.owner !== alice)
      .map((e: Json) => `owned by ${e.create_arguments.owner}`);
  },
  'scan-traffic-actual-target-swapped': async (n, c) => {
    const out: string[] = [];
    for (const member of n.context.world.memberTraffic.keys()) {
      const t = ((await c.get(`/v0/domains/${domain(n)}/members/${enc(member)}/traffic-status`)).json() as Json).traffic_status;
      if (t.actual.total_limit > t.target.total_purchased) out.push(`${member}: limit ${t.actual.total_limit} > purchased ${t.target.total_purchased}`);
    }
    return out;
  },
  'scan-event-encoding-unchecked': async (n, c) =>
    statusNot(await c.get(`/v0/events/${enc(firstTransactionId(n))}?daml_value_encoding=xml`), 400, 'daml_value_encoding xml'),
  'scan-lossless-unchecked': async (n, c) => statusNot(await c.get(`/v0/updates/${enc(firstTransactionId(n))}?lossless=maybe`), 400, 'lossless maybe'),
  'scan-ans-page-size-defaulted': async (_n, c) => statusNot(await c.get('/v0/ans-entries'), 400, 'no page_size'),
  'scan-faucets-missing-ids-empty': async (_n, c) => statusNot(await c.get('/v0/validators/validator-faucets'), 400, 'no validator_ids'),
  'scan-reward-weight-party-unchecked': async (_n, c) => statusNot(await c.post('/v0/admin/sv/previous-sv-reward-weight', {}), 400, 'no svParty'),
  'scan-preserialized-json-as-text': async (n, c) => {
    const answers = [
      await c.get(faucetQuery(n.context.world.validators.map((v) => v.party))),
      await c.get('/v0/unclaimed-development-fund-coupons'),
      await c.post('/v0/state/acs/force'),
    ];
    return answers.filter((r) => !/^application\/json/.test(r.contentType ?? '')).map((r) => `answered as ${r.contentType}`);
  },
  'scan-ans-entries-as-text': async (_n, c) => {
    const r = await c.get('/v0/ans-entries?page_size=5');
    return /^application\/json/.test(r.contentType ?? '') ? [] : [`answered as ${r.contentType}`];
  },
  'scan-root-hash-round-mismatch': async (_n, c) => {
    const out: string[] = [];
    for (let r = 1; r < 10; r++) {
      const body = (await c.get(`/v0/internal/reward-accounting-process/rounds/${r}/root-hash`)).json() as Json;
      if (body.round_number !== undefined && body.round_number !== r) out.push(`round ${r} answered as ${body.round_number}`);
    }
    return out;
  },
};

/** Faults whose broken rule is itself part of the wire shape, so the schema sweep flags them. */
const SHAPE_FAULTS = new Set<ScanFaultName>([
  'scan-required-field-dropped',
  'scan-holdings-walked-page-malformed',
  'scan-external-hash-null',
  'scan-error-body-shape',
  'scan-error-message-nested',
  'scan-holdings-v0-event-type-missing',
  'scan-reward-weight-number',
  'scan-backfilling-flag-text',
  'scan-feature-flag-text',
  'scan-synchronizer-mediator-missing',
  'scan-bulk-download-json-type',
  'scan-preserialized-json-as-text',
  'scan-ans-entries-as-text',
  // An operation of the stated release answered as an unknown path: a plain-text 404 the document does not list.
  'scan-previous-reward-weight-unserved',
  'scan-root-hash-old-path',
]);

/** Schema problems of every operation's answers to requests built from the world's data. */
async function schemaProblems(n: RunningReferenceNode): Promise<string[]> {
  const spec = await builtinSpec('scan');
  const out: string[] = [];
  for (const r of scanWorldRequests(n, true)) {
    const res = await inject(n, n.urls.scan + r.path, r.init);
    out.push(...responseProblems(spec, r.op, res).map((p) => `${r.path}: ${p}`));
  }
  return out;
}

export const SCAN_PROBES: InterfaceProbes = {
  probes: {
    ...Object.fromEntries(Object.entries(REQUIREMENT_DETECTED).map(([fault, requirement]) => [fault, { requirement }])),
    ...Object.fromEntries(Object.entries(DETECTORS).map(([fault, detect]) => [fault, (n: RunningReferenceNode) => detect!(n, scanClient(n))])),
  },
  battery: schemaProblems,
  // A fault that breaks a fact of a record the document states (x-cn-record-facts) breaks the document too.
  documentFaults: new Set<string>([...SHAPE_FAULTS, ...SCAN_FAULTS.filter((f) => f.generic?.checks?.includes('responses')).map((f) => f.name)]),
};
