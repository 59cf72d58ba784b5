// Real-world deviations: what production nodes send where it bends the letter of the description. A node
// showing one fails no MUST requirement; exactly the SHOULD requirements it names report it.
import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { DEVIATION_CATALOG } from '../../reference-node/faults.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { catalog } from '../../requirements/catalog.ts';
import { deviationScope, runDeviation } from '../../detection/matrix.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

/**
 * Cases per property check, as for the detection matrix's faults (test/support/fault-batches.ts): every case
 * meets the deviation's answers, so a third of the default shows them all; `npm run detection` runs the
 * deviations at the run's default, where a false alarm of a later case would show.
 */
const RUNS = 4;

describe('a node showing a real-world deviation', () => {
  for (const d of DEVIATION_CATALOG) {
    it(`${d.name}: no MUST requirement fails; the findings are exactly ${d.findings.join(', ') || 'none'}`, async () => {
      const all = catalog(await loadedSpecs());
      for (const id of [...d.findings, ...(d.unsupported ?? []), ...(d.skipped ?? [])])
        expect(
          all.find((r) => r.id === id),
          `${d.name} names ${id}`,
        ).toBeDefined();
      for (const id of d.findings) expect(all.find((r) => r.id === id)?.level, `${d.name} names ${id}`).toBe('SHOULD');
      // The requirements that read the answers it changes, and the ones that report it (the detection matrix's proof).
      expect(
        deviationScope(d, all).some((r) => r.level === 'MUST'),
        `${d.name}: its operations are read by some MUST requirement`,
      ).toBe(true);
      const o = await runDeviation(d, all, await builtinDocumentsOnce(), { runs: RUNS });
      expect(o.mustWrong).toEqual([]);
      expect(o.failed).toEqual(o.findings);
      expect(o.ok).toBe(true);
    });
  }
});

describe('scan-validator-never-collected', () => {
  it('puts a validator with all four faucet counters 0 into the answer the round arithmetic reads', async () => {
    const node = await startReferenceNode({ faults: ['scan-validator-never-collected'] });
    try {
      const query = referenceFixtures(node)
        .validatorIds.map((id) => `validator_ids=${encodeURIComponent(id)}`)
        .join('&');
      const body = (await (await fetch(`${node.urls.scan}/v0/validators/validator-faucets?${query}`)).json()) as {
        validatorsReceivedFaucets: Array<Record<string, unknown>>;
      };
      const zero = body.validatorsReceivedFaucets.filter(
        (r) => r.numRoundsCollected === 0 && r.numRoundsMissed === 0 && r.firstCollectedInRound === 0 && r.lastCollectedInRound === 0,
      );
      expect(zero).toHaveLength(1);
      // The others collected, and keep the arithmetic.
      expect(body.validatorsReceivedFaucets.length).toBeGreaterThan(1);
    } finally {
      await node.close();
    }
  });
});

describe('the null deviations of /v0/events and the holdings pages', () => {
  const get = async (url: string) => (await fetch(url)).json() as Promise<Record<string, unknown>>;

  it('scan-events-null-verdict: items without a verdict carry "verdict": null; items with one keep it', async () => {
    for (const [faults, absent] of [
      [['scan-events-null-verdict'], null],
      [[], undefined],
    ] as const) {
      const node = await startReferenceNode({ faults: [...faults] });
      try {
        const items = await Promise.all(referenceFixtures(node).transactionUpdateIds.map((id) => get(`${node.urls.scan}/v0/events/${id}`)));
        const without = items.filter((i) => i.update && (i.verdict === null || i.verdict === undefined));
        expect(without.length, faults.join()).toBeGreaterThan(0);
        for (const i of without) expect('verdict' in i ? i.verdict : undefined).toBe(absent);
        expect(items.filter((i) => typeof i.verdict === 'object' && i.verdict !== null).length).toBeGreaterThan(without.length);
      } finally {
        await node.close();
      }
    }
  });

  it('scan-events-null-update: a verdict-only fixture id is answered {update: null, verdict, ...}; the update paths do not know it', async () => {
    const node = await startReferenceNode({ faults: ['scan-events-null-update'] });
    try {
      const ids = referenceFixtures(node).transactionUpdateIds;
      const verdictOnly = ids.filter((id) => node.context.world.rejectedVerdicts.some((v) => v.updateId === id));
      expect(verdictOnly).toHaveLength(1);
      const item = await get(`${node.urls.scan}/v0/events/${verdictOnly[0]}`);
      expect(item.update).toBeNull();
      expect((item.verdict as { update_id: string }).update_id).toBe(verdictOnly[0]);
      for (const path of ['v0/updates', 'v2/updates']) expect((await fetch(`${node.urls.scan}/${path}/${verdictOnly[0]}`)).status).toBe(404);
    } finally {
      await node.close();
    }
  });

  it('scan-holdings-null-page-token: the last page of every holdings version carries "next_page_token": null, the others a token', async () => {
    const node = await startReferenceNode({ faults: ['scan-holdings-null-page-token'] });
    try {
      const f = referenceFixtures(node);
      for (const version of ['v0', 'v1', 'v2']) {
        const pages: Array<Record<string, unknown>> = [];
        let after: unknown;
        do {
          const body = {
            migration_id: f.migrationId,
            record_time: f.snapshotRecordTime,
            owner_party_ids: f.holdingOwners,
            page_size: 50,
            ...(after ? { after } : {}),
          };
          const res = await fetch(`${node.urls.scan}/${version}/holdings/state`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          pages.push((await res.json()) as Record<string, unknown>);
          after = pages.at(-1)!.next_page_token;
        } while (after !== null && after !== undefined && pages.length < 100);
        expect(pages.length, version).toBeGreaterThan(1);
        expect('next_page_token' in pages.at(-1)! && pages.at(-1)!.next_page_token, version).toBeNull();
        for (const p of pages.slice(0, -1)) expect(p.next_page_token, version).not.toBeNull();
      }
    } finally {
      await node.close();
    }
  });
});

describe('scan-deprecated-update-path-gone', () => {
  it("answers every /v0/updates id with the HTTP layer's text/plain 404, while /v2/updates and /v0/events serve it", async () => {
    const node = await startReferenceNode({ faults: ['scan-deprecated-update-path-gone'] });
    try {
      const [id] = referenceFixtures(node).transactionUpdateIds;
      const gone = await fetch(`${node.urls.scan}/v0/updates/${id}`);
      expect({ status: gone.status, type: gone.headers.get('content-type'), text: await gone.text() }).toEqual({
        status: 404,
        type: 'text/plain; charset=utf-8',
        text: 'The requested resource could not be found.',
      });
      for (const path of ['v2/updates', 'v0/events']) expect((await fetch(`${node.urls.scan}/${path}/${id}`)).status, path).toBe(200);
    } finally {
      await node.close();
    }
  });
});

describe('the plain-text 404 deviations', () => {
  it('scan-not-found-plain-text and wallet-not-found-plain-text: a not-found is plain text, a found answer stays JSON', async () => {
    const node = await startReferenceNode({ faults: ['scan-not-found-plain-text', 'wallet-not-found-plain-text'] });
    try {
      const missing = await fetch(`${node.urls.scan}/v0/transfer-preapprovals/by-party/${encodeURIComponent(`nobody::1220${'cd'.repeat(32)}`)}`);
      expect([missing.status, missing.headers.get('content-type'), (await missing.text()).startsWith('Not Found: ')]).toEqual([
        404,
        'text/plain; charset=utf-8',
        true,
      ]);
      const [id] = referenceFixtures(node).transactionUpdateIds;
      const found = await fetch(`${node.urls.scan}/v0/events/${id}`);
      expect([found.status, found.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
      const offer = await fetch(`${node.urls.validator}/v0/wallet/transfer-offers/no-such-offer/status`, {
        method: 'POST',
        headers: { authorization: `Bearer ${node.credentials.walletUsers[0]!.token}` },
      });
      expect([offer.status, offer.headers.get('content-type')]).toEqual([404, 'text/plain; charset=utf-8']);
    } finally {
      await node.close();
    }
  });
});

describe('wallet-null-withdrawn-reason', () => {
  it('sends "withdrawn_reason": null for a failed offer without a reason, and keeps a given reason', async () => {
    const node = await startReferenceNode({ faults: ['wallet-null-withdrawn-reason'] });
    try {
      const status = async (id: string) =>
        (await (
          await fetch(`${node.urls.validator}/v0/wallet/transfer-offers/${id}/status`, {
            method: 'POST',
            headers: { authorization: `Bearer ${node.credentials.walletUsers[0]!.token}` },
          })
        ).json()) as Record<string, unknown>;
      expect(await status('offer-failed-expired')).toEqual({ status: 'failed', failure_kind: 'expired', withdrawn_reason: null });
      expect(await status('offer-failed-withdrawn')).toEqual({ status: 'failed', failure_kind: 'withdrawn', withdrawn_reason: 'insufficient funds' });
    } finally {
      await node.close();
    }
  });
});
