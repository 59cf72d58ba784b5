import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requirementsMarkdown } from '../../cli/requirements-doc.ts';
import { DEVIATION_CATALOG, FAULT_CATALOG } from '../../reference-node/faults.ts';
import { catalog } from '../../requirements/catalog.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

describe('docs/requirements.md', () => {
  it('is what the records generate (regenerate with: npx cn-conformance list --markdown > docs/requirements.md)', async () => {
    const generated = requirementsMarkdown(catalog(await loadedSpecs()), FAULT_CATALOG, DEVIATION_CATALOG);
    expect(readFileSync(new URL('../../docs/requirements.md', import.meta.url), 'utf8')).toBe(generated);
  });

  it('shows, for every rule of the description, a fault that proves its check can fail', async () => {
    const doc = requirementsMarkdown(catalog(await loadedSpecs()), FAULT_CATALOG, DEVIATION_CATALOG);
    const unproven = doc
      .split('\n')
      .filter((l) => /^\| (LEDGER|WALLET|SCAN)-/.test(l))
      .filter((l) => l.split('|').at(-2)!.trim() === '')
      .map((l) => l.split('|')[1]!.trim());
    expect(unproven).toEqual([]);
  });
});
