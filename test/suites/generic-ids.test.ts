// Generic ids are named after the built-in documents: a swapped-in document whose operations carry other
// operationIds (an official document, a vendor's) gives the same ids for the same method and path, so
// waivers and `diff` keep working; an operation the built-in document does not have keeps its own name.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_SPECS } from '../../generators/index.ts';
import { builtinDocuments, loadDocuments } from '../../runner/documents.ts';
import { catalog } from '../../requirements/catalog.ts';

describe('generic ids of a swapped-in document', () => {
  it('are the built-in ids for the same method and path, whatever the operationIds', async () => {
    const builtin = await builtinDocuments();
    const genericScan = (rs: ReturnType<typeof catalog>) => rs.filter((r) => r.kind === 'generic' && r.interface === 'scan');
    const before = genericScan(catalog(builtin.specs, builtin.builtinIds));
    const dir = mkdtempSync(join(tmpdir(), 'cn-generic-ids-'));
    const renamed = readFileSync(BUILTIN_SPECS.scan, 'utf8')
      .replace(/operationId: (\w+)/g, 'operationId: vendor_$1')
      .replace(/\{update_id\}/g, '{updateId}');
    expect(renamed).toContain('operationId: vendor_getUpdateByIdV0');
    const file = join(dir, 'scan.yaml');
    writeFileSync(file, renamed);
    const swapped = await loadDocuments(new Map([['scan', file]]));
    const after = genericScan(catalog(swapped.specs, swapped.builtinIds));
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    // The checks call the swapped-in document's operations.
    expect(after.find((r) => r.id === 'GENERIC-SCAN-GET-UPDATE-BY-ID-V0-RESPONSES')?.operations).toEqual(['vendor_getUpdateByIdV0']);
    // Without the built-in names (no swap known), the document's own ids name them.
    expect(genericScan(catalog(swapped.specs)).map((r) => r.id)).toContain('GENERIC-SCAN-VENDOR-GET-UPDATE-BY-ID-V0-RESPONSES');
  });
});
