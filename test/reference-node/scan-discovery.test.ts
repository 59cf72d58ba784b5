// The scan endpoints a run discovers a real node's ids from (beyond the description's operations): the DSO,
// the migration, ACS snapshots and their contracts, validator licenses, the earliest reward round, the SVs'
// scans and sequencers. Each answer tells the same story as the endpoints the suite checks.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json as AnyJson } from '../../common/json.ts';
import type { NodeContext } from '../../reference-node/context.ts';
import { buildContext, buildServer } from '../../reference-node/server.ts';
import type { Snapshot } from '../../reference-node/world/model.ts';
import { isoMicros, parseMicros } from '../../reference-node/world/time.ts';

type Json = Record<string, AnyJson>;

let ctx: NodeContext;
let app: FastifyInstance;

beforeAll(async () => {
  ctx = buildContext({ seed: 21 });
  app = await buildServer(ctx);
});
afterAll(() => app?.close());

const w = () => ctx.world;
const enc = encodeURIComponent;

async function get(path: string, on = app): Promise<{ status: number; body: Json }> {
  const r = await on.inject({ method: 'GET', url: `/api/scan${path}` });
  return { status: r.statusCode, body: r.json() };
}

async function post(path: string, payload: object, on = app): Promise<{ status: number; body: Json }> {
  const r = await on.inject({ method: 'POST', url: `/api/scan${path}`, payload });
  return { status: r.statusCode, body: r.json() };
}

/** The snapshots of a migration in time order. */
const snapshotsOf = (m: number) =>
  w()
    .snapshots.filter((s) => s.migrationId === m)
    .sort((a, b) => a.recordTimeMicros - b.recordTimeMicros);

const acsBody = (s: Snapshot, extra: Json = {}) => ({ migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros), page_size: 1000, ...extra });

/** Follows next_page_token; fails on anything but 200. */
async function walk(path: string, body: Json): Promise<{ events: Json[]; pages: number }> {
  const events: Json[] = [];
  let after: unknown;
  for (let pages = 1; pages < 500; pages++) {
    const res = await post(path, after === undefined ? body : { ...body, after });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    events.push(...(res.body.created_events as Json[]));
    after = res.body.next_page_token;
    if (after === undefined) return { events, pages };
  }
  throw new Error('no last page');
}

const ofTemplate = (events: Json[], suffix: string) => events.filter((e) => (e.template_id as string).endsWith(`:${suffix}`));

describe('discovery: the DSO and the network', () => {
  it('/v0/dso names the DSO, the SVs reward weights know, the latest round and the amulet rules of the history', async () => {
    const { status, body } = await get('/v0/dso');
    expect(status).toBe(200);
    expect(body.dso_party_id).toBe(w().dso.id);
    const svs = body.dso_rules.contract.payload.svs as Array<[string, Json]>;
    expect(svs.map(([party]) => party).sort()).toEqual(
      w()
        .svParties.map((p) => p.id)
        .sort(),
    );
    expect(svs.map(([party]) => party)).toContain(body.sv_party_id);
    expect(body.voting_threshold).toBe(2);
    for (const [party, info] of svs) {
      // The weight the rules list is the latest accepted change.
      const weight = await post('/v0/admin/sv/previous-sv-reward-weight', { svParty: party });
      expect(weight.body.rewardWeight).toBe(info.svRewardWeight);
    }
    expect(body.sv_node_states.map((s: Json) => s.contract.payload.sv).sort()).toEqual(svs.map(([p]) => p).sort());
    const latest = w().round(w().count - 1);
    expect(body.latest_mining_round.contract.payload.round.number).toBe(String(latest));
    // The root hash of the latest round is not settled yet.
    expect((await get(`/v0/internal/reward-accounting-process/rounds/${latest}/root-hash`)).body.status).toBe('Undetermined');

    // The amulet rules are the contract the first transaction created, on the synchronizer updates carry.
    const first = (await get(`/v2/updates/${w().updateId(0)}`)).body;
    const created = Object.values(first.events_by_id as Record<string, Json>).map((e) => e.contract_id);
    expect(created).toContain(body.amulet_rules.contract.contract_id);
    for (const key of ['latest_mining_round', 'amulet_rules', 'dso_rules']) expect(body[key].domain_id, key).toBe(first.synchronizer_id);
  });

  it('/v0/amulet-rules and /v0/open-and-issuing-mining-rounds answer what /v0/dso names, leaving out the contracts the client holds', async () => {
    const dso = (await get('/v0/dso')).body;
    const rules = (await post('/v0/amulet-rules', {})).body;
    expect(rules).toEqual({ amulet_rules_update: dso.amulet_rules });
    const first = (await get(`/v2/updates/${w().updateId(0)}`)).body;
    const createdInHistory = Object.values(first.events_by_id as Record<string, Json>).find((e) => e.contract_id === dso.amulet_rules.contract.contract_id);
    expect(createdInHistory?.created_at).toBe(dso.amulet_rules.contract.created_at);
    const domain_id = dso.amulet_rules.domain_id;
    const heldRules = { cached_amulet_rules_contract_id: dso.amulet_rules.contract.contract_id, cached_amulet_rules_domain_id: domain_id };
    expect((await post('/v0/amulet-rules', heldRules)).body).toEqual({ amulet_rules_update: { domain_id } });
    expect((await post('/v0/amulet-rules', { cached_amulet_rules_contract_id: '00stale' })).body).toEqual(rules);

    const path = '/v0/open-and-issuing-mining-rounds';
    const round = dso.latest_mining_round;
    const none = { cached_open_mining_round_contract_ids: [], cached_issuing_round_contract_ids: [] };
    const rounds = (await post(path, none)).body;
    expect(rounds).toEqual({
      open_mining_rounds: { [round.contract.contract_id]: round },
      issuing_mining_rounds: {},
      time_to_live_in_microseconds: expect.any(Number),
    });
    expect(rounds.time_to_live_in_microseconds).toBe(Number(round.contract.payload.tickDuration.microseconds));
    const held = { ...none, cached_open_mining_round_contract_ids: [round.contract.contract_id, '00closed'] };
    expect((await post(path, held)).body.open_mining_rounds).toEqual({ [round.contract.contract_id]: { domain_id } });
    for (const bad of [{}, { ...none, cached_issuing_round_contract_ids: [1] }]) expect((await post(path, bad)).status).toBe(400);
    expect((await post('/v0/amulet-rules', { cached_amulet_rules_contract_id: 5 })).status).toBe(400);
  });

  it('the weights the DSO rules list are those in force at the ledger end, in a short history too', async () => {
    const small = await buildServer(buildContext({ seed: 21, scale: 0 }));
    try {
      for (const [party, info] of (await get('/v0/dso', small)).body.dso_rules.contract.payload.svs as Array<[string, Json]>)
        expect((await post('/v0/admin/sv/previous-sv-reward-weight', { svParty: party }, small)).body.rewardWeight).toBe(info.svRewardWeight);
    } finally {
      await small.close();
    }
  });

  it("/v0/admin/sv/voteresults serves each accepted weight change, newest first, paged; the weight lookup agrees at each change's time", async () => {
    const all = (await post('/v0/admin/sv/voteresults', { actionName: 'SRARC_UpdateSvRewardWeight', accepted: true, limit: 1000 })).body;
    const results = all.dso_rules_vote_results as Json[];
    expect(results).toHaveLength([...w().svRewardWeights.values()].flat().length);
    expect(all.next_page_token).toBeUndefined();
    const at = results.map((r) => r.outcome.value.effectiveAt as string);
    expect([...at].sort().reverse()).toEqual(at);
    for (const r of results) {
      const { svParty, newRewardWeight } = r.request.action.value.dsoAction.value;
      const effectiveAt = r.outcome.value.effectiveAt;
      expect(r.outcome.tag).toBe('VRO_Accepted');
      expect(r.completedAt < effectiveAt).toBe(true);
      // Strictly before: the change does not count at its own time, and does one microsecond later.
      const weightAt = async (micros: number) =>
        (await post('/v0/admin/sv/previous-sv-reward-weight', { svParty, effectiveBefore: isoMicros(micros) })).body.rewardWeight;
      expect(await weightAt(parseMicros(effectiveAt) + 1)).toBe(newRewardWeight);
      expect(await weightAt(parseMicros(effectiveAt))).not.toBe(newRewardWeight);
    }
    // Pages of one, followed by their tokens, give the same list; other actions and rejected votes: none.
    const paged: Json[] = [];
    for (let token: number | undefined = 0; token !== undefined; ) {
      const page: Json = (await post('/v0/admin/sv/voteresults', { limit: 1, pageToken: token })).body;
      paged.push(...page.dso_rules_vote_results);
      token = page.next_page_token;
    }
    expect(paged).toEqual(results);
    expect((await post('/v0/admin/sv/voteresults', { accepted: false, limit: 10 })).body.dso_rules_vote_results).toEqual([]);
    expect((await post('/v0/admin/sv/voteresults', { actionName: 'SRARC_OffboardSv', limit: 10 })).body.dso_rules_vote_results).toEqual([]);
    expect((await post('/v0/admin/sv/voteresults', {})).status).toBe(400);
  });

  it('/v0/migrations/last is the migration of the newest update and of the latest snapshot', async () => {
    const { status, body } = await get('/v0/migrations/last');
    expect(status).toBe(200);
    expect(body).toEqual({ migration_id: w().migrationOf(w().count - 1) });
    expect(w().snapshots.map((s) => s.migrationId)).toContain(body.migration_id);
  });

  it('/v0/scans and /v0/dso-sequencers list each SV of the DSO rules on the synchronizer of the updates', async () => {
    const dso = (await get('/v0/dso')).body;
    const names = (dso.dso_rules.contract.payload.svs as Array<[string, Json]>).map(([, info]) => info.name).sort();
    const scans = (await get('/v0/scans')).body.scans as Json[];
    expect(scans.map((s) => s.domainId)).toEqual([dso.amulet_rules.domain_id]);
    const svScans = scans[0]!.scans as Json[];
    expect(svScans.map((s) => s.svName).sort()).toEqual(names);
    for (const s of svScans) expect(() => new URL(s.publicUrl)).not.toThrow();

    const domains = (await get('/v0/dso-sequencers')).body.domainSequencers as Json[];
    expect(domains.map((s) => s.domainId)).toEqual([dso.amulet_rules.domain_id]);
    const sequencers = domains[0]!.sequencers as Json[];
    expect(sequencers.map((s) => s.svName).sort()).toEqual(names);
    const identities = (await get(`/v0/synchronizer-identities/${enc(domains[0]!.domainId)}`)).body;
    expect(sequencers.map((s) => s.id)).toContain(identities.sequencer_id);
    const migration = (await get('/v0/migrations/last')).body.migration_id;
    for (const s of sequencers) expect(s.migrationId).toBe(migration);
  });

  it('the earliest reward-accounting round is the first whose root hash can be provided', async () => {
    const { status, body } = await get('/v0/internal/reward-accounting-process/rounds/earliest-available');
    expect(status).toBe(200);
    const round = body.earliest_round as number;
    expect((await get(`/v0/internal/reward-accounting-process/rounds/${round}/root-hash`)).body.status).toBe('Ok');
    for (let r = 0; r < round; r++) expect((await get(`/v0/internal/reward-accounting-process/rounds/${r}/root-hash`)).body.status).toBe('CannotProvide');
  });
});

describe('discovery: validator licenses', () => {
  it('paging with any limit walks every onboarded validator exactly once, newest first', async () => {
    const all = (await get('/v0/admin/validator/licenses')).body;
    expect(all.next_page_token).toBeUndefined();
    const validators = (all.validator_licenses as Json[]).map((l) => l.payload.validator);
    expect(validators).toEqual(
      w()
        .validators.map((v) => v.party)
        .reverse(),
    );
    for (const limit of [1, 3]) {
      const seen: string[] = [];
      let after: number | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const { status, body } = await get(`/v0/admin/validator/licenses?limit=${limit}${after === undefined ? '' : `&after=${after}`}`);
        expect(status).toBe(200);
        expect(body.validator_licenses.length).toBeLessThanOrEqual(limit);
        seen.push(...body.validator_licenses.map((l: Json) => l.payload.validator));
        after = body.next_page_token;
        if (after === undefined) break;
      }
      expect(seen, `limit ${limit}`).toEqual(validators);
    }
    // A license records the faucet statistics the faucets endpoint reports.
    const v = w().validators[0]!;
    const faucet = (await get(`/v0/validators/validator-faucets?validator_ids=${enc(v.party)}`)).body.validatorsReceivedFaucets[0];
    const license = (all.validator_licenses as Json[]).find((l) => l.payload.validator === v.party)!;
    expect(license.payload.faucetState.lastReceivedFor.number).toBe(String(faucet.lastCollectedInRound));
    for (const q of ['limit=0', 'limit=1001', 'limit=x', 'after=-1', 'after=x']) {
      const res = await get(`/v0/admin/validator/licenses?${q}`);
      expect([res.status, typeof res.body.error], q).toEqual([400, 'string']);
    }
  });
});

describe('discovery: ACS snapshots', () => {
  it('snapshot-timestamp: the latest snapshot at or before the time, which holdings accept as exact; none is 404', async () => {
    for (const m of w().migrationIds) {
      const snaps = snapshotsOf(m);
      for (const [k, s] of snaps.entries()) {
        const at = await get(`/v0/state/acs/snapshot-timestamp?before=${enc(isoMicros(s.recordTimeMicros))}&migration_id=${m}`);
        expect(at.body).toEqual({ record_time: isoMicros(s.recordTimeMicros) });
        const next = snaps[k + 1];
        if (next) {
          const between = isoMicros(Math.floor((s.recordTimeMicros + next.recordTimeMicros) / 2));
          expect((await get(`/v0/state/acs/snapshot-timestamp?before=${enc(between)}&migration_id=${m}`)).body).toEqual(at.body);
        }
        const holdings = await post('/v1/holdings/state', { ...acsBody(s), record_time: at.body.record_time, owner_party_ids: w().bulkHoldingOwners });
        expect(holdings.status).toBe(200);
      }
      const before = await get(`/v0/state/acs/snapshot-timestamp?before=${enc(isoMicros(snaps[0]!.recordTimeMicros - 1))}&migration_id=${m}`);
      expect([before.status, typeof before.body.error]).toEqual([404, 'string']);
    }
    const unknown = await get(`/v0/state/acs/snapshot-timestamp?before=2030-01-01T00:00:00Z&migration_id=7`);
    expect(unknown.status).toBe(404);
    for (const q of ['migration_id=1', 'before=2030-01-01T00:00:00Z', 'before=tomorrow&migration_id=1', 'before=2030-01-01T00:00:00Z&migration_id=one']) {
      const res = await get(`/v0/state/acs/snapshot-timestamp?${q}`);
      expect([res.status, typeof res.body.error], q).toEqual([400, 'string']);
    }
  });

  it('the ACS holds the holdings the holdings endpoint knows, a license per validator and the preapprovals', async () => {
    const parties = w().parties.map((p) => p.id);
    for (const s of w().snapshots) {
      const acs = (await walk('/v0/state/acs', acsBody(s))).events;
      const holdings = (await walk('/v0/holdings/state', { ...acsBody(s), owner_party_ids: parties })).events;
      for (const t of ['Splice.Amulet:Amulet', 'Splice.Amulet:LockedAmulet'])
        expect(
          ofTemplate(acs, t).map((e) => e.contract_id),
          t,
        ).toEqual(ofTemplate(holdings, t).map((e) => e.contract_id));
      // The same created events, event ids included.
      expect(acs.filter((e) => holdings.some((h) => h.contract_id === e.contract_id))).toEqual(holdings);
      const amulets = (await walk('/v0/state/acs', acsBody(s, { templates: ['splice-amulet:Splice.Amulet:Amulet'] }))).events;
      expect(amulets).toEqual(ofTemplate(acs, 'Splice.Amulet:Amulet'));
      expect(new Set(amulets.map((e) => e.create_arguments.owner))).toEqual(
        new Set(ofTemplate(holdings, 'Splice.Amulet:Amulet').map((e) => e.create_arguments.owner)),
      );

      expect(ofTemplate(acs, 'Splice.ValidatorLicense:ValidatorLicense').map((e) => e.create_arguments.validator)).toEqual(w().validators.map((v) => v.party));
      const receivers = ofTemplate(acs, 'Splice.AmuletRules:TransferPreapproval').map((e) => e.create_arguments.receiver);
      expect(receivers).toEqual([...w().preapprovals.keys()]);
      const round = ofTemplate(acs, 'Splice.Round:OpenMiningRound');
      expect(round.map((e) => e.create_arguments.round.number)).toEqual([String(w().round(s.upToIndex))]);
      expect(new Set(acs.map((e) => e.event_id)).size).toBe(acs.length);
      expect(acs.map((e) => e.created_at)).toEqual(acs.map((e) => e.created_at).sort());
    }
    for (const receiver of [...w().preapprovals.keys()]) expect((await get(`/v0/transfer-preapprovals/by-party/${enc(receiver)}`)).status).toBe(200);
  });

  it('pages of any size walk the same contracts once each; party and template filters narrow them', async () => {
    const s = snapshotsOf(w().currentMigrationId).at(-1)!;
    const whole = await walk('/v0/state/acs', acsBody(s));
    expect(whole.pages).toBe(1);
    for (const size of [1, 7, 50]) {
      const paged = await walk('/v0/state/acs', acsBody(s, { page_size: size }));
      expect(paged.events, `page_size ${size}`).toEqual(whole.events);
      expect(paged.pages).toBe(Math.ceil(whole.events.length / size));
    }
    const party = w().validators[0]!.party;
    const visible = (await walk('/v0/state/acs', acsBody(s, { party_ids: [party], page_size: 3 }))).events;
    expect(visible).toEqual(whole.events.filter((e) => [...e.signatories, ...e.observers].includes(party)));
    expect(visible.length).toBeGreaterThan(0);
    const templates = ['splice-amulet:Splice.ValidatorLicense:ValidatorLicense', 'splice-dso-governance:Splice.DsoRules:DsoRules'];
    const chosen = (await walk('/v0/state/acs', acsBody(s, { templates, page_size: 2 }))).events;
    expect(chosen).toEqual(whole.events.filter((e) => /:(ValidatorLicense|DsoRules)$/.test(e.template_id)));
    // The package name, not the package id, qualifies a template.
    expect((await walk('/v0/state/acs', acsBody(s, { templates: ['splice-wallet:Splice.DsoRules:DsoRules'] }))).events).toEqual([]);
  });

  it('answers as the holdings endpoints do: record time echoed, at_or_before, 400 for bad input, 404 without a snapshot', async () => {
    const s = snapshotsOf(w().currentMigrationId)[0];
    const later = isoMicros(s!.recordTimeMicros + 1);
    const exact = await post('/v0/state/acs', acsBody(s!, { page_size: 5 }));
    expect([exact.body.record_time, exact.body.migration_id]).toEqual([isoMicros(s!.recordTimeMicros), s!.migrationId]);
    const matched = await post('/v0/state/acs', acsBody(s!, { page_size: 5, record_time: later, record_time_match: 'at_or_before' }));
    expect(matched.body).toEqual({ ...exact.body, record_time: later });
    const bad: Json[] = [
      { record_time: later },
      { page_size: 0 },
      { page_size: 1001 },
      { record_time: 'now' },
      { record_time_match: 'closest' },
      { templates: ['Splice.Amulet:Amulet'] },
      { templates: 'splice-amulet:Splice.Amulet:Amulet' },
      { party_ids: [1] },
      { after: -1 },
      { after: 'x' },
      { migration_id: undefined },
    ];
    for (const extra of bad) {
      const res = await post('/v0/state/acs', acsBody(s!, extra));
      expect([res.status, typeof res.body.error], JSON.stringify(extra)).toEqual([400, 'string']);
    }
    for (const extra of [{ migration_id: 9 }, { record_time: isoMicros(s!.recordTimeMicros - 1), record_time_match: 'at_or_before', migration_id: 1 }]) {
      const res = await post('/v0/state/acs', acsBody(s!, extra));
      expect([res.status, typeof res.body.error], JSON.stringify(extra)).toEqual([404, 'string']);
    }
  });
});
