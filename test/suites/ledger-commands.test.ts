// The command requirements against nodes that behave in ways the reference node does not: a conformant node may
// refuse a command that cannot succeed at once, or accept it and report its failure as a completion with a
// non-OK status; only an OK completion (or a transaction) of it breaks the rule. A small stub node answers what
// LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK asks, in each of those ways.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../runner/run-conformance.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { completedOk } from '../../interfaces/ledger/commands.ts';
import { LEDGER_REQUIREMENTS } from '../../requirements/ledger/index.ts';
import { DEFAULT_BOUNDS } from '../../engine/target.ts';
import { httpEvidence } from '../../engine/transport/evidence.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';
import { runAgainst } from '../support/suite-harness.ts';

const PARTY = 'alice::1220aa';
const CONTRACT = `00${'ab'.repeat(32)}`;
const SYNC = 'global::1220bb';

/** How the stub treats the async submission of the Archive of the archived contract. */
type Way = 'refused' | 'failed-completion' | 'ok-completion';

async function stubNode(way: Way) {
  let archiveAgain: string | undefined;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    const path = (req.url ?? '').split('?')[0];
    if (path === '/v2/state/ledger-end') return json(res, 200, { offset: 10 });
    if (path === '/v2/commands/submit-and-wait-for-transaction') {
      const events = [
        { CreatedEvent: { offset: 10, nodeId: 0, contractId: CONTRACT, templateId: 'p:M:T', witnessParties: [PARTY], signatories: [PARTY] } },
        { ExercisedEvent: { offset: 10, nodeId: 1, contractId: CONTRACT, templateId: 'p:M:T', choice: 'Archive', consuming: true, actingParties: [PARTY] } },
      ];
      const transaction = { updateId: '1220cc', commandId: body.commands.commandId, offset: 10, synchronizerId: SYNC, events };
      return json(res, 200, { transaction });
    }
    if (path === '/v2/commands/async/submit') {
      archiveAgain = body.commandId;
      if (way === 'refused')
        return json(res, 404, { code: 'CONTRACT_NOT_FOUND', cause: `Contract could not be found: ${CONTRACT}`, context: {}, errorCategory: 11 });
      return json(res, 200, {});
    }
    if (path === '/v2/commands/completions') {
      const failed = { code: 5, message: `CONTRACT_NOT_FOUND(11,0): Contract could not be found: ${CONTRACT}` };
      const value = {
        commandId: archiveAgain,
        userId: 'alice',
        actAs: [PARTY],
        offset: 11,
        synchronizerTime: { synchronizerId: SYNC, recordTime: '2025-01-01T00:00:00.000000Z' },
        ...(way === 'ok-completion' ? { status: { code: 0, message: '' }, updateId: '1220dd' } : { status: failed }),
      };
      return json(res, 200, archiveAgain && body.beginExclusive < 11 ? [{ completionResponse: { Completion: { value } } }] : []);
    }
    if (path === '/v2/updates') return json(res, 200, []);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('The requested resource could not be found.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function judge(way: Way) {
  const node = await stubNode(way);
  close = node.close;
  const rule = LEDGER_REQUIREMENTS.filter((r) => r.id === 'LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK');
  const target = {
    ...DEFAULT_BOUNDS,
    ledger: { url: node.url, credentials: { bearer: 'stub-token' } },
    fixtures: { ledgerCommands: { actAs: [PARTY], commands: [{ CreateCommand: { templateId: 'p:M:T', createArguments: { owner: PARTY } } }] } },
    allowMutations: true,
  };
  const { requirements } = await runConformance({ target, documents: await builtinDocumentsOnce(), requirements: rule, preflight: false });
  return requirements[0]!;
}

describe('LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK: a command that cannot succeed', () => {
  it('refused at once with an error: passes', async () => {
    expect((await judge('refused')).status).toBe('passed');
  });

  it('accepted, and its completion carries a non-OK status and no update: passes', async () => {
    const r = await judge('failed-completion');
    expect([r.status, r.reason]).toEqual(['passed', undefined]);
  });

  it('accepted, and its completion says it succeeded: fails, with the completion as evidence', async () => {
    const r = await judge('ok-completion');
    expect(r.status).toBe('failed');
    expect(r.reason).toMatch(/cannot have succeeded/);
    expect(httpEvidence(r.evidence?.exchange)?.curl).toMatch(/\/v2\/commands\/completions/);
  });
});

describe('what an OK completion is (the official documents leave status, and a zero code, optional)', () => {
  it('status code 0, a status without a code, or no status on a completion naming its update', () => {
    expect(completedOk({ status: { code: 0, message: '' }, updateId: 'u' })).toBe(true);
    expect(completedOk({ status: {}, updateId: 'u' })).toBe(true);
    expect(completedOk({ updateId: 'u' })).toBe(true);
    expect(completedOk({ status: { code: 5, message: 'NOT_FOUND' } })).toBe(false);
    expect(completedOk({})).toBe(false);
  });
});

describe('the reassignment checks on a participant that does not vet the template on the other synchronizer', () => {
  it('are skipped, naming the synchronizer, instead of failing on the refusal a correct node gives', async () => {
    const node = await startReferenceNode({});
    close = () => node.close();
    const [, other] = node.context.world.synchronizers.map((s) => s.id);
    // The amulet package unvetted on the second synchronizer (wallet depends on it: allowed by the force flag).
    const res = await fetch(`${node.urls.ledger}/v2/package-vetting`, {
      method: 'POST',
      headers: { authorization: `Bearer ${node.credentials.ledgerAdminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        changes: [{ operation: { Unvet: { value: { packages: [{ packageId: node.context.world.amuletPackage }] } } } }],
        synchronizerId: other,
        updateVettedPackagesForceFlags: ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'],
      }),
    });
    expect(res.status).toBe(200);
    const rules = LEDGER_REQUIREMENTS.filter((r) => r.id.endsWith('-REASSIGNMENT-MOVES'));
    const results = await runAgainst(node, rules, { allowMutations: true });
    for (const r of results) {
      expect(r.status, r.id).toBe('skipped');
      expect(r.reason, r.id).toContain(`not on ${other}`);
    }
  });
});
