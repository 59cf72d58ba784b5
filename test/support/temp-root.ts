// Global setup of the test run: every temporary file of the run (tests' report dirs and token files, the
// CLI processes they start) goes under one folder that is removed when the run ends, so `npm test`
// leaves nothing behind in the system's temp directory, even when a test fails half-way.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'cn-conformance-tests-'));
  // Workers and the processes they spawn inherit the environment, and os.tmpdir() reads TMPDIR.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
