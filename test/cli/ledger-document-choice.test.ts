// The ledger document is the user's choice (clients may stay on 3.4: X.versioning.1): a document given with
// --spec judges the answers, and the report says which document and which release of the node judged each
// interface, with a warning when a ledger document's release line is not the node's.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_SPECS } from '../../generators/index.ts';
import type { ConformanceReport } from '../../reporting/model.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

/** The built-in ledger document, stated to be of release 3.4 (as the official 3.4 document's info.version is). */
function ledgerDocumentOf(release: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cn-ledger-doc-'));
  const file = join(dir, `ledger-${release}.yaml`);
  const text = readFileSync(BUILTIN_SPECS.ledger, 'utf8').replace(/^( {2}version:) .*$/m, `$1 ${release}`);
  expect(text).toContain(`version: ${release}`);
  writeFileSync(file, text);
  return file;
}

async function run(args: string[]): Promise<{ stdout: string; report: ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'cn-doc-run-'));
  const { stdout } = await cliInProcess(['run', '--only', 'LEDGER-VERSION-STATED', '--no-discovery', '--report-dir', dir, '--no-allure', ...args]);
  return { stdout, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ConformanceReport };
}

describe('the ledger document a user chooses', () => {
  it('is named in the report with its release, beside the release the node states', async () => {
    const builtin = await run([]);
    expect(builtin.report.judgedBy?.find((j) => j.interface === 'ledger')).toEqual({
      interface: 'ledger',
      document: 'the built-in ledger document',
      documentRelease: '3.5',
      nodeRelease: expect.stringMatching(/^3\.5\./),
    });
    expect(builtin.stdout).not.toContain('warning: the ledger document');

    const file = ledgerDocumentOf('3.4.0-SNAPSHOT');
    const chosen = await run(['--spec', `ledger=${file}`]);
    expect(chosen.report.specs.find((s) => s.name === 'ledger')).toMatchObject({ source: file, documentVersion: '3.4.0-SNAPSHOT' });
    const ledger = chosen.report.judgedBy?.find((j) => j.interface === 'ledger');
    expect(ledger).toMatchObject({ document: file, documentRelease: '3.4.0-SNAPSHOT', nodeRelease: expect.stringMatching(/^3\.5\./) });
    expect(ledger?.warning).toMatch(
      /^the ledger document is of release line 3\.4 \(3\.4\.0-SNAPSHOT\) and the node states 3\.5\.\d+: its answers were judged by the document chosen$/,
    );
    expect(chosen.stdout).toContain(`warning: ${ledger!.warning}`);
  });

  it('meets a node of its own line without a warning', async () => {
    const file = ledgerDocumentOf('3.4.0-SNAPSHOT');
    const { report } = await run(['--spec', `ledger=${file}`, '--reference-ledger-release', '3.4']);
    const ledger = report.judgedBy?.find((j) => j.interface === 'ledger');
    expect(ledger).toMatchObject({ documentRelease: '3.4.0-SNAPSHOT', nodeRelease: expect.stringMatching(/^3\.4\./) });
    expect(ledger?.warning).toBeUndefined();
  });
});
