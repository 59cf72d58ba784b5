// What a certification counts: a node that refuses one operation's valid requests is not conformant, and the
// failure names the operation; a run that cannot confirm an operation is incomplete under --certify, with the
// operation listed by name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));

/** `run` against `node`'s ledger, as a vendor gives it: the URL and the admin token, nothing else. */
function ledgerRun(node: RunningReferenceNode, ...args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'cn-certify-'));
  const run = cliInProcess(['run', '--ledger-url', node.urls.ledger, '--report-dir', dir, '--no-allure', '--runs', '2', ...args], {
    CN_CONFORMANCE_LEDGER_TOKEN: node.credentials.ledgerAdminToken,
  });
  return run.then((o) => ({ ...o, report: readReport(dir) }));
}

describe('a node that refuses every valid event lookup by contract id', () => {
  let node: RunningReferenceNode;
  beforeAll(async () => {
    node = await startReferenceNode({ faults: ['ledger-refuses-get-events-by-contract-id'] });
  });
  afterAll(async () => node?.close());

  it('is not conformant (exit 1), and the failure names the operation with the curl line of the refused request', async () => {
    const { code, stdout, report } = await ledgerRun(node, '--only', 'LEDGER-EVENTS-*,LEDGER-VERSION-*', '--certify');
    expect(code).toBe(1);
    expect(report.verdict).toBe('not-conformant');
    const failed = report.requirements.filter((r: { status: string }) => r.status === 'failed');
    expect(failed.map((r: { id: string }) => r.id)).toEqual(['LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED']);
    expect(failed[0].reason).toMatch(/getEventsByContractId \(POST \/v2\/events\/events-by-contract-id\) refused a valid request/);
    expect(failed[0].evidence.exchange.curl).toMatch(/^curl .*\/v2\/events\/events-by-contract-id/);
    expect(stdout).toMatch(/FAIL LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED \[MUST\] getEventsByContractId/);
    const row = report.coverage.find((c: { operationId: string }) => c.operationId === 'getEventsByContractId');
    expect({ positive: row.positive, confirmed: row.confirmed }).toEqual({ positive: 'failed', confirmed: false });
  });
});

describe('a certification run of a clean ledger', () => {
  let node: RunningReferenceNode;
  beforeAll(async () => {
    node = await startReferenceNode({});
  });
  afterAll(async () => node?.close());

  it('without --allow-mutations is incomplete (exit 4): the operations that change the target are not confirmed, each listed by name', async () => {
    const { code, stdout, report } = await ledgerRun(node, '--certify');
    expect(code).toBe(4);
    expect(report.verdict).toBe('incomplete');
    const ops = report.judgement.operations;
    expect(ops.total).toBe(19);
    const unconfirmed = ops.unconfirmed.map((u: { operation: string }) => u.operation.split(' ')[1]);
    expect(unconfirmed).toContain('submitAndWait');
    expect(unconfirmed).toContain('postPackageVetting');
    // The reads are judged and confirmed without mutations.
    expect(unconfirmed).not.toContain('getEventsByContractId');
    expect(unconfirmed).not.toContain('getPackage');
    expect(ops.confirmed + ops.unconfirmed.length).toBe(19);
    for (const u of ops.unconfirmed) expect(u.why).toMatch(/skipped: changes the target/);
    expect(report.judgement.reasons.join('\n')).toMatch(new RegExp(`${ops.unconfirmed.length} of 19 operations not confirmed`));
    expect(stdout).toMatch(new RegExp(`operations confirmed: ${ops.confirmed} of 19`));
    expect(stdout).toMatch(/Operations not confirmed \(\d+; a certification needs every one\):\n {2}ledger submitAndWait/);
  });

  it('with --allow-mutations (and a command the run may submit) confirms every ledger operation and is conformant', async () => {
    // The admin token alone acts as no party: the node's fixture file names the limited user and its command.
    const config = join(mkdtempSync(join(tmpdir(), 'cn-certify-')), 'config.json');
    writeFileSync(config, JSON.stringify({ fixtures: referenceFixtures(node) }));
    const { code, report } = await ledgerRun(node, '--certify', '--allow-mutations', '--config', config, '--only', 'LEDGER-*,GENERIC-LEDGER-*');
    expect(report.judgement.operations).toEqual({ confirmed: 19, total: 19, unconfirmed: [] });
    expect(report.verdict).toBe('conformant');
    expect(code).toBe(0);
  });
});
