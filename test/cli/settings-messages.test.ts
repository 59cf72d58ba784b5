// What a user's own setting gets wrong is said as a usage error naming the setting where it came from (exit 2,
// nothing judged); a request the suite itself could not send is never the node's failure.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendable, secretWithSource } from '../../cli/secrets.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { SourceReader } from '../../engine/discovery/reader.ts';
import { Client, RequestNotSent } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { LEDGER_REQUIREMENTS } from '../../requirements/ledger/index.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { runAgainst } from '../support/suite-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'cn-settings-'));
let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode();
});
afterAll(async () => node?.close());

const TOKEN_VARIABLES = { CN_CONFORMANCE_LEDGER_TOKEN: undefined, CN_CONFORMANCE_WALLET_TOKEN: undefined, CN_CONFORMANCE_LEDGER_API_KEY: undefined };
const run = (args: string[], env: Record<string, string | undefined> = {}) =>
  cliInProcess(['run', '--report-dir', join(dir, 'report'), '--no-allure', ...args], { ...TOKEN_VARIABLES, ...env });

describe('a credential that cannot be sent in a header', () => {
  it('is refused before any request, naming where it came from and where the line break is, never the value', async () => {
    const token = node.credentials.ledgerAdminToken;
    const file = join(dir, 'two-lines');
    writeFileSync(file, `${token.slice(0, 40)}\n${token.slice(40)}\n`);
    const fromFile = await run(['--ledger-url', node.urls.ledger, '--ledger-token-file', file]);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain(`--ledger-token-file ${file} cannot be sent in an HTTP header: it has a line break after character 40`);
    const fromEnv = await run(['--ledger-url', node.urls.ledger], { CN_CONFORMANCE_LEDGER_TOKEN: `${token.slice(0, 10)}\r\n${token.slice(10)}` });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('CN_CONFORMANCE_LEDGER_TOKEN (environment) cannot be sent');
    for (const o of [fromFile, fromEnv]) expect(o.stdout + o.stderr).not.toContain(token.slice(0, 40));
  });

  it('given to compare is refused the same way, naming the node it was for', async () => {
    const o = await cliInProcess([
      'compare',
      '--ledger-url',
      node.urls.ledger,
      '--ledger-url',
      node.urls.ledger,
      '--ledger-token',
      'one',
      '--ledger-token',
      'two\nlines',
      '--report-dir',
      join(dir, 'compare'),
    ]);
    expect(o.code).toBe(2);
    expect(o.stderr).toContain('the credential from --ledger-token (B) cannot be sent in an HTTP header: it has a line break after character 3');
  });

  it('is told apart from a usable one by its characters only', () => {
    expect(sendable({ value: 'eyJ.abc-_=.x', from: 'f' }).value).toBe('eyJ.abc-_=.x');
    expect(() => sendable({ value: 'a\u0000b', from: 'f' })).toThrow(/control character U\+0000 at character 2/);
    expect(() => sendable({ value: 'a\u2028b', from: 'f' })).toThrow(/non-Latin-1 character U\+2028/);
    expect(() => secretWithSource({ value: 'a\nb', name: '--ledger-token' }, undefined, 'X', {})).toThrow(/from --ledger-token cannot be sent/);
  });

  it('sent all the same (a suite bug) ends the requirements as errors, never as the node failing', async () => {
    const ids = new Set(['LEDGER-VERSION-STATED', 'LEDGER-UPDATES-ASCENDING']);
    const picked = LEDGER_REQUIREMENTS.filter((r) => ids.has(r.id));
    expect(picked.length).toBeGreaterThan(0);
    const results = await runAgainst(node, picked, { ledger: { url: node.urls.ledger, credentials: { bearer: 'two\nlines' } } });
    expect(results.map((r) => r.status)).toEqual(picked.map(() => 'error'));
    expect(results[0]!.reason).toMatch(/could not send/);
  });

  it('leaves a discovery source with "not sent", not "no answer"', async () => {
    const client = new Client({
      origin: node.urls.ledger,
      prefix: '',
      credentials: { bearer: 'two\nlines' },
      timeoutMs: 5000,
      maxBodyBytes: 1 << 20,
      limits: new RunLimits({ maxRequests: 10 }),
    });
    await expect(client.get('/v2/version')).rejects.toBeInstanceOf(RequestNotSent);
    const reader = new SourceReader(client, { pages: 5, ms: 5000 });
    expect(await reader.json('GET', '/v2/version')).toBeUndefined();
    expect(reader.shortfall).toMatchObject({ kind: 'not sent', detail: expect.stringMatching(/could not send GET \/v2\/version/) });
  });
});

describe('where a setting came from', () => {
  it('a refused token from the environment names the environment variable', async () => {
    const o = await run(['--ledger-url', node.urls.ledger], { CN_CONFORMANCE_LEDGER_TOKEN: 'badtoken' });
    expect(o.code).toBe(2);
    expect(o.stderr).toMatch(/the ledger token was refused \(401\) .*: check CN_CONFORMANCE_LEDGER_TOKEN \(environment\)/);
  });
});

describe('--spec names an interface', () => {
  it('a typo of an interface name is exit 2 with the name meant, before anything is judged', async () => {
    const o = await run(['--spec', 'scna=./specs/scan-api.yaml']);
    expect(o.code).toBe(2);
    expect(o.stderr).toContain('"scna" is not an interface of this suite; did you mean scan?');
  });
});

describe('a waiver', () => {
  it('of no requirement of the catalog is exit 2 with the id meant; one of a requirement not selected is a note', async () => {
    const expires = '2999-12-31';
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify([{ id: 'LEDGER-VERSION-STATD', reason: 'known', expires }]));
    const o = await run(['--waivers', typo, '--only', 'LEDGER-VERSION-STATED']);
    expect(o.code).toBe(2);
    expect(o.stderr).toContain('waiver LEDGER-VERSION-STATD names no requirement of the catalog; did you mean LEDGER-VERSION-STATED?');
    const unselected = join(dir, 'unselected.json');
    writeFileSync(unselected, JSON.stringify([{ id: 'SCAN-ANS-URL', reason: 'known', expires }]));
    const ok = await run(['--waivers', unselected, '--only', 'LEDGER-VERSION-STATED']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('waiver for SCAN-ANS-URL unused: the requirement was not selected in this run');
  });
});
