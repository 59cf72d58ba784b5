// Scan errors: the `{error: string}` body, bad input answered as a client error (never 5xx), and 404 for the
// unknown ids the description names. Probes use documented endpoints only.
import { isObject } from '../../common/json.ts';
import { tooLarge, type Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, type RuleOf } from '../../engine/requirement.ts';
import { enc, unknownVariant } from '../../interfaces/scan/common.ts';
import { historyServed, type Where } from './history.ts';

interface Probe {
  what: string;
  run(ctx: CheckContext): Promise<Exchange>;
  /** Statuses that mean "this endpoint does not exist here" rather than an answer to the input. */
  notImplemented?: number[];
  /** The history endpoint it asks: left out where the scan does not serve it (a newer node drops /v0/updates). */
  history?: Where;
  /**
   * A lookup of a key the target knows, asked just before an unknown one: a node that answers a miss with the
   * last answer it gave (a reused response, a cache keyed by less than the key) shows it only after a hit.
   */
  known?(ctx: CheckContext): Promise<Exchange> | undefined;
}

const SOME_TIME = '2025-01-01T00:00:00Z';
const holdingsBody = { migration_id: 0, record_time: SOME_TIME, page_size: 5, owner_party_ids: ['alice::1220' + 'ab'.repeat(32)] };
const someUpdateId = (ctx: CheckContext) => ctx.fixtures.transactionUpdateIds?.[0] ?? '1220' + '0'.repeat(64);

/** Requests every correct node refuses as bad input. */
const BAD_INPUT: Probe[] = [
  {
    what: 'holdings body that is not JSON',
    run: (ctx) => ctx.scan.post('/v1/holdings/state', undefined, { rawBody: '{"migration_id": ', contentType: 'application/json' }),
  },
  { what: 'holdings body without its required fields', run: (ctx) => ctx.scan.post('/v2/holdings/state', {}) },
  { what: 'holdings with an empty owner_party_ids', run: (ctx) => ctx.scan.post('/v1/holdings/state', { ...holdingsBody, owner_party_ids: [] }) },
  {
    what: 'holdings with a record_time that is no timestamp',
    run: (ctx) => ctx.scan.post('/v0/holdings/state', { ...holdingsBody, record_time: 'yesterday' }),
  },
  { what: 'holdings with an unknown record_time_match', run: (ctx) => ctx.scan.post('/v1/holdings/state', { ...holdingsBody, record_time_match: 'closest' }) },
  { what: 'ans-entries with page_size "zero"', run: (ctx) => ctx.scan.get('/v0/ans-entries', { query: { page_size: 'zero' } }) },
  { what: 'ans-entries without page_size', run: (ctx) => ctx.scan.get('/v0/ans-entries') },
  { what: 'validator-faucets without validator_ids', run: (ctx) => ctx.scan.get('/v0/validators/validator-faucets') },
  { what: 'root hash of round "abc"', run: (ctx) => ctx.scan.get('/v0/internal/reward-accounting-process/rounds/abc/root-hash') },
  {
    what: 'traffic status of member id "participant1"',
    run: (ctx) => ctx.scan.get(`/v0/domains/${enc(ctx.fixtures.domainId ?? 'global-domain::1220' + '0'.repeat(64))}/members/participant1/traffic-status`),
  },
  {
    what: 'bulk listing with page_size 0',
    run: (ctx) => ctx.scan.post('/v0/history/bulk/updates', { start_record_time: SOME_TIME, end_record_time: SOME_TIME, page_size: 0 }),
    notImplemented: [501],
  },
  {
    what: 'bulk listing with end_record_time "later"',
    run: (ctx) => ctx.scan.post('/v0/history/bulk/updates', { start_record_time: SOME_TIME, end_record_time: 'later', page_size: 5 }),
    notImplemented: [501],
  },
  { what: 'previous reward weight without svParty', run: (ctx) => ctx.scan.post('/v0/admin/sv/previous-sv-reward-weight', {}) },
  {
    what: 'update with lossless "maybe"',
    run: (ctx) => ctx.scan.get(`/v0/updates/${enc(someUpdateId(ctx))}`, { query: { lossless: 'maybe' } }),
    history: 'v0',
  },
  {
    what: 'event with daml_value_encoding "xml"',
    run: (ctx) => ctx.scan.get(`/v0/events/${enc(someUpdateId(ctx))}`, { query: { daml_value_encoding: 'xml' } }),
    history: 'events',
  },
];

/** Lookups of things that do not exist, where the description names 404. */
const UNKNOWN: Probe[] = [
  {
    what: 'transfer preapproval of an unknown party',
    run: (ctx) => ctx.scan.get(`/v0/transfer-preapprovals/by-party/${enc('nobody::1220' + 'cd'.repeat(32))}`),
    known: (ctx) => {
      const party = ctx.fixtures.preapprovalParties?.[0];
      return party === undefined ? undefined : ctx.scan.get(`/v0/transfer-preapprovals/by-party/${enc(party)}`);
    },
  },
  {
    what: 'synchronizer identities of an unknown prefix',
    run: (ctx) => ctx.scan.get('/v0/synchronizer-identities/no-such-synchronizer-prefix'),
    known: (ctx) => (ctx.fixtures.domainId === undefined ? undefined : ctx.scan.get(`/v0/synchronizer-identities/${enc(ctx.fixtures.domainId)}`)),
  },
  { what: 'bulk download of an unknown object key', run: (ctx) => ctx.scan.get('/v0/history/bulk/download/no-such-object-key'), notImplemented: [501] },
];

/** Unknown update ids: a fixture id (`known`) with one character changed (well-formed, known to no node). */
const unknownUpdates = (known: string): Probe[] => [
  {
    what: 'update of an unknown id',
    run: (ctx) => ctx.scan.get(`/v0/updates/${enc(unknownVariant(known))}`),
    known: (ctx) => ctx.scan.get(`/v0/updates/${enc(known)}`),
    history: 'v0',
  },
  {
    what: 'update (v2) of an unknown id',
    run: (ctx) => ctx.scan.get(`/v2/updates/${enc(unknownVariant(known))}`),
    known: (ctx) => ctx.scan.get(`/v2/updates/${enc(known)}`),
    history: 'v2',
  },
  {
    what: 'event of an unknown id',
    run: (ctx) => ctx.scan.get(`/v0/events/${enc(unknownVariant(known))}`),
    known: (ctx) => ctx.scan.get(`/v0/events/${enc(known)}`),
    history: 'events',
  },
];

/** The probes of endpoints the scan serves: the error answers of a path it does not serve are no API's. */
async function served(ctx: CheckContext, probes: Probe[]): Promise<Probe[]> {
  const out: Probe[] = [];
  for (const p of probes) if (!p.history || (await historyServed(ctx, p.history))) out.push(p);
  return out;
}

const badInputProbes = (ctx: CheckContext) => served(ctx, BAD_INPUT);
const unknownProbes = (ctx: CheckContext) => {
  const known = ctx.fixtures.transactionUpdateIds?.[0];
  return served(ctx, [...UNKNOWN, ...(known ? unknownUpdates(known) : [])]);
};

const ERROR_OPS = [
  'getHoldingsStateV0',
  'getHoldingsStateV1',
  'getHoldingsStateV2',
  'listAnsEntries',
  'getValidatorFaucetsByValidator',
  'getRewardAccountingRootHash',
  'getMemberTrafficStatus',
  'listBulkHistoryUpdates',
  'getPreviousSvRewardWeight',
  'getUpdateByIdV0',
  'getEventById',
];
// 404 on /v2/updates: the scan's general error table (X.errors.10), as on the path it succeeds.
const NOT_FOUND_OPS = [
  'getTransferPreapprovalByParty',
  'getSynchronizerIdentities',
  'downloadBulkHistoryObject',
  'getUpdateByIdV0',
  'getUpdateByIdV2',
  'getEventById',
];

const errorShape: RuleOf<'scan'> = {
  id: 'SCAN-ERRORS-SHAPE',
  operations: [...new Set([...ERROR_OPS, ...NOT_FOUND_OPS])],
  cites: [
    'C.holdings-v1.15',
    'C.holdings-v0.3',
    'C.updates-v0.5',
    'C.events.5',
    'C.bulk-updates.8',
    'C.bulk-download.2',
    'C.preapproval.2',
    'C.traffic.4',
    'C.faucets.5',
    'C.sync-identities.3',
    'X.errors.13',
  ],
  tags: ['errors'],
  async check(ctx) {
    let errors = 0;
    let plain404 = 0;
    for (const probe of [...(await badInputProbes(ctx)), ...(await unknownProbes(ctx))]) {
      const x = await probe.run(ctx);
      if (x.status < 400 || probe.notImplemented?.includes(x.status)) continue; // no error to look at (other rules judge the status)
      if (x.truncated) ctx.expect(x).fail(`${probe.what}: ${tooLarge(x)}`);
      let body: unknown;
      try {
        body = JSON.parse(x.text);
      } catch {
        // An HTTP layer's plain-text 404 is what real nodes send before their handler: a SHOULD finding
        // (SCAN-ANSWERS-PLAIN-TEXT-404), never a break of this rule.
        if (x.status === 404) {
          plain404++;
          continue;
        }
        ctx.expect(x).fail(`${probe.what}: the ${x.status} error body is not JSON`);
      }
      errors++;
      if (!isObject(body) || typeof body.error !== 'string') ctx.expect(x).fail(`${probe.what}: the ${x.status} error body is not {error: string}`, '/error');
    }
    if (errors === 0)
      ctx.skip(
        plain404 > 0
          ? `every error answer was a plain-text 404 (${plain404}), which SCAN-ANSWERS-PLAIN-TEXT-404 reports`
          : 'no probe was answered with an error status',
      );
  },
};

const badInputNot5xx: RuleOf<'scan'> = {
  id: 'SCAN-ERRORS-BAD-INPUT-NOT-5XX',
  operations: ERROR_OPS,
  cites: [
    'C.holdings-v1.4',
    'C.holdings-v1.7',
    'C.updates-v0.1',
    'C.events.1',
    'C.bulk-updates.2',
    'C.bulk-updates.5',
    'C.traffic.1',
    'C.faucets.1',
    'C.reward-weight.1',
    'C.ans.4',
    'C.root-hash.1',
    'X.errors.9',
    'X.errors.11',
  ],
  tags: ['errors', 'validation'],
  async check(ctx) {
    for (const probe of await badInputProbes(ctx)) {
      const x = await probe.run(ctx);
      if (x.status === 0) ctx.expect(x).fail(`${probe.what}: no answer (${x.error})`);
      if (probe.notImplemented?.includes(x.status)) continue;
      if (x.status >= 500) ctx.expect(x).fail(`${probe.what}: answered ${x.status}; bad input is a client error (400), not an internal error`);
    }
  },
};

const notFound: RuleOf<'scan'> = {
  id: 'SCAN-ERRORS-NOT-FOUND-404',
  operations: NOT_FOUND_OPS,
  cites: ['C.updates-v0.5', 'C.events.5', 'C.bulk-download.2', 'C.preapproval.2', 'C.sync-identities.3', 'X.errors.10'],
  tags: ['errors'],
  async check(ctx) {
    for (const probe of await unknownProbes(ctx)) {
      const hit = await probe.known?.(ctx);
      const x = await probe.run(ctx);
      if (probe.notImplemented?.includes(x.status)) continue;
      ctx.expect(x, `${probe.what}${hit?.status === 200 ? ', asked right after a key it knows was found' : ''}`).status(404);
    }
  },
};

/** The rules judge refusals: an error answer carries no update record, Daml value or listing to vary. */
const REFUSALS = {
  'record-type': 'a rule of error answers (a refused or unknown id): an error carries no update record, of either type',
  'value-encoding': 'a rule of error answers: an error carries no Daml value to encode',
  'name-prefix': 'a rule of error answers (a refused page size): an error carries no listing to filter',
  'record-time-match':
    'a rule of error answers to malformed holdings bodies (one of them an unknown match): a body is refused before any snapshot is matched; SCAN-HOLDINGS-EMPTY-OWNERS-400 asks in both matches',
};

export const ERROR_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  { ...errorShape, variants: REFUSALS },
  {
    ...badInputNot5xx,
    variants: {
      ...REFUSALS,
      version: {
        getUpdateByIdV2:
          "the parameters of /v2/updates are not shown: it has no input a node must refuse but its path's id, whose miss is a 404 (SCAN-ERRORS-NOT-FOUND-404)",
      },
    },
  },
  { ...notFound, variants: { 'record-type': REFUSALS['record-type'], 'value-encoding': REFUSALS['value-encoding'] } },
]);
