// A broad, read-only set of requests built from the world's own data, touching every read operation of
// the three interfaces; used to compare nodes and to sweep responses against the documents.
import type { RunningReferenceNode } from '../../reference-node/index.ts';
import { isoMicros } from '../../reference-node/world/time.ts';

export interface NamedRequest {
  name: string;
  operationId: string;
  spec: 'ledger' | 'wallet' | 'scan';
  url: string;
  init: RequestInit;
}

export function worldRequests(node: RunningReferenceNode): NamedRequest[] {
  const { world } = node.context;
  const { urls, credentials } = node;
  const out: NamedRequest[] = [];
  const json = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const get = (token?: string): RequestInit => ({ headers: token ? { authorization: `Bearer ${token}` } : {} });
  const add = (spec: NamedRequest['spec'], operationId: string, name: string, url: string, init: RequestInit = {}) =>
    out.push({ spec, operationId, name, url, init });

  // Ledger
  const admin = credentials.ledgerAdminToken;
  const parties = world.parties.filter((p) => p.hostedOn.includes(world.ledgerParticipant.id)).map((p) => p.id);
  const filtersByParty = Object.fromEntries(parties.map((p) => [p, {}]));
  for (const shape of ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS']) {
    add(
      'ledger',
      'getUpdates',
      `updates ${shape}`,
      `${urls.ledger}/v2/updates`,
      json(
        {
          beginExclusive: 0,
          endInclusive: 300,
          updateFormat: {
            includeTransactions: { eventFormat: { filtersByParty }, transactionShape: shape },
            includeReassignments: { filtersByParty },
            includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
          },
        },
        admin,
      ),
    );
  }
  add(
    'ledger',
    'getUpdates',
    'updates legacy filter',
    `${urls.ledger}/v2/updates?limit=50`,
    json({ beginExclusive: 10, endInclusive: 400, filter: { filtersByParty } }, admin),
  );
  add('ledger', 'getVersion', 'version', `${urls.ledger}/v2/version`, get(admin));
  add('ledger', 'listPackages', 'packages', `${urls.ledger}/v2/packages`, get(admin));

  // Wallet
  add('wallet', 'getDsoPartyId', 'dso party', `${urls.validator}/v0/scan-proxy/dso-party-id`);
  for (const w of credentials.walletUsers) {
    for (const o of world.transferOffers) {
      add('wallet', 'getTransferOfferStatus', `offer ${o.trackingId} as ${w.user}`, `${urls.validator}/v0/wallet/transfer-offers/${o.trackingId}/status`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.token}` },
      });
    }
  }

  // Scan
  const owners = world.parties.map((p) => p.id);
  for (const s of world.snapshots) {
    const body = { migration_id: s.migrationId, record_time: isoMicros(s.recordTimeMicros), page_size: 40, owner_party_ids: owners };
    add('scan', 'getHoldingsStateV0', `holdings v0 @${s.upToIndex}`, `${urls.scan}/v0/holdings/state`, json(body));
    add('scan', 'getHoldingsStateV1', `holdings v1 @${s.upToIndex}`, `${urls.scan}/v1/holdings/state`, json(body));
    add('scan', 'getHoldingsStateV2', `holdings v2 @${s.upToIndex}`, `${urls.scan}/v2/holdings/state`, json(body));
  }
  for (let i = 0; i < Math.min(world.count, 120); i++) {
    const id = world.updateId(i);
    add('scan', 'getUpdateByIdV0', `update v0 ${i}`, `${urls.scan}/v0/updates/${id}`);
    add('scan', 'getUpdateByIdV2', `update v2 ${i}`, `${urls.scan}/v2/updates/${id}`);
    add('scan', 'getEventById', `event ${i}`, `${urls.scan}/v0/events/${id}`);
  }
  add('scan', 'getUpdateByIdV0', 'update lossless', `${urls.scan}/v0/updates/${world.updateId(5)}?lossless=true`);
  add('scan', 'getEventById', 'event protobuf', `${urls.scan}/v0/events/${world.updateId(5)}?daml_value_encoding=protobuf_json`);
  for (const v of world.rejectedVerdicts) add('scan', 'getEventById', `verdict only ${v.updateId}`, `${urls.scan}/v0/events/${v.updateId}`);
  add(
    'scan',
    'listBulkHistoryUpdates',
    'bulk',
    `${urls.scan}/v0/history/bulk/updates`,
    json({ start_record_time: isoMicros(world.recordTimeMicros(0) - 10), end_record_time: isoMicros(world.recordTimeMicros(world.count - 1)), page_size: 5 }),
  );
  const first = world.bulkObject(0)!;
  add('scan', 'downloadBulkHistoryObject', 'bulk download', `${urls.scan}/v0/history/bulk/download/${encodeURIComponent(first.key)}`);
  for (const p of world.preapprovals.keys())
    add('scan', 'getTransferPreapprovalByParty', `preapproval ${p}`, `${urls.scan}/v0/transfer-preapprovals/by-party/${encodeURIComponent(p)}`);
  const domain = world.synchronizers[0]!.id;
  for (const member of world.memberTraffic.keys())
    add(
      'scan',
      'getMemberTrafficStatus',
      `traffic ${member}`,
      `${urls.scan}/v0/domains/${encodeURIComponent(domain)}/members/${encodeURIComponent(member)}/traffic-status`,
    );
  const faucetQuery = [...world.validators.map((v) => v.party), 'unknown::1220ab'].map((v) => `validator_ids=${encodeURIComponent(v)}`).join('&');
  add('scan', 'getValidatorFaucetsByValidator', 'faucets', `${urls.scan}/v0/validators/validator-faucets?${faucetQuery}`);
  for (const p of [world.multiHostedParty.id, world.validators[0]!.party])
    add(
      'scan',
      'getPartyToParticipantV1',
      `participants ${p}`,
      `${urls.scan}/v1/domains/${encodeURIComponent(domain)}/parties/${encodeURIComponent(p)}/participant-id`,
    );
  add('scan', 'listUnclaimedDevelopmentFundCoupons', 'coupons', `${urls.scan}/v0/unclaimed-development-fund-coupons`);
  for (const sv of world.svParties)
    add('scan', 'getPreviousSvRewardWeight', `weight ${sv.id}`, `${urls.scan}/v0/admin/sv/previous-sv-reward-weight`, json({ svParty: sv.id }));
  add('scan', 'getSynchronizerIdentities', 'synchronizer identities', `${urls.scan}/v0/synchronizer-identities/${encodeURIComponent(domain.split('::')[0]!)}`);
  add('scan', 'getFeatureSupport', 'features', `${urls.scan}/v0/feature-support`);
  add('scan', 'getBackfillingStatus', 'backfilling', `${urls.scan}/v0/backfilling/status`);
  for (const prefix of ['', 'a', 'app', 'zzz'])
    add('scan', 'listAnsEntries', `ans '${prefix}'`, `${urls.scan}/v0/ans-entries?page_size=20&name_prefix=${prefix}`);
  for (let r = 0; r < 8; r++)
    add('scan', 'getRewardAccountingRootHash', `root hash ${r}`, `${urls.scan}/v0/internal/reward-accounting-process/rounds/${r}/root-hash`);
  const lastRound = world.round(world.count - 1);
  for (const r of [lastRound - 1, lastRound, lastRound + 1])
    add('scan', 'getRewardAccountingRootHash', `root hash ${r}`, `${urls.scan}/v0/internal/reward-accounting-process/rounds/${r}/root-hash`);
  return out;
}
