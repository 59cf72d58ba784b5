// Fixture discovery against a reference node given only its URLs and tokens: every fixture is found where
// the node's answers show it, with the endpoint and pointer it came from; given fixtures win; only with
// mutations allowed does it create anything, and what it creates is named after the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceFixtures, type ReferenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { discover, type DiscoveryResult } from '../../engine/discovery/discover.ts';
import type { FixtureName } from '../../engine/fixtures.ts';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { DEFAULT_BOUNDS } from '../../engine/target.ts';
import { DISCOVERY_SOURCES } from '../../interfaces/discovery-sources.ts';

let node: RunningReferenceNode;
let known: ReferenceFixtures;

beforeAll(async () => {
  node = await startReferenceNode({});
  known = referenceFixtures(node);
});
afterAll(() => node.close());

function clients(maxRequests = 2000) {
  const limits = new RunLimits({ maxRequests });
  const client = (prefix: string, bearer?: string) =>
    new Client({ origin: node.urls.ledger, prefix, credentials: { bearer }, timeoutMs: 5000, maxBodyBytes: DEFAULT_BOUNDS.maxBodyBytes, limits });
  return {
    ledger: client('', node.credentials.ledgerAdminToken),
    wallet: client('/api/validator', node.credentials.walletUsers[0]!.token),
    scan: client('/api/scan'),
  };
}

const env = (runId: string) => ({
  runId,
  ledgerBearer: node.credentials.ledgerAdminToken,
  walletBearer: node.credentials.walletUsers[0]!.token,
  walletVariable: 'CN_CONFORMANCE_WALLET_TOKEN',
  now: () => new Date(),
});

/** Every fixture the node's own fixture file has. */
/** Fixtures only the vendor can give: another wallet user's token is no answer of any endpoint. */
const GIVEN_ONLY: ReadonlySet<string> = new Set(['otherWalletUserToken']);
const every = (): FixtureName[] => Object.keys(known).filter((k) => known[k as keyof ReferenceFixtures] !== undefined && !GIVEN_ONLY.has(k)) as FixtureName[];

describe('read-only discovery, given only URLs and tokens', () => {
  let d: DiscoveryResult;
  beforeAll(async () => {
    d = await discover({ sources: DISCOVERY_SOURCES, given: {}, clients: clients(), allowMutations: false, env: env('t1') });
  });

  it('finds every fixture, each with the endpoint and JSON pointer it came from', () => {
    const missing = every().filter((n) => d.fixtures[n] === undefined);
    expect(missing, JSON.stringify(d.sources, null, 1)).toEqual([]);
    for (const n of every()) {
      const o = d.origins[n]!;
      expect(o.kind, n).toBe('discovered');
      if (o.kind === 'discovered') {
        expect(o.endpoint, n).toMatch(/^(GET|POST) \//);
        expect(o.pointer, n).toMatch(/^\//);
      }
    }
  });

  it("finds the node's own ids: what it finds is what the node knows", async () => {
    const f = d.fixtures;
    expect(new Set(f.svParties)).toEqual(new Set(known.svParties));
    // Every accepted reward-weight change, as the node's own file lists them.
    const byTime = (a: { effectiveAt: string }, b: { effectiveAt: string }) => a.effectiveAt.localeCompare(b.effectiveAt);
    expect([...f.rewardWeightChanges!].sort(byTime)).toEqual([...known.rewardWeightChanges].sort(byTime));
    // The owners own holdings the holdings endpoint knows at that snapshot.
    const holdings = await fetch(`${node.urls.scan}/v1/holdings/state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ migration_id: f.migrationId, record_time: f.snapshotRecordTime, page_size: 100, owner_party_ids: f.holdingOwners }),
    });
    const owners = new Set(
      ((await holdings.json()) as { created_events: Array<{ create_arguments: { owner: string } }> }).created_events.map((e) => e.create_arguments.owner),
    );
    expect(f.holdingOwners!.filter((o) => !owners.has(o))).toEqual([]);
    expect(known.validatorIds).toEqual(expect.arrayContaining(f.validatorIds!));
    expect(known.preapprovalParties).toEqual(expect.arrayContaining(f.preapprovalParties!));
    expect(f.migrationId).toBe(known.migrationId);
    // A verdict-only update (the mediator rejected it) sits second among the transaction ids, as in the node's own file.
    expect(node.context.world.rejectedVerdicts.map((v) => v.updateId)).toContain(f.transactionUpdateIds![1]);
    expect(f.snapshotRecordTime).toBe(known.snapshotRecordTime);
    expect(f.multiHostedParty).toBe(known.multiHostedParty);
    // Both synchronizers: the acting party of the discovered command may submit on each.
    expect(f.ledgerCommands!.actAs).toEqual([node.credentials.walletUsers[0]!.party]);
    expect(new Set(f.ledgerSynchronizers)).toEqual(new Set(known.ledgerSynchronizers));
    // The hosting the ledger's topology events show, read to the end: the node's own, the multi-hosted party's both participants first.
    expect(f.partyHosting).toEqual(known.partyHosting.filter((h) => f.partyHosting!.some((d) => d.party === h.party)));
    expect(f.partyHosting![0]).toEqual(known.partyHosting[0]);
    // The limited token is the wallet token: the ledger knows its user with rights for its own party only.
    expect(f.ledgerLimitedToken).toBe(node.credentials.walletUsers[0]!.token);
    expect(f.ledgerForbiddenParty).not.toBe(node.credentials.walletUsers[0]!.party);
    // Another user's offers are offers between two other parties; the user's own are the ones it sent.
    expect(known.otherUserTransferOffers).toEqual(expect.arrayContaining(f.otherUserTransferOffers!));
    const own = Object.values(known.transferOffers).flat();
    expect(own).toEqual(expect.arrayContaining(Object.values(f.transferOffers!).flat()));
    expect(Object.keys(f.transferOffers!)).toEqual(expect.arrayContaining(['created', 'failed']));
  });

  it('sends no request that changes the target: the mutating sources only say what they would look for', () => {
    for (const s of d.sources.filter((x) => x.mutates)) expect(['needs mutations', 'not needed']).toContain(s.outcome);
    expect(d.sources.map((s) => s.source)).toEqual(DISCOVERY_SOURCES.map((s) => s.id));
    for (const s of d.sources) expect(s.requests).toBeLessThanOrEqual(DISCOVERY_SOURCES.find((x) => x.id === s.source)!.pages ?? d.bounds.pages);
  });
});

describe('precedence and bounds', () => {
  it('given fixtures win and keep their origin; a source with nothing left to find sends nothing', async () => {
    const d = await discover({
      sources: DISCOVERY_SOURCES,
      given: { svParties: ['given::1220aa'] },
      givenFrom: () => 'fixture file my.json',
      clients: clients(),
      allowMutations: false,
      env: env('t2'),
    });
    expect(d.fixtures.svParties).toEqual(['given::1220aa']);
    expect(d.origins.svParties).toEqual({ kind: 'given', from: 'fixture file my.json' });
    // scan-dso also hands on the latest round, which the rounds source uses: it still runs for `rounds`.
    const dso = d.sources.find((s) => s.source === 'scan-dso')!;
    expect(dso.found).not.toContain('svParties');
  });

  it("stops at the run's request budget with every source reported, and throws nothing", async () => {
    const d = await discover({ sources: DISCOVERY_SOURCES, given: {}, clients: clients(3), allowMutations: false, env: env('t3') });
    expect(d.sources.filter((s) => s.requests > 0).reduce((n, s) => n + s.requests, 0)).toBeLessThanOrEqual(4);
    expect(d.sources.at(-1)!.outcome).toBe('budget used up');
    expect(d.sources).toHaveLength(DISCOVERY_SOURCES.length);
  });

  it('a walk stops at its page bound and says so', async () => {
    const d = await discover({
      sources: DISCOVERY_SOURCES,
      given: {},
      clients: clients(),
      allowMutations: false,
      env: env('t4'),
      bounds: { pages: 1, ms: 20_000 },
    });
    const updates = d.sources.find((s) => s.source === 'scan-updates')!;
    expect(updates.requests).toBe(1);
    expect(updates.detail ?? '').toMatch(/stopped|bound|^$/);
  });
});

describe('with mutations allowed', () => {
  it('creates a transfer offer of its own, tracked by an id naming the run, and files it by the state the wallet reports', async () => {
    const d = await discover({ sources: DISCOVERY_SOURCES, given: {}, clients: clients(), allowMutations: true, env: env('mut1') });
    const created = d.sources.find((s) => s.source === 'wallet-create-transfer-offer')!;
    expect(created.outcome, JSON.stringify(created)).not.toMatch(/not served|refused|unusable/);
    const ids = Object.values(d.fixtures.transferOffers!).flat();
    expect(ids).toContain('cnc-mut1-offer-1');
    expect(d.fixtures.transferOffers!.created).toContain('cnc-mut1-offer-1');
  });
});
