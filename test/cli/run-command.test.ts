import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/cn-conformance.js');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: root, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('cn-conformance run', () => {
  it('checks the documents, sweeps the embedded reference node, writes its result and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-run-'));
    const { code, stdout } = await cli('run', '--report-dir', dir, '--samples', '3');
    expect(stdout).toMatch(/ledger\s+OpenAPI 3\.0\.3\s+19 operations/);
    expect(stdout).toMatch(/wallet\s+OpenAPI 3\.0\.3\s+3 operations/);
    expect(stdout).toMatch(/scan\s+OpenAPI 3\.0\.3\s+20 operations/);
    expect(stdout).toContain('target embedded reference node');
    const written = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    expect(written.specChecks.map((r: { name: string }) => r.name)).toEqual(['ledger', 'wallet', 'scan']);
    for (const r of written.specChecks) {
      expect(r.failures).toEqual([]);
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    const ops = written.operations as Array<{ operationId: string; status: string; reason?: string; problems: unknown[] }>;
    expect(ops.length).toBe(42);
    expect(ops.filter((o) => o.status === 'failed').map((o) => [o.operationId, o.problems[0]])).toEqual([]);
    // Read-only by default: only the operations that change the target are skipped, each with its reason.
    const skipped = ops.filter((o) => o.status === 'skipped');
    expect(skipped.length).toBe(11);
    for (const o of skipped) expect(o.reason).toContain('mutations allowed');
    expect(code).toBe(0);
  });

  it('exits 2 naming the file and pointer when a --spec document is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cn-run-'));
    const { code, stdout } = await cli('run', '--report-dir', dir, '--samples', '1', '--spec', 'scan=test/fixtures/broken/not-openapi.yaml');
    expect(code).toBe(2);
    expect(stdout).toMatch(/scan\s+UNUSABLE\s+.*not-openapi\.yaml at #\/paths\/~1a\/get\/responses\/200/);
  });

  it('exits 2 with a one-line reason for a malformed --spec', async () => {
    const { code, stderr } = await cli('run', '--spec', 'nonsense');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('cn-conformance: --spec expects NAME=PATH (e.g. scan=./scan.yaml), got "nonsense"');
  });

  it('lists the operation catalog, including a user document', async () => {
    const { code, stdout } = await cli('catalog', '--json', '--spec', 'tree=test/fixtures/multi-file/api.yaml');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ spec: string; id: string; auth: string }>;
    expect(rows.length).toBe(44);
    expect(rows.find((r) => r.id === 'getUpdates')!.auth).toBe('httpAuth | apiKeyAuth');
    expect(rows.find((r) => r.id === 'getDsoPartyId')!.auth).toBe('none');
    expect(rows.filter((r) => r.spec === 'tree').map((r) => r.id).sort()).toEqual(['getTree', 'plantForest']);
  });
});
