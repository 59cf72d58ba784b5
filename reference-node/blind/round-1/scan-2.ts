// Blind faults, round 1 (scan, part 2 of 2): see scan-support.ts for what they share.
import { type BlindAnswer, blindRound } from '../seam.ts';
import { isObj, okBody, withBody, jsonAnswer, clone, q, qAll, match, bodyField, toMillis } from './scan-support.ts';

export const ROUND_1_SCAN_2 = blindRound(1, [
  // A continued listing resumes one object too far: the first object of every later page is skipped.
  {
    name: 'blind-r1-scan-bulk-token-skips-object',
    interface: 'scan',
    breaks:
      'Returns references to bulk storage objects covering a record-time range; objects may contain updates outside the range but include all updates inside it.',
    cites: ['C.bulk-updates.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'POST', /^\/v0\/history\/bulk\/updates$/) || !body || typeof bodyField(request, 'next_page_token') !== 'string') return undefined;
      if (!Array.isArray(body.object_refs) || body.object_refs.length === 0) return undefined;
      return withBody(answer, { ...body, object_refs: body.object_refs.slice(1) });
    },
  },
  // The download trims the object's final newline, so its bytes no longer match the listed digest.
  {
    name: 'blind-r1-scan-bulk-download-trimmed',
    interface: 'scan',
    breaks: '`digest` string (sha256 digest of the object for integrity and cross-node consistency)',
    cites: ['R.scan.45'],
    rewrite(request, answer) {
      if (!match(request, 'GET', /^\/v0\/history\/bulk\/download\/(.+)$/) || answer.status !== 200) return undefined;
      if (typeof answer.body === 'string' && answer.body.endsWith('\n')) return withBody(answer, answer.body.replace(/\n+$/, ''));
      if (Buffer.isBuffer(answer.body) && answer.body.length > 0) return withBody(answer, answer.body.subarray(0, answer.body.length - 1));
      return undefined;
    },
  },
  // An unknown object key reads as an empty object (200, no bytes) instead of 404.
  {
    name: 'blind-r1-scan-bulk-download-missing-empty',
    interface: 'scan',
    breaks: 'GET /v0/history/bulk/download/{object_key}: 200: binary body, `application/octet-stream`. 404 `{error}`.',
    cites: ['C.bulk-download.2'],
    rewrite(request, answer) {
      if (!match(request, 'GET', /^\/v0\/history\/bulk\/download\/(.+)$/) || answer.status !== 404) return undefined;
      return { status: 200, contentType: 'application/octet-stream', body: '' };
    },
  },
  // ---------------------------------------------------------------- by-key lookups

  // A miss returns the preapproval of the last party found (a reused response object).
  {
    name: 'blind-r1-scan-preapproval-miss-returns-previous',
    interface: 'scan',
    breaks:
      'GET /v0/transfer-preapprovals/by-party/{party}: Path `party` string (receiver party). 200 `{transfer_preapproval: ContractWithState}`. 404 `{error}`.',
    cites: ['C.preapproval.2'],
    rewrite(request, answer, memory) {
      if (!match(request, 'GET', /^\/v0\/transfer-preapprovals\/by-party\/([^/]+)$/)) return undefined;
      if (answer.status === 200) {
        memory.set('last', clone(answer));
        return undefined;
      }
      const last = memory.get('last') as BlindAnswer | undefined;
      return answer.status === 404 && last ? clone(last) : undefined;
    },
  },
  // v1: a party hosted on several participants reports only the first one (the v0 lookup is reused).
  {
    name: 'blind-r1-scan-participant-v1-first-host-only',
    interface: 'scan',
    breaks: 'Supports parties hosted on several participants (unlike v0). 200 `{participant_ids: string[]}`',
    cites: ['C.participant-id.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v1\/domains\/([^/]+)\/parties\/([^/]+)\/participant-id$/) || !body) return undefined;
      if (!Array.isArray(body.participant_ids) || body.participant_ids.length < 2) return undefined;
      return withBody(answer, { ...body, participant_ids: body.participant_ids.slice(0, 1) });
    },
  },
  // A full synchronizer id (`name::fingerprint`) is not accepted as its own prefix: 404.
  {
    name: 'blind-r1-scan-sync-identities-full-id-not-found',
    interface: 'scan',
    breaks: 'GET /v0/synchronizer-identities/{domain_id_prefix}: Path `domain_id_prefix` string. 200 `{sequencer_id: string, ...}`. 404 `{error}`.',
    cites: ['C.sync-identities.1'],
    rewrite(request, answer) {
      const m = match(request, 'GET', /^\/v0\/synchronizer-identities\/([^/]+)$/);
      if (!m || answer.status !== 200 || !m[0]!.includes('::')) return undefined;
      return jsonAnswer(404, { error: `No synchronizer found for prefix ${m[0]}` });
    },
  },
  // Reward weight answers are cached per svParty, ignoring effectiveBefore: the first answer for a party is
  // returned for every later cutoff.
  {
    name: 'blind-r1-scan-reward-weight-cache-ignores-cutoff',
    interface: 'scan',
    breaks: '`effectiveBefore` string optional (only weight changes effective strictly before it are considered)',
    cites: ['C.reward-weight.2'],
    rewrite(request, answer, memory) {
      if (!match(request, 'POST', /^\/v0\/admin\/sv\/previous-sv-reward-weight$/) || answer.status !== 200) return undefined;
      const party = bodyField(request, 'svParty');
      if (typeof party !== 'string') return undefined;
      const cached = memory.get(party) as BlindAnswer | undefined;
      if (!cached) {
        memory.set(party, clone(answer));
        return undefined;
      }
      return clone(cached);
    },
  },
  // ---------------------------------------------------------------- traffic, faucets

  // actual.total_limit and target.total_purchased are read from each other's column.
  {
    name: 'blind-r1-scan-traffic-limit-purchased-swapped',
    interface: 'scan',
    breaks: 'A top-up is complete when total_limit equals total_purchased; total_purchased may exceed total_limit while purchases are incorporated.',
    cites: ['R.scan.36'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/domains\/([^/]+)\/members\/([^/]+)\/traffic-status$/) || !body || !isObj(body.traffic_status)) return undefined;
      const { actual, target } = body.traffic_status;
      if (!isObj(actual) || !isObj(target) || actual.total_limit === target.total_purchased) return undefined;
      return withBody(answer, {
        ...body,
        traffic_status: {
          ...body.traffic_status,
          actual: { ...actual, total_limit: target.total_purchased },
          target: { ...target, total_purchased: actual.total_limit },
        },
      });
    },
  },
  // A member id that is not `PAR::…`/`MED::…` is looked up anyway and answers 404 instead of 400.
  {
    name: 'blind-r1-scan-traffic-bad-member-not-found',
    interface: 'scan',
    breaks: '`member_id` string, format `code::id::fingerprint` with `code` being `PAR` (participant) or `MED` (mediator). ... Errors 400, 404, 500.',
    cites: ['C.traffic.1'],
    rewrite(request, answer) {
      const m = match(request, 'GET', /^\/v0\/domains\/([^/]+)\/members\/([^/]+)\/traffic-status$/);
      if (!m || answer.status !== 400) return undefined;
      return jsonAnswer(404, { error: `No traffic state found for member ${m[1]}` });
    },
  },
  // A validator that collected in a single round reports lastCollectedInRound one past its first round.
  {
    name: 'blind-r1-scan-faucets-single-round-last-off-by-one',
    interface: 'scan',
    breaks: 'Invariant: collected + missed = last - first + 1; last equals first when collected in a single round.',
    cites: ['R.scan.38'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/validators\/validator-faucets$/) || !body || !Array.isArray(body.validatorsReceivedFaucets)) return undefined;
      let changed = false;
      const list = body.validatorsReceivedFaucets.map((v) => {
        if (!isObj(v) || v.numRoundsCollected !== 1 || typeof v.firstCollectedInRound !== 'number' || v.lastCollectedInRound !== v.firstCollectedInRound)
          return v;
        changed = true;
        return { ...v, lastCollectedInRound: v.firstCollectedInRound + 1 };
      });
      return changed ? withBody(answer, { ...body, validatorsReceivedFaucets: list }) : undefined;
    },
  },
  // Only the first occurrence of validator_ids is read (the query parser's single-value getter).
  {
    name: 'blind-r1-scan-faucets-first-id-only',
    interface: 'scan',
    breaks: 'Query `validator_ids` string[] required, one occurrence of the parameter per party id',
    cites: ['C.faucets.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      const ids = qAll(request, 'validator_ids');
      if (!match(request, 'GET', /^\/v0\/validators\/validator-faucets$/) || !body || ids.length < 2 || !Array.isArray(body.validatorsReceivedFaucets)) {
        return undefined;
      }
      const kept = body.validatorsReceivedFaucets.filter((v) => isObj(v) && v.validator === ids[0]);
      return kept.length === body.validatorsReceivedFaucets.length ? undefined : withBody(answer, { ...body, validatorsReceivedFaucets: kept });
    },
  },
  // Requested ids that are not onboarded validators get an all-zero entry instead of being ignored.
  {
    name: 'blind-r1-scan-faucets-unknown-ids-listed',
    interface: 'scan',
    breaks: 'ids not matching onboarded validators are ignored',
    cites: ['C.faucets.2'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/validators\/validator-faucets$/) || !body || !Array.isArray(body.validatorsReceivedFaucets)) return undefined;
      const known = new Set(body.validatorsReceivedFaucets.map((v) => (isObj(v) ? v.validator : undefined)));
      const extra = [...new Set(qAll(request, 'validator_ids'))]
        .filter((id) => !known.has(id))
        .map((validator) => ({ validator, numRoundsCollected: 0, numRoundsMissed: 0, firstCollectedInRound: 0, lastCollectedInRound: 0 }));
      return extra.length === 0 ? undefined : withBody(answer, { ...body, validatorsReceivedFaucets: [...body.validatorsReceivedFaucets, ...extra] });
    },
  },
  // ---------------------------------------------------------------- small state endpoints

  // The coupon list is keyed with underscores (the generated model's field name) instead of dashes.
  {
    name: 'blind-r1-scan-coupons-key-underscored',
    interface: 'scan',
    breaks: '200 `{"unclaimed-development-fund-coupons": ContractWithState[]}`',
    cites: ['C.dev-fund.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/unclaimed-development-fund-coupons$/) || !body || !('unclaimed-development-fund-coupons' in body)) return undefined;
      return withBody(answer, { unclaimed_development_fund_coupons: body['unclaimed-development-fund-coupons'] });
    },
  },
  // The feature flag is rendered as a string.
  {
    name: 'blind-r1-scan-feature-support-flag-string',
    interface: 'scan',
    breaks: '200 `{dummy?: boolean}`',
    cites: ['C.feature-support.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/feature-support$/) || !body || typeof body.dummy !== 'boolean') return undefined;
      return withBody(answer, { ...body, dummy: String(body.dummy) });
    },
  },
  // The forced snapshot's record time is reported at millisecond precision, so it is not a snapshot time that
  // `record_time_match=exact` accepts.
  {
    name: 'blind-r1-scan-acs-force-time-millis',
    interface: 'scan',
    breaks: 'Takes an ACS snapshot at the current time; the result is usable as parameters for the ACS state endpoint.',
    cites: ['C.acs-force.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'POST', /^\/v0\/state\/acs\/force$/) || !body || typeof body.record_time !== 'string') return undefined;
      const ms = toMillis(body.record_time);
      return ms === body.record_time ? undefined : withBody(answer, { ...body, record_time: ms });
    },
  },
  // ---------------------------------------------------------------- name service

  // With a non-empty name_prefix the entries come newest first (the prefix query sorts descending).
  {
    name: 'blind-r1-scan-ans-prefix-newest-first',
    interface: 'scan',
    breaks: '`page_size` int32 required (maximum results; older non-expired entries first)',
    cites: ['C.ans.5'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/ans-entries$/) || !body || !q(request, 'name_prefix') || !Array.isArray(body.entries) || body.entries.length < 2) {
        return undefined;
      }
      return withBody(answer, { ...body, entries: [...body.entries].reverse() });
    },
  },
  // Entries without expiry get the epoch as expires_at (a default timestamp), i.e. they read as long expired.
  {
    name: 'blind-r1-scan-ans-no-expiry-as-epoch',
    interface: 'scan',
    breaks: '`expires_at` date-time (optional or null: no expiry, only for special entries; ...)',
    cites: ['R.scan.42'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/ans-entries$/) || !body || !Array.isArray(body.entries)) return undefined;
      let changed = false;
      const entries = body.entries.map((e) => {
        if (!isObj(e) || e.expires_at != null) return e;
        changed = true;
        return { ...e, expires_at: '1970-01-01T00:00:00Z' };
      });
      return changed ? withBody(answer, { ...body, entries }) : undefined;
    },
  },
  // An explicitly empty name_prefix matches nothing.
  {
    name: 'blind-r1-scan-ans-empty-prefix-lists-nothing',
    interface: 'scan',
    breaks: '`name_prefix` string optional (every result name starts with this substring; empty or absent lists all; any substring accepted)',
    cites: ['C.ans.3'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (
        !match(request, 'GET', /^\/v0\/ans-entries$/) ||
        !body ||
        q(request, 'name_prefix') !== '' ||
        !Array.isArray(body.entries) ||
        body.entries.length === 0
      ) {
        return undefined;
      }
      return withBody(answer, { ...body, entries: [] });
    },
  },
  // ---------------------------------------------------------------- reward accounting root hash

  // An Ok answer names the round before the one asked (the hash is the right round's).
  {
    name: 'blind-r1-scan-root-hash-round-off-by-one',
    interface: 'scan',
    breaks: 'Path `round_number` int64. 200: one of `{status, round_number: int64, root_hash: string (hex-encoded)}`',
    cites: ['C.root-hash.1'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/internal\/reward-accounting-process\/rounds\/([^/]+)\/root-hash$/) || !body) return undefined;
      if (typeof body.round_number !== 'number') return undefined;
      return withBody(answer, { ...body, round_number: body.round_number - 1 });
    },
  },
  // The root hash is base64-encoded instead of hex for Ok answers.
  {
    name: 'blind-r1-scan-root-hash-base64',
    interface: 'scan',
    breaks: '`root_hash: string (hex-encoded)`',
    cites: ['C.root-hash.2'],
    rewrite(request, answer) {
      const body = okBody(answer);
      if (!match(request, 'GET', /^\/v0\/internal\/reward-accounting-process\/rounds\/([^/]+)\/root-hash$/) || !body) return undefined;
      if (typeof body.root_hash !== 'string' || !/^[0-9a-fA-F]+$/.test(body.root_hash) || body.root_hash.length % 2 !== 0) return undefined;
      return withBody(answer, { ...body, root_hash: Buffer.from(body.root_hash, 'hex').toString('base64') });
    },
  },
]);
