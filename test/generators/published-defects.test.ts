// Published documents carry defects with one obvious reading (the official scan document has a schema with
// `required: []`). Such a document is used, with each repair named as a warning; only a document that cannot
// be bundled at all is unusable.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadDocuments } from '../../runner/documents.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const defective = join(root, 'test/fixtures/published-defects/api.yaml');

describe('a document with a known defect', () => {
  it('loads, with the repair named by its pointer, and its examples left as they are', async () => {
    const { specs, checks } = await loadDocuments(new Map([['flags', defective]]));
    expect(checks[0]!.loadError).toBeUndefined();
    expect(checks[0]!.warnings).toEqual([
      expect.stringMatching(
        /^#\/paths\/~1v0~1flags\/get\/responses\/200\/content\/application~1json\/schema\/required: `required: \[\]` .*read as no required property$/,
      ),
    ]);
    // The example's own `required: []` is data, not a schema keyword: untouched, and valid.
    expect(checks[0]!.failures).toEqual([]);
    expect(checks[0]!.examplesChecked).toBe(1);
    const op = specs.flags!.catalog.byId.get('getFlags')!;
    expect(op.responses[0]!.content[0]!.examples[0]!.value).toEqual({ required: [], names: ['a'] });
  });

  it('is listed with its warning by the spec checks of a run, which goes on', async () => {
    // The built-in scan document with one schema given the defect: a run judges only the interfaces' names.
    const dir = mkdtempSync(join(tmpdir(), 'cn-published-defects-'));
    const scan = parse(readFileSync(join(root, 'specs/scan-api.yaml'), 'utf8')) as { components: { schemas: Record<string, { required?: string[] }> } };
    const [name, schema] = Object.entries(scan.components.schemas).find(([, s]) => !s.required && 'properties' in s)!;
    schema.required = [];
    const defectiveScan = join(dir, 'scan.yaml');
    writeFileSync(defectiveScan, stringify(scan));
    const o = await cliInProcess(['run', '--spec', `scan=${defectiveScan}`, '--only', 'SCAN-ANS-URL', '--report-dir', dir, '--no-allure']);
    expect(o.code).toBe(0);
    expect(o.stdout).toMatch(new RegExp(`^ {4}WARN #/components/schemas/${name}/required: \`required: \\[\\]\``, 'm'));
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { specs: Array<{ name: string; warnings?: string[] }> };
    expect(report.specs.find((x) => x.name === 'scan')?.warnings).toHaveLength(1);
    expect(report.specs.find((x) => x.name === 'ledger')).not.toHaveProperty('warnings');
    expect(o.stdout).not.toMatch(/UNUSABLE/);
  });
});
