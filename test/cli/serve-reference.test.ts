import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureProblems } from '../../engine/fixture-validation.ts';
import { FIXTURE_HELP } from '../../engine/fixtures.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/cn-conformance.js');

/** Starts the command, collects stdout until `until` appears (or the process ends; a hang shows its output within the test's budget). */
function start(args: string[], until: RegExp) {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out; stdout: ${out} stderr: ${err}`)), 100_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (until.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited, stderr: () => err };
}

/** A refusal as the command line makes it (same parse, call and exit code), in this process: exit 2, one line, nothing printed. */
async function expectRefusal(args: string[], message: string): Promise<void> {
  const o = await cliInProcess(['serve-reference', ...args]);
  expect(o.code).toBe(2);
  expect(o.stderr).toBe(`cn-conformance: ${message}\n`);
  expect(o.stdout).toBe('');
}

describe('cn-conformance serve-reference', () => {
  it('prints the three base URLs and working credentials, and stops on SIGTERM', async () => {
    const p = start(['serve-reference', '--port', '0', '--seed', '3'], /Press Ctrl\+C/);
    const out = await p.ready;
    const url = (name: string) => new RegExp(`^\\s+${name}\\s+(http://\\S+)$`, 'm').exec(out)?.[1];
    expect(url('ledger')).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url('validator')).toBe(`${url('ledger')}/api/validator`);
    expect(url('scan')).toBe(`${url('ledger')}/api/scan`);
    expect(out).toMatch(/^releases: scan \d+\.\d+\.\d+, ledger 3\.5$/m);
    const aliceToken = /wallet user alice-wallet \(party [^)]+\)\s+Authorization: Bearer (\S+)/.exec(out)?.[1];
    expect(aliceToken).toBeDefined();
    const dso = await fetch(`${url('validator')}/v0/scan-proxy/dso-party-id`);
    expect(dso.status).toBe(200);
    const offer = await fetch(`${url('validator')}/v0/wallet/transfer-offers/offer-created-1/status`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(offer.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('--fixtures-out writes the fixture file run --config takes; the banner prints a ready-to-paste run line with the tokens as variables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-serve-'));
    const file = join(dir, 'fixtures.json');
    const p = start(['serve-reference', '--port', '0', '--fixtures-out', file], /Press Ctrl\+C/);
    const out = await p.ready;
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(fixtureProblems(written.fixtures)).toEqual([]);
    expect(Object.keys(written.fixtures).sort()).toEqual(Object.keys(FIXTURE_HELP).sort());
    const ledger = /^\s+ledger\s+(http:\/\/\S+)$/m.exec(out)![1]!;
    const admin = /ledger admin .*Bearer (\S+)/.exec(out)![1]!;
    const line = /^ {2}(CN_CONFORMANCE_LEDGER_TOKEN=\S+ CN_CONFORMANCE_WALLET_TOKEN=\S+ npm run conformance -- .*)$/m.exec(out)?.[1];
    expect(line).toBe(
      `CN_CONFORMANCE_LEDGER_TOKEN=${admin} CN_CONFORMANCE_WALLET_TOKEN=${/wallet user alice-wallet .*Bearer (\S+)/.exec(out)![1]} npm run conformance -- --ledger-url ${ledger} --wallet-url ${ledger}/api/validator --scan-url ${ledger}/api/scan --allow-mutations`,
    );
    expect(out).toContain(`--config ${file}`);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('refuses a --fixtures-out it cannot write with exit 2 and a one-line reason', async () => {
    const o = await cliInProcess(['serve-reference', '--port', '0', '--fixtures-out', '/no/such/dir/f.json']);
    expect(o.code).toBe(2);
    expect(o.stderr.trim()).toMatch(/^cn-conformance: cannot write --fixtures-out \/no\/such\/dir\/f\.json: ENOENT[^\n]*$/);
  });

  it('lists the fault catalog, one fault per line with the rule it breaks, the blind faults with their round', async () => {
    const o = await cliInProcess(['serve-reference', '--list-faults']);
    expect(o.code).toBe(0);
    const lines = o.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(30);
    for (const l of lines) expect(l).toMatch(/^(blind-r\d+-)?(ledger|wallet|scan)-[a-z0-9-]+\s+\[(ledger|wallet|scan)\/[^\]]+\] \S/);
    expect(lines.filter((l) => / \[\w+\/blind round 1\] /.test(l)).length).toBeGreaterThanOrEqual(40);
  });

  // The process itself: what a user's shell sees (the exit status, one line on stderr, no stack trace).
  it('refuses --port 99999 as a process: exit status 2 and one line on stderr, no stack trace', async () => {
    const p = start(['serve-reference', '--port', '99999'], /$^/);
    await p.ready;
    expect(await p.exited).toBe(2);
    expect(p.stderr()).toBe('cn-conformance: --port must be an integer from 0 to 65535, got "99999"\n');
  });

  it.each(['99999', '-1', '80x'])('refuses --port %s with exit 2 and a one-line reason', async (port) => {
    await expectRefusal(['--port', port], `--port must be an integer from 0 to 65535, got "${port}"`);
  });

  it('--scan-release and --ledger-release: the banner names the releases played, the node serves them', async () => {
    const p = start(['serve-reference', '--port', '0', '--scan-release', '0.5.13', '--ledger-release', '3.4'], /Press Ctrl\+C/);
    const out = await p.ready;
    expect(out).toMatch(/^releases: scan 0\.5\.13, ledger 3\.4$/m);
    const scan = /^\s+scan\s+(http:\/\/\S+)$/m.exec(out)![1]!;
    expect(((await (await fetch(`${scan}/version`)).json()) as { version: string }).version).toBe('0.5.13');
    expect((await fetch(`${scan}/v1/holdings/state`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(404);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it.each([
    [['--scan-release', '0.5'], '--scan-release must be a Splice release x.y.z (digits, e.g. 0.7.5), got "0.5"'],
    [['--ledger-release', '3.3'], '--ledger-release must be a ledger release line 3.4 or 3.5 (or 3.4.x, 3.5.x), got "3.3"'],
  ])('refuses %j with exit 2 and a one-line reason', async (flag, message) => {
    await expectRefusal(['--port', '0', ...flag], message);
  });

  it('refuses an unknown fault with exit 2 and a one-line reason', async () => {
    await expectRefusal(['--fault', 'no-such-fault'], 'unknown fault(s): no-such-fault (see --list-faults)');
  });
});
