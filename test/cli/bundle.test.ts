// `run --bundle FILE`: the report files, the HAR file, the documents and a manifest with their sha256 in one
// .tar.gz that standard tar reads; `verify-bundle` finds it intact (exit 0), finds one changed byte of a
// member (exit 1) and refuses what is no bundle (exit 2).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTar, tarStream } from '../../common/tar.ts';
import { Client } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { readNodeVersions } from '../../runner/node-versions.ts';
import { maskedCommandLine } from '../../cli/secrets.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const SECRET = 'argv-secret-token-0123456789';

/** Every member's name, data offset and size in an uncompressed ustar archive. */
function members(tar: Buffer): Array<{ name: string; at: number; size: number }> {
  const out = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const header = tar.subarray(at, at + 512);
    const text = (from: number, width: number) =>
      header
        .subarray(from, from + width)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(text(124, 12), 8);
    out.push({ name: [text(345, 155), text(0, 100)].filter(Boolean).join('/'), at: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** The bundle with one byte of `member`'s data changed. */
function tampered(bundle: string, member: string, dir: string): string {
  const tar = gunzipSync(readFileSync(bundle));
  const m = members(tar).find((x) => x.name === member)!;
  const at = m.at + Math.floor(m.size / 2);
  tar[at] = tar[at]! ^ 0x01;
  const file = join(dir, `tampered-${member.replace(/\W/g, '_')}.tar.gz`);
  writeFileSync(file, gzipSync(tar));
  return file;
}

describe('cn-conformance run --certify --bundle', () => {
  let dir: string;
  let bundle: string;
  let run: Awaited<ReturnType<typeof cliInProcess>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cn-bundle-'));
    bundle = join(dir, 'certification.tar.gz');
    run = await cliInProcess([
      'run',
      '--certify',
      '--report-dir',
      join(dir, 'report'),
      '--no-allure',
      '--only',
      'SCAN-ANS-*,LEDGER-VERSION-*',
      '--runs',
      '2',
      '--ledger-token',
      SECRET,
      '--bundle',
      bundle,
    ]);
  });

  it('packs the reports, the HAR file, the documents and a manifest that standard tar reads', () => {
    // Certification of a selection: incomplete (exit 4), and bundled all the same.
    expect(run.code, run.stderr).toBe(4);
    expect(run.stdout).toMatch(/Bundle: .*certification\.tar\.gz \(10 files; manifest\.json sha256 [0-9a-f]{64}/);
    const listed = execFileSync('tar', ['-tzf', bundle], { encoding: 'utf8' }).trim().split('\n');
    expect(listed).toEqual([
      'report.json',
      'junit.xml',
      'report.html',
      'coverage.md',
      'exchanges.har',
      'documents/ledger/ledger-api.yaml',
      'documents/ledger-channels/ledger-channels.yaml',
      'documents/wallet/wallet-api.yaml',
      'documents/scan/scan-api.yaml',
      'manifest.json',
    ]);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', bundle, 'manifest.json'], { encoding: 'utf8' }));
    const report = JSON.parse(readFileSync(join(dir, 'report', 'report.json'), 'utf8'));
    expect(manifest.tool).toEqual({ name: 'cn-conformance', version: pkg.version });
    expect(manifest.run).toMatchObject({ verdict: 'incomplete', mode: 'certify', exitCode: 4, requestsSent: report.requestsSent });
    expect(manifest.commandLine).toContain("--ledger-token '***' --bundle");
    expect(JSON.stringify(manifest)).not.toContain(SECRET);
    // Each file's checksum is that of the file written beside the report, and each document's that of the report.
    for (const f of manifest.files.filter((x: { name: string }) => !x.name.startsWith('documents/'))) {
      const bytes = readFileSync(join(dir, 'report', f.name));
      expect(f.bytes).toBe(bytes.length);
      expect(f.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    for (const d of manifest.documents) {
      expect(d.sha256).toBe(report.specs.find((s: { name: string }) => s.name === d.name).sha256);
      expect(manifest.files.find((f: { name: string }) => f.name === d.member).sha256).toBe(d.sha256);
    }
    // What the node said of its version: each states one (the ledger's line, the Splice release of the scan and the validator).
    expect(
      manifest.nodeVersions.map((v: { interface: string; request: string; status: number }) => [v.interface, v.request.replace(/:\d+/, ':PORT'), v.status]),
    ).toEqual([
      ['ledger', 'GET http://127.0.0.1:PORT/v2/version', 200],
      ['scan', 'GET http://127.0.0.1:PORT/api/scan/version', 200],
      ['wallet', 'GET http://127.0.0.1:PORT/api/validator/version', 200],
    ]);
    for (const v of manifest.nodeVersions) expect(JSON.parse(v.body).version).toMatch(/^\d+\.\d+/);
    expect(report.releases.map((r: { interface: string; version?: string }) => `${r.interface} ${r.version}`)).toEqual(
      manifest.nodeVersions.map((v: { interface: string; body: string }) => `${v.interface} ${JSON.parse(v.body).version}`),
    );
    expect(manifest.har.entries).toBe(report.requestsSent);
  });

  it('verifies as intact', async () => {
    const { code, stdout } = await cliInProcess(['verify-bundle', bundle]);
    expect(stdout).toMatch(/^intact: .*: all 9 files match the manifest; manifest\.json sha256 [0-9a-f]{64}$/m);
    expect(code).toBe(0);
  });

  it('is not intact (exit 1) once one byte of a member changed, and names the member', async () => {
    for (const member of ['report.json', 'exchanges.har', 'documents/scan/scan-api.yaml']) {
      const { code, stdout } = await cliInProcess(['verify-bundle', tampered(bundle, member, dir)]);
      expect(stdout).toMatch(/^NOT INTACT: .*: 1 problem;/m);
      expect(stdout).toContain(`  ${member}: sha256 `);
      expect(code).toBe(1);
    }
  });

  it('is not intact (exit 1) when a header was changed, a member added or one taken away', async () => {
    const tar = gunzipSync(readFileSync(bundle));
    const header = Buffer.from(tar);
    header[0] = 'R'.charCodeAt(0); // report.json -> Report.json, its header checksum no longer holds
    const renamed = join(dir, 'renamed.tar.gz');
    writeFileSync(renamed, gzipSync(header));
    const check = await cliInProcess(['verify-bundle', renamed]);
    expect(check.stdout).toMatch(/header of Report\.json fails its checksum/);
    expect(check.code).toBe(1);

    // Rebuilt by a tool that writes valid headers: one member left out, one added.
    const kept: Array<{ name: string; data: Buffer }> = [];
    for (const m of members(tar)) if (m.name !== 'junit.xml') kept.push({ name: m.name, data: tar.subarray(m.at, m.at + m.size) });
    kept.push({ name: 'extra.txt', data: Buffer.from('added later\n') });
    const chunks: Buffer[] = [];
    for await (const c of tarStream(kept.map((k) => ({ name: k.name, size: k.data.length, chunks: () => [k.data] })))) chunks.push(c);
    const rebuilt = join(dir, 'rebuilt.tar.gz');
    writeFileSync(rebuilt, gzipSync(Buffer.concat(chunks)));
    const { code, stdout } = await cliInProcess(['verify-bundle', rebuilt]);
    expect(stdout).toContain('  junit.xml: listed in the manifest but not in the bundle');
    expect(stdout).toContain('  extra.txt: in the bundle but not in the manifest');
    expect(code).toBe(1);
  });

  it('refuses what it cannot read as a bundle (exit 2): no such file, no gzip, no manifest', async () => {
    const notGzip = join(dir, 'plain.tar.gz');
    writeFileSync(notGzip, 'not a bundle');
    const noManifest = join(dir, 'no-manifest.tar.gz');
    const chunks: Buffer[] = [];
    for await (const c of tarStream([{ name: 'a.txt', size: 2, chunks: () => [Buffer.from('a\n')] }])) chunks.push(c);
    writeFileSync(noManifest, gzipSync(Buffer.concat(chunks)));
    for (const [file, message] of [
      [join(dir, 'missing.tar.gz'), /cannot read .*missing\.tar\.gz/],
      [notGzip, /is not a bundle: cannot decompress it/],
      [noManifest, /is not a bundle: it has no manifest\.json/],
    ] as const) {
      const { code, stderr } = await cliInProcess(['verify-bundle', file]);
      expect(stderr).toMatch(message);
      expect(code).toBe(2);
    }
    expect((await cliInProcess(['verify-bundle'])).code).toBe(2);
  });
});

describe('the outputs of --har and --bundle', () => {
  it('refuse a place the run cannot write to before any request (exit 2, naming the option)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-bundle-bad-'));
    const cases = [
      [['--bundle', join(dir, 'no-such-folder', 'b.tar.gz')], /^cn-conformance: --bundle .*: the folder .*no-such-folder does not exist$/m],
      [['--har', dir], /^cn-conformance: --har .* is a directory; give a file name$/m],
      [['--har', join(dir, 'report.json')], /^cn-conformance: --har .*report\.json is the name of a report file/m],
      [['--har', join(dir, 'x'), '--bundle', join(dir, 'x')], /^cn-conformance: --har and --bundle name the same file/m],
    ] as const;
    for (const [args, message] of cases) {
      const { code, stderr, stdout } = await cliInProcess(['run', '--report-dir', join(dir, 'r'), '--no-allure', ...args]);
      expect(stderr).toMatch(message);
      expect(stdout).not.toMatch(/Requirements \(/);
      expect(code).toBe(2);
    }
  });

  it('record the command line with every credential masked, in either spelling of an option', () => {
    const args = [
      'run',
      '--wallet-token=w-secret-value',
      '--ledger-api-key',
      'k-secret-value',
      '--scan-url',
      'https://user:pass-secret@scan.example/api/scan',
      '--only',
      'SCAN-*',
    ];
    const masked = maskedCommandLine(args, (t) => t.replaceAll('known-secret', '***'));
    expect(masked).toEqual(['run', '--wallet-token=***', '--ledger-api-key', '***', '--scan-url', 'https://***:***@scan.example/api/scan', '--only', 'SCAN-*']);
    expect(maskedCommandLine(['--spec', 'scan=https://h.example/s.yaml?token=known-secret'], (t) => t)).toEqual([
      '--spec',
      'scan=https://h.example/s.yaml?token=***',
    ]);
  });

  it('record a version endpoint that does not answer as unanswered', async () => {
    const client = new Client({
      origin: 'http://127.0.0.1:9',
      prefix: '/api/scan',
      credentials: {},
      timeoutMs: 2000,
      maxBodyBytes: 1024,
      limits: new RunLimits({ maxRequests: 0 }),
    });
    const [scan] = await readNodeVersions({ scan: client });
    expect(scan).toMatchObject({
      interface: 'scan',
      request: 'GET http://127.0.0.1:9/api/scan/version',
      answered: false,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(scan!.status).toBeUndefined();
  });

  it('read back what the tar writer wrote, a long name split into prefix and name', async () => {
    const name = `${'d'.repeat(120)}/${'f'.repeat(90)}.json`;
    const data = Buffer.from('{"x":1}\n');
    const chunks: Buffer[] = [];
    for await (const c of tarStream([{ name, size: data.length, chunks: () => [data] }])) chunks.push(c);
    const seen: Array<{ name: string; data: string }> = [];
    await readTar([Buffer.concat(chunks)], {
      member: (m) => {
        const parts: Buffer[] = [];
        return { data: (c) => parts.push(c), end: () => seen.push({ name: m.name, data: Buffer.concat(parts).toString() }) };
      },
    });
    expect(seen).toEqual([{ name, data: '{"x":1}\n' }]);
  });
});
