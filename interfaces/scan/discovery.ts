// Scan sources, read-only except force-ACS (with mutations only). Shapes: the official scan document (see
// the facts on discovery); every answer is read defensively, since judging it is the checks' job.
import { isInt, isObject, type Json } from '../../common/json.ts';
import { enc, participantIdPath, plusMicros, timeNanos } from './common.ts';
import { endpointOf } from '../../common/vocabulary.ts';
import { distinct, found, type Source } from '../../engine/discovery/source.ts';

const PAGE_SIZE = 100;
/** Ids of each kind kept: enough for the checks' samples, few enough to keep them quick. */
const KEEP = 12;

const AMULET = ':Splice.Amulet:Amulet';
const VALIDATOR_LICENSE = ':Splice.ValidatorLicense:ValidatorLicense';
const PREAPPROVAL = ':Splice.AmuletRules:TransferPreapproval';
/** Template filters in the form the ACS endpoint takes (package name, module, entity). */
const ACS_TEMPLATES = [`splice-amulet${AMULET}`, `splice-amulet${VALIDATOR_LICENSE}`, `splice-amulet${PREAPPROVAL}`];

/** The SV parties of the DSO rules' payload: a Daml map, as pairs [party, info] or as an object. */
function svPartiesOf(svs: Json): string[] {
  if (Array.isArray(svs)) return distinct(svs.map((e) => (Array.isArray(e) ? e[0] : undefined)));
  if (isObject(svs)) return distinct(Object.keys(svs));
  return [];
}

const dso: Source = {
  id: 'scan-dso',
  interface: 'scan',
  what: 'the DSO: its SV parties and latest round',
  provides: ['svParties', 'rounds'],
  async run(r, f) {
    const body: Json = await r.json('GET', '/v0/dso');
    if (!isObject(body)) return;
    const info: Json = body;
    const round = Number(info.latest_mining_round?.contract?.payload?.round?.number);
    if (Number.isSafeInteger(round) && round >= 0) f.learn('latestRound', round, `the latest round (${round})`);
    f.set('svParties', svPartiesOf(info.dso_rules?.contract?.payload?.svs), found('scan', 'GET', '/v0/dso', '/dso_rules/contract/payload/svs'));
  },
};

const WEIGHT_ACTION = 'SRARC_UpdateSvRewardWeight';

/** An accepted reward-weight change of a DsoRules_CloseVoteRequestResult (compact Daml JSON), or undefined. */
function weightChangeOf(result: Json): { svParty: string; weight: string; effectiveAt: string } | undefined {
  const action = result?.request?.action;
  const change = action?.value?.dsoAction;
  if (action?.tag !== 'ARC_DsoRules' || change?.tag !== WEIGHT_ACTION || result?.outcome?.tag !== 'VRO_Accepted') return undefined;
  const { svParty, newRewardWeight } = change.value ?? {};
  // The accepted outcome's effectiveAt is the result's effective date (the official document's ordering says so).
  const effectiveAt = result.outcome.value?.effectiveAt;
  const weight = typeof newRewardWeight === 'number' && Number.isSafeInteger(newRewardWeight) ? String(newRewardWeight) : newRewardWeight;
  if (typeof svParty !== 'string' || typeof weight !== 'string' || timeNanos(effectiveAt) === undefined) return undefined;
  return { svParty, weight, effectiveAt };
}

const rewardWeights: Source = {
  id: 'scan-reward-weight-changes',
  interface: 'scan',
  what: "the accepted reward-weight changes of the SVs (the DSO's vote results)",
  provides: ['rewardWeightChanges'],
  async run(r, f) {
    const path = '/v0/admin/sv/voteresults';
    const results = await r.walk(async (token) => {
      const body = await r.json('POST', path, {
        body: { actionName: WEIGHT_ACTION, accepted: true, limit: PAGE_SIZE, ...(token === undefined ? {} : { pageToken: token }) },
      });
      if (!Array.isArray(body?.dso_rules_vote_results)) return undefined;
      return { items: body.dso_rules_vote_results as Json[], next: isInt(body.next_page_token) ? body.next_page_token : undefined };
    });
    // The checks take the list as each SV's whole history: a list cut at the bound is no fixture.
    if (r.shortfall?.kind === 'stopped at its bound') return;
    const changes = (results ?? []).map(weightChangeOf).filter((c) => c !== undefined);
    f.set(
      'rewardWeightChanges',
      changes,
      found('scan', 'POST', path, '/dso_rules_vote_results/*/request/action/value/dsoAction/value', 'accepted results, effective at outcome/value/effectiveAt'),
    );
  },
};

const migration: Source = {
  id: 'scan-migration',
  interface: 'scan',
  what: 'the newest migration id',
  provides: ['migrationId', 'snapshotRecordTime'],
  async run(r, f) {
    const body = await r.json('GET', '/v0/migrations/last');
    if (isInt(body?.migration_id) && body.migration_id >= 0) f.learn('migrationId', body.migration_id, `the newest migration id (${body.migration_id})`);
  },
};

const snapshot: Source = {
  id: 'scan-snapshot',
  interface: 'scan',
  what: 'the latest ACS snapshot time of that migration',
  provides: ['migrationId', 'snapshotRecordTime'],
  async run(r, f, env) {
    const m = f.fixtures.migrationId ?? f.facts.migrationId;
    if (m === undefined) return void r.fall('unusable answer', 'no migration id is known to ask for a snapshot of');
    const path = '/v0/state/acs/snapshot-timestamp';
    const body = await r.json('GET', path, { query: { before: env.now().toISOString(), migration_id: m } });
    if (typeof body?.record_time !== 'string') return;
    const origin = found('scan', 'GET', path, '/record_time');
    if (f.set('snapshotRecordTime', body.record_time, origin))
      f.set('migrationId', m, found('scan', 'GET', '/v0/migrations/last', '/migration_id', 'the migration of that snapshot'));
  },
};

const forceSnapshot: Source = {
  id: 'scan-force-acs',
  interface: 'scan',
  what: 'a fresh ACS snapshot (force-ACS), when no snapshot was found',
  provides: ['migrationId', 'snapshotRecordTime'],
  mutates: true,
  async run(r, f) {
    const path = '/v0/state/acs/force';
    const body = await r.json('POST', path);
    if (typeof body?.record_time !== 'string' || !isInt(body.migration_id)) return;
    if (f.set('snapshotRecordTime', body.record_time, found('scan', 'POST', path, '/record_time', 'taken by this run')))
      f.set('migrationId', body.migration_id, found('scan', 'POST', path, '/migration_id', 'taken by this run'));
  },
};

const acs: Source = {
  id: 'scan-acs',
  interface: 'scan',
  what: "the snapshot's holdings, validator licenses and transfer preapprovals",
  provides: ['holdingOwners', 'validatorIds', 'preapprovalParties', 'trafficReceiverParty'],
  async run(r, f) {
    const { migrationId, snapshotRecordTime } = f.fixtures;
    if (migrationId === undefined || !snapshotRecordTime) return void r.fall('unusable answer', 'no ACS snapshot is known to read');
    const path = '/v0/state/acs';
    const owners: string[] = [];
    const validators: string[] = [];
    const receivers: string[] = [];
    await r.walk(
      async (after) => {
        const body = await r.json('POST', path, {
          body: {
            migration_id: migrationId,
            record_time: snapshotRecordTime,
            page_size: PAGE_SIZE,
            templates: ACS_TEMPLATES,
            ...(after === undefined ? {} : { after }),
          },
        });
        if (!Array.isArray(body?.created_events)) return undefined;
        for (const e of body.created_events) {
          const template = typeof e?.template_id === 'string' ? e.template_id : '';
          const args = e?.create_arguments;
          if (template.endsWith(AMULET)) owners.push(args?.owner);
          if (template.endsWith(VALIDATOR_LICENSE)) validators.push(args?.validator);
          if (template.endsWith(PREAPPROVAL)) receivers.push(args?.receiver);
        }
        return { items: body.created_events, next: isInt(body.next_page_token) ? body.next_page_token : undefined };
      },
      () => distinct(owners).length >= KEEP,
    );
    const at = (field: string) => found('scan', 'POST', path, `/created_events/*/create_arguments/${field}`);
    f.set('holdingOwners', distinct(owners, KEEP), at('owner'));
    f.set('validatorIds', distinct(validators, KEEP), at('validator'));
    f.set('preapprovalParties', distinct(receivers, KEEP), at('receiver'));
    // A validator's operator party is hosted on its own participant only: a receiver buy-traffic takes.
    f.set('trafficReceiverParty', distinct(validators, 1)[0], { ...at('validator'), note: "a validator's party" });
  },
};

const licenses: Source = {
  id: 'scan-validator-licenses',
  interface: 'scan',
  what: 'the onboarded validators (validator licenses)',
  provides: ['validatorIds', 'trafficReceiverParty'],
  async run(r, f) {
    const path = '/v0/admin/validator/licenses';
    const licensed = await r.walk(async (after) => {
      const body = await r.json('GET', path, { query: { limit: PAGE_SIZE, after: after as number | undefined } });
      if (!Array.isArray(body?.validator_licenses)) return undefined;
      return { items: body.validator_licenses as Json[], next: isInt(body.next_page_token) ? body.next_page_token : undefined };
    });
    const validators = (licensed ?? []).map((c) => c?.payload?.validator);
    const origin = found('scan', 'GET', path, '/validator_licenses/*/payload/validator');
    f.set('validatorIds', distinct(validators, KEEP), origin);
    f.set('trafficReceiverParty', distinct(validators, 1)[0], { ...origin, note: "a validator's party" });
  },
};

const updates: Source = {
  id: 'scan-updates',
  interface: 'scan',
  what: 'pages of the update history (v2): transactions, reassignments, the synchronizer, the record-time range',
  provides: ['transactionUpdateIds', 'reassignmentUpdateIds', 'domainId', 'bulkRange', 'migrationId'],
  async run(r, f) {
    const path = '/v2/updates';
    const tx: string[] = [];
    // Unassignments and assignments by unassign_id: ids of complete pairs come first.
    const halves = new Map<string, string[]>();
    const synchronizers: string[] = [];
    let first: string | undefined;
    let last: Json;
    for (;;) {
      const after = last ? { after: { after_migration_id: last.migration_id ?? last.event?.migration_id, after_record_time: last.record_time } } : {};
      const body = await r.json('POST', path, { body: { page_size: PAGE_SIZE, ...after } });
      const items: Json[] = Array.isArray(body?.transactions) ? body.transactions.filter(isObject) : [];
      for (const u of items) {
        first ??= typeof u.record_time === 'string' ? u.record_time : undefined;
        if (isObject(u.event)) {
          const key = u.event.unassign_id;
          if (typeof key === 'string' && typeof u.update_id === 'string') halves.set(key, [...(halves.get(key) ?? []), u.update_id]);
        } else if (typeof u.update_id === 'string') {
          tx.push(u.update_id);
          synchronizers.push(u.synchronizer_id);
        }
      }
      if (items.length > 0) last = items.at(-1);
      if (items.length < PAGE_SIZE || (tx.length >= KEEP && halves.size >= KEEP)) break;
    }
    const pairs = [...halves.values()].sort((a, b) => b.length - a.length).flat();
    f.set('transactionUpdateIds', distinct(tx, KEEP), found('scan', 'POST', path, '/transactions/*/update_id'));
    f.set(
      'reassignmentUpdateIds',
      distinct(pairs, KEEP),
      found('scan', 'POST', path, '/transactions/*/update_id', 'items with an event, assign/unassign pairs first'),
    );
    f.set('domainId', distinct(synchronizers, 1)[0], found('scan', 'POST', path, '/transactions/0/synchronizer_id'));
    const end = typeof last?.record_time === 'string' ? last.record_time : undefined;
    if (first && end) {
      const start = plusMicros(first, -1);
      if (start) f.set('bulkRange', { start, end }, found('scan', 'POST', path, '/transactions/*/record_time', 'just before the first item read to the last'));
    }
  },
};

const events: Source = {
  id: 'scan-events',
  interface: 'scan',
  what: 'a page of the event history: verdicts, their synchronizer, reward rounds, verdict-only updates',
  provides: ['transactionUpdateIds', 'domainId', 'rounds'],
  async run(r, f) {
    const path = '/v0/events';
    const body = await r.json('POST', path, { body: { page_size: PAGE_SIZE } });
    const items: Json[] = Array.isArray(body?.events) ? body.events.filter(isObject) : [];
    const rounds = items.map((e) => e.app_activity_records?.round_number).filter((n): n is number => isInt(n) && n >= 0);
    f.set(
      'domainId',
      distinct(
        items.map((e) => e.verdict?.domain_id),
        1,
      )[0],
      found('scan', 'POST', path, '/events/*/verdict/domain_id'),
    );
    if (rounds.length) f.set('rounds', [...new Set(rounds)].slice(0, 6), found('scan', 'POST', path, '/events/*/app_activity_records/round_number'));
    // A verdict without an update (the mediator rejected it) is an update id the event paths know and the
    // update paths do not: the checks judge both.
    const verdictOnly = distinct(
      items.filter((e) => !e.update && isObject(e.verdict)).map((e) => e.verdict.update_id),
      1,
    );
    const ids = distinct(
      items.filter((e) => isObject(e.update) && !isObject(e.update.event)).map((e) => e.update.update_id),
      KEEP - 1,
    );
    if (f.set('transactionUpdateIds', ids.length ? [ids[0]!, ...verdictOnly, ...ids.slice(1)] : [], found('scan', 'POST', path, '/events/*/update/update_id')))
      return;
    // Ids the update history gave lack such an update: one is added second, as a vendor's list may hold one.
    const known = f.fixtures.transactionUpdateIds ?? [];
    const extra = verdictOnly.filter((id) => !known.includes(id));
    if (extra.length && known.length)
      f.amend(
        'transactionUpdateIds',
        [known[0]!, ...extra, ...known.slice(1, KEEP - 1)],
        `and a verdict-only update id of ${endpointOf('scan', 'POST', path)} /events/*/verdict/update_id`,
      );
  },
};

const rounds: Source = {
  id: 'scan-reward-rounds',
  interface: 'scan',
  what: 'the reward-accounting rounds available',
  provides: ['rounds'],
  async run(r, f) {
    const path = '/v0/internal/reward-accounting-process/rounds/earliest-available';
    const body = await r.json('GET', path);
    const earliest = body?.earliest_round;
    if (!isInt(earliest) || earliest < 0) return;
    const latest = f.facts.latestRound;
    const picked = [earliest, earliest + 1, ...(latest !== undefined && latest > earliest + 1 ? [latest - 1, latest] : [])];
    f.set(
      'rounds',
      [...new Set(picked)],
      found('scan', 'GET', path, '/earliest_round', latest === undefined ? undefined : `with the latest round of ${endpointOf('scan', 'GET', '/v0/dso')}`),
    );
  },
};

const synchronizer: Source = {
  id: 'scan-synchronizer-members',
  interface: 'scan',
  what: "the synchronizer's mediator and the participants of known parties (traffic members)",
  provides: ['memberIds', 'partyIds'],
  pages: 3,
  async run(r, f) {
    const domain = f.fixtures.domainId;
    if (!domain) return void r.fall('unusable answer', 'no synchronizer id is known');
    const participants: string[] = [];
    const idsPath = '/v0/synchronizer-identities/{domain_id_prefix}';
    const ids = await r.json('GET', idsPath.replace('{domain_id_prefix}', enc(domain.split('::')[0]!)));
    const validators = f.fixtures.validatorIds ?? [];
    const parties = distinct([...validators, ...(f.fixtures.holdingOwners ?? [])], 2);
    // The parties are the first validators (then holding owners) known: their origin is that fixture's.
    const ofValidators = parties.some((p) => validators.includes(p));
    const mixed = ofValidators && !parties.every((p) => validators.includes(p));
    const from = ofValidators ? 'validatorIds' : 'holdingOwners';
    const partiesFrom = f.originOf(from, mixed ? 'the first of validatorIds and of holdingOwners' : `the first of ${from}`);
    if (partiesFrom) f.set('partyIds', parties, partiesFrom);
    for (const p of parties) {
      const body = await r.json('GET', participantIdPath(domain, p));
      if (Array.isArray(body?.participant_ids)) participants.push(...body.participant_ids);
    }
    const mediator = typeof ids?.mediator_id === 'string' ? ids.mediator_id : undefined;
    const members = distinct([...participants, mediator], KEEP);
    const withMediator = mediator !== undefined && members.includes(mediator);
    f.set(
      'memberIds',
      members,
      participants.length > 0
        ? found(
            'scan',
            'GET',
            '/v1/domains/{domain_id}/parties/{party_id}/participant-id',
            '/participant_ids',
            withMediator ? `and /mediator_id of ${endpointOf('scan', 'GET', idsPath)}` : undefined,
          )
        : found('scan', 'GET', idsPath, '/mediator_id'),
    );
  },
};

/** In the order they run: each may use what the ones before it found. */
export const SCAN_SOURCES: readonly Source[] = [dso, rewardWeights, migration, snapshot, forceSnapshot, acs, licenses, updates, events, rounds, synchronizer];
