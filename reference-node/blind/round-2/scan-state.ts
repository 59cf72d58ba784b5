// Round-2 blind faults of the scan interface: preapprovals, traffic, faucets, party-to-participant, development
// fund coupons, reward weights, synchronizer identities, feature support, name service, forced ACS snapshots
// and reward-accounting root hashes. Written from the description, the facts and the node's answers only.
import { blindRound } from '../seam.ts';
import { bodyOf, clone, errorAnswer, isObject, isScan, type Json, okBody, queryOne, toMillis, withBody } from './scan-support.ts';

const PARTICIPANT_V1 = /^\/v1\/domains\/[^/]+\/parties\/[^/]+\/participant-id$/;
const TRAFFIC = /^\/v0\/domains\/[^/]+\/members\/([^/]+)\/traffic-status$/;
const ANS = '/v0/ans-entries';

export const ROUND_2_SCAN_STATE = blindRound(2, [
  {
    // The preapproval is returned as a bare Contract: the ContractWithState wrapper (`contract`, `domain_id`) is lost.
    name: 'blind-r2-scan-preapproval-contract-unwrapped',
    interface: 'scan',
    breaks: 'Path `party` string (receiver party). 200 `{transfer_preapproval: ContractWithState}`.',
    cites: ['C.preapproval.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', /^\/v0\/transfer-preapprovals\/by-party\/[^/]+$/)) return undefined;
      const body = okBody(answer);
      if (!body || !isObject(body.transfer_preapproval) || !isObject(body.transfer_preapproval.contract)) return undefined;
      return withBody(answer, { transfer_preapproval: body.transfer_preapproval.contract });
    },
  },
  {
    // The member id validator accepts only the `PAR` code: a well-formed mediator id is refused as a bad request.
    name: 'blind-r2-scan-traffic-mediator-refused',
    interface: 'scan',
    breaks: '`member_id` string, format `code::id::fingerprint` with `code` being `PAR` (participant) or `MED` (mediator).',
    cites: ['C.traffic.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', TRAFFIC) || answer.status === 400) return undefined;
      const member = decodeURIComponent(TRAFFIC.exec(request.path.slice('/api/scan'.length))?.[1] ?? '');
      if (!/^MED::[^:]+::[^:]+$/.test(member)) return undefined;
      return errorAnswer(400, `Invalid member id: ${member} (expected PAR::id::fingerprint)`);
    },
  },
  {
    // The purchased total is read from the purchase records in kilobytes and not converted back to bytes.
    name: 'blind-r2-scan-traffic-purchased-kilobytes',
    interface: 'scan',
    breaks: '`target` {`total_purchased` int64: extra traffic purchased, in bytes}',
    cites: ['R.scan.35'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', TRAFFIC)) return undefined;
      const body = okBody(answer);
      const target = isObject(body?.traffic_status) ? body.traffic_status.target : undefined;
      if (!body || !isObject(target) || typeof target.total_purchased !== 'number' || target.total_purchased < 1000) return undefined;
      target.total_purchased = Math.floor(target.total_purchased / 1000);
      return withBody(answer, body);
    },
  },
  {
    // validator_ids is bound as a single value: of several ids only the first one is looked up.
    name: 'blind-r2-scan-faucets-first-id-only',
    interface: 'scan',
    breaks: 'Query `validator_ids` string[] required, one occurrence of the parameter per party id',
    cites: ['C.faucets.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', '/v0/validators/validator-faucets')) return undefined;
      const ids = request.query.validator_ids;
      if (!Array.isArray(ids) || ids.length < 2) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.validatorsReceivedFaucets)) return undefined;
      const kept = body.validatorsReceivedFaucets.filter((v) => isObject(v) && v.validator === ids[0]);
      if (kept.length === body.validatorsReceivedFaucets.length) return undefined;
      return withBody(answer, { ...body, validatorsReceivedFaucets: kept });
    },
  },
  {
    // Missed rounds are computed as last - first - collected (the `+ 1` of the inclusive range forgotten).
    name: 'blind-r2-scan-faucets-missed-off-by-one',
    interface: 'scan',
    breaks: 'Invariant: collected + missed = last - first + 1; last equals first when collected in a single round.',
    cites: ['R.scan.38'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', '/v0/validators/validator-faucets')) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.validatorsReceivedFaucets)) return undefined;
      let changed = false;
      for (const v of body.validatorsReceivedFaucets) {
        if (!isObject(v) || typeof v.numRoundsCollected !== 'number' || v.numRoundsCollected === 0) continue;
        const { firstCollectedInRound: first, lastCollectedInRound: last } = v;
        if (typeof first !== 'number' || typeof last !== 'number') continue;
        v.numRoundsMissed = last - first - v.numRoundsCollected;
        changed = true;
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // v1 still runs the v0 lookup, which keeps one hosting participant: a party hosted on several participants
    // is reported with only the first of them.
    name: 'blind-r2-scan-participant-id-v1-single-host',
    interface: 'scan',
    breaks: 'Supports parties hosted on several participants (unlike v0).',
    cites: ['C.participant-id.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', PARTICIPANT_V1)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.participant_ids) || body.participant_ids.length < 2) return undefined;
      return withBody(answer, { participant_ids: body.participant_ids.slice(0, 1) });
    },
  },
  {
    // The participant's unique identifier is returned where its member id belongs: no `PAR::` code.
    name: 'blind-r2-scan-participant-id-bare-uid',
    interface: 'scan',
    breaks: '200 `{participant_ids: string[]}`, each of the form `PAR::id::fingerprint`.',
    cites: ['C.participant-id.2'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', PARTICIPANT_V1)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.participant_ids) || body.participant_ids.length === 0) return undefined;
      return withBody(answer, { participant_ids: body.participant_ids.map((p) => (typeof p === 'string' ? p.replace(/^PAR::/, '') : p)) });
    },
  },
  {
    // The response class is serialized with the snake-case naming policy of the other endpoints: the
    // hyphenated key becomes `unclaimed_development_fund_coupons`.
    name: 'blind-r2-scan-dev-fund-key-snake-case',
    interface: 'scan',
    breaks: 'No parameters. 200 `{"unclaimed-development-fund-coupons": ContractWithState[]}`',
    cites: ['C.dev-fund.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', '/v0/unclaimed-development-fund-coupons')) return undefined;
      const body = okBody(answer);
      if (!body || !('unclaimed-development-fund-coupons' in body)) return undefined;
      return withBody(answer, { unclaimed_development_fund_coupons: body['unclaimed-development-fund-coupons'] });
    },
  },
  {
    // The lookup is cached by svParty alone: once answered for an SV, every later request for that SV gets the
    // first answer, whatever its effectiveBefore.
    name: 'blind-r2-scan-reward-weight-cached-per-sv',
    interface: 'scan',
    breaks:
      '200 `{rewardWeight?: string}`: the weight from the latest accepted reward-weight update proposal before `effectiveBefore`; absent when there is none.',
    cites: ['C.reward-weight.4'],
    rewrite(request, answer, memory) {
      if (!isScan(request, 'POST', '/v0/admin/sv/previous-sv-reward-weight') || answer.status !== 200) return undefined;
      const sv = bodyOf(request).svParty;
      if (typeof sv !== 'string') return undefined;
      const key = `sv:${sv}`;
      if (!memory.has(key)) {
        memory.set(key, clone(answer.body));
        return undefined;
      }
      const cached = memory.get(key);
      if (JSON.stringify(cached) === JSON.stringify(answer.body)) return undefined;
      return withBody(answer, clone(cached));
    },
  },
  {
    // The JSON writer collapses one-element arrays to their element: a single identity transaction is given
    // as a bare string.
    name: 'blind-r2-scan-sync-identities-singleton-collapsed',
    interface: 'scan',
    breaks: '200 `{sequencer_id: string, sequencer_identity_transactions: string[], mediator_id: string, mediator_identity_transactions: string[]}`.',
    cites: ['C.sync-identities.2'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', /^\/v0\/synchronizer-identities\/[^/]+$/)) return undefined;
      const body = okBody(answer);
      if (!body) return undefined;
      let changed = false;
      for (const k of ['sequencer_identity_transactions', 'mediator_identity_transactions']) {
        const v = body[k];
        if (Array.isArray(v) && v.length === 1) {
          body[k] = v[0];
          changed = true;
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // Feature flags are read from a string-valued configuration map and passed through unconverted.
    name: 'blind-r2-scan-feature-support-flag-as-text',
    interface: 'scan',
    breaks: 'No parameters. 200 `{dummy?: boolean}`.',
    cites: ['C.feature-support.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', '/v0/feature-support')) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.dummy !== 'boolean') return undefined;
      return withBody(answer, { ...body, dummy: String(body.dummy) });
    },
  },
  {
    // name_prefix is matched with a LIKE '%prefix%' pattern: entries whose name merely contains the text are
    // listed too. (The node serves the full list it answered before, filtered by containment.)
    name: 'blind-r2-scan-ans-prefix-matches-anywhere',
    interface: 'scan',
    breaks: '`name_prefix` string optional (every result name starts with this substring; empty or absent lists all; any substring accepted)',
    cites: ['C.ans.2'],
    rewrite(request, answer, memory) {
      if (!isScan(request, 'GET', ANS)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.entries)) return undefined;
      const prefix = queryOne(request, 'name_prefix') ?? '';
      const all = (memory.get('all') as Json[] | undefined) ?? [];
      if (prefix === '') {
        if (body.entries.length > all.length) memory.set('all', clone(body.entries.filter(isObject)));
        return undefined;
      }
      const size = Number.parseInt(queryOne(request, 'page_size') ?? '', 10);
      const matches = all.filter((e) => typeof e.name === 'string' && e.name.includes(prefix));
      const limited = Number.isFinite(size) && size >= 0 ? matches.slice(0, size) : matches;
      if (limited.length <= body.entries.length) return undefined;
      return withBody(answer, { ...body, entries: limited });
    },
  },
  {
    // An empty name_prefix is bound as an exact name filter (`name = ''`) instead of no filter: nothing is listed.
    name: 'blind-r2-scan-ans-empty-prefix-lists-nothing',
    interface: 'scan',
    breaks: '(`name_prefix`) empty or absent lists all',
    cites: ['C.ans.3'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', ANS) || queryOne(request, 'name_prefix') !== '') return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.entries) || body.entries.length === 0) return undefined;
      return withBody(answer, { ...body, entries: [] });
    },
  },
  {
    // Entries of the operating organization are rendered with an empty contract id instead of leaving it out.
    name: 'blind-r2-scan-ans-special-entry-empty-contract-id',
    interface: 'scan',
    breaks: '`contract_id` string (optional; absent for entries provided by the operating organization for itself or an operator)',
    cites: ['R.scan.40'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', ANS)) return undefined;
      const body = okBody(answer);
      if (!body || !Array.isArray(body.entries)) return undefined;
      let changed = false;
      for (const e of body.entries) {
        if (isObject(e) && !('contract_id' in e)) {
          e.contract_id = '';
          changed = true;
        }
      }
      return changed ? withBody(answer, body) : undefined;
    },
  },
  {
    // The forced snapshot's time is reported at millisecond precision while the snapshot is stored at
    // microseconds: the reported time names no snapshot and cannot be used with the ACS state endpoints.
    name: 'blind-r2-scan-acs-force-time-millis',
    interface: 'scan',
    breaks: 'No body. Takes an ACS snapshot at the current time; the result is usable as parameters for the ACS state endpoint.',
    cites: ['C.acs-force.1'],
    rewrite(request, answer) {
      if (!isScan(request, 'POST', '/v0/state/acs/force')) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.record_time !== 'string') return undefined;
      const ms = toMillis(body.record_time);
      if (ms === body.record_time) return undefined;
      return withBody(answer, { ...body, record_time: ms });
    },
  },
  {
    // The root hash bytes are encoded with base64 instead of hex.
    name: 'blind-r2-scan-root-hash-base64',
    interface: 'scan',
    breaks: '200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}`, `{status}` (undetermined), `{status}` (cannot provide).',
    cites: ['C.root-hash.2'],
    rewrite(request, answer) {
      if (!isScan(request, 'GET', /^\/v0\/internal\/reward-accounting-process\/rounds\/[^/]+\/root-hash$/)) return undefined;
      const body = okBody(answer);
      if (!body || typeof body.root_hash !== 'string' || !/^[0-9a-fA-F]+$/.test(body.root_hash) || body.root_hash.length % 2 !== 0) return undefined;
      return withBody(answer, { ...body, root_hash: Buffer.from(body.root_hash, 'hex').toString('base64') });
    },
  },
]);
