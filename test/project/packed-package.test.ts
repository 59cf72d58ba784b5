// The package works as installed: the tarball `npm pack` makes (its prepack compiles dist/), installed into
// an empty folder outside the checkout, answers `--version` and runs against its embedded reference node
// as a user starts it, reading its own documents; and it holds what a user needs, not the development's.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { packAndInstall, type PackedInstall } from '../../bench/packed-install.ts';

const root = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const inside = (dir: string, file: string) => !relative(dir, file).startsWith('..');

let installed: PackedInstall;

beforeAll(async () => {
  installed = await packAndInstall(mkdtempSync(join(tmpdir(), 'cn-packed-')));
});

/** A user's shell: the installed command, started from the folder it is installed in, with none of the test runner's variables. */
function user(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|npm_|NODE_OPTIONS$)/i.test(k)));
  return new Promise((done) => {
    execFile(installed.bin, args, { cwd: installed.prefix, env, timeout: 100_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the packed package', () => {
  it('holds the compiled command, its documents and its user docs, and no source, test, benchmark or development script', () => {
    const files = installed.files;
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli/main.js',
      'dist/reporting/allure/vitest.config.js',
      'dist/reporting/allure/requirements.allure.js',
      'dist/engine/fixtures.schema.json',
      'specs/ledger-api.yaml',
      'specs/wallet-api.yaml',
      'specs/scan-api.yaml',
      'specs/ledger-channels.yaml',
      'reporting/report.schema.json',
      'traceability/proof.json',
    ])
      expect(files).toContain(needed);
    expect(files.filter((f) => f.endsWith('.ts') || /^(test|bench|scripts|detection|cli|engine|requirements|reference-node)\//.test(f))).toEqual([]);
    // Only the detection module the requirements document reads, none of the detection runs.
    expect(files.filter((f) => f.startsWith('dist/detection/'))).toEqual(['dist/detection/expectations.js']);
  });

  it('is installed outside the checkout, its command linked to the compiled entry', () => {
    expect(inside(root, installed.prefix)).toBe(false);
    expect(realpathSync(installed.bin)).toBe(join(realpathSync(installed.prefix), 'node_modules/cn-conformance/dist/cli/main.js'));
  });

  it('--version prints the version of package.json and exits 0', async () => {
    const r = await user(['--version']);
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  // A process of its own that must end once the run is over: the node it embeds, its HTTP connections and the
  // ledger's WebSocket channels leave nothing open (the suite's other runs are in-process).
  it('runs a requirement of each interface and of the channels against its embedded reference node, from its own documents, ends, and writes only the reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-packed-run-'));
    const only = ['LEDGER-VERSION-STATED', 'LEDGER-WEBSOCKET-SAME-AS-HTTP', 'WALLET-DSO-PARTY-ID-IS-SCANS', 'SCAN-HOLDINGS-REQUEST-ECHOED'];
    const installedFiles = () => readdirSync(join(installed.prefix, 'node_modules'), { recursive: true }).sort();
    const before = installedFiles();
    const r = await user(['run', '--only', only.join(','), '--report-dir', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+CONFORMANT: 4 of 4 selected requirements judged \(4 passed, 0 failed\)$/m);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      tool: { version: string };
      verdict: string;
      specs: Array<{ name: string; source: string }>;
      requirements: Array<{ id: string; interface: string; status: string }>;
    };
    expect(report.tool.version).toBe(pkg.version);
    expect(report.verdict).toBe('conformant');
    expect(report.requirements.map((x) => [x.id, x.interface, x.status])).toEqual([
      ['LEDGER-VERSION-STATED', 'ledger', 'passed'],
      ['LEDGER-WEBSOCKET-SAME-AS-HTTP', 'ledger', 'passed'],
      ['WALLET-DSO-PARTY-ID-IS-SCANS', 'wallet', 'passed'],
      ['SCAN-HOLDINGS-REQUEST-ECHOED', 'scan', 'passed'],
    ]);
    const own = join(realpathSync(installed.prefix), 'node_modules/cn-conformance/specs');
    expect(report.specs.map((s) => [s.name, realpathSync(s.source)])).toEqual(
      [
        ['ledger', 'ledger-api.yaml'],
        ['ledger-channels', 'ledger-channels.yaml'],
        ['wallet', 'wallet-api.yaml'],
        ['scan', 'scan-api.yaml'],
      ].map(([name, file]) => [name, join(own, file!)]),
    );
    // The Allure replay runs the compiled vitest configuration in a child of its own.
    expect(readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json'))).toHaveLength(4);
    // Nothing written beside the installed package (vitest's caches, a bundled configuration): a global install may be read-only.
    expect(installedFiles()).toEqual(before);
  });
});
