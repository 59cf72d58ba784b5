// `npm test` leaves nothing in the system's temp directory: the global setup (test/support/temp-root.ts)
// points TMPDIR at one folder of the run and removes it at the end, so the report dirs, token files and
// CLI processes of every test live and die there.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('temporary files of the test run', () => {
  it('go to one folder of the run, which child processes inherit', () => {
    expect(basename(tmpdir())).toMatch(/^cn-conformance-tests-/);
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
    expect(child.stdout).toBe(tmpdir());
    expect(dirname(tmpdir())).not.toBe(tmpdir());
  });
});
