// Sentences proven by faults (docs/traceability.md): every fault cites the sentences it breaks by number, the
// detection runs record in traceability/proof.json what failed on each fault's node, and a sentence counts as
// proven when a fault citing it is caught by a requirement citing it. The record must name only faults and
// requirements that exist, in the form the runs write.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unknownSentences } from '../../description/cite.ts';
import { mergeProof, proofJson } from '../../detection/proof-file.ts';
import { BLIND_FAULTS, FAULT_CATALOG } from '../../reference-node/faults.ts';
import { catalog } from '../../requirements/catalog.ts';
import { faultProof, PROOF_FILE, provenBy, readProof } from '../../traceability/proof.ts';
import { loadedSpecs } from '../support/suite-harness.ts';

const FAULTS = [...FAULT_CATALOG, ...BLIND_FAULTS];

describe('the sentences each fault breaks', () => {
  it('are cited by every catalog and blind fault, by numbers the description has', () => {
    expect(FAULTS.filter((f) => f.cites.length === 0).map((f) => f.name)).toEqual([]);
    expect(FAULTS.flatMap((f) => unknownSentences(f.cites).map((n) => `${f.name}: ${n}`))).toEqual([]);
    expect(FAULTS.filter((f) => new Set(f.cites).size !== f.cites.length).map((f) => f.name)).toEqual([]);
  });
});

describe('traceability/proof.json', () => {
  const record = readProof();

  it('names only faults that exist', () => {
    const names = new Set(FAULTS.map((f) => f.name));
    expect(Object.keys(record.faults).filter((n) => !names.has(n))).toEqual([]);
  });

  it('names only requirements that exist', async () => {
    const ids = new Set(catalog(await loadedSpecs()).map((r) => r.id));
    expect(Object.entries(record.faults).flatMap(([fault, failed]) => failed.filter((id) => !ids.has(id)).map((id) => `${fault}: ${id}`))).toEqual([]);
  });

  it('is in the form the detection runs write (sorted, one fault a line)', () => {
    expect(readFileSync(PROOF_FILE, 'utf8')).toBe(proofJson(mergeProof(record.faults, [], Object.keys(record.faults))));
  });
});

describe('a run recorded over the proof', () => {
  it('replaces the faults it ran, keeps the others, drops those gone, and sorts', () => {
    const merged = mergeProof(
      { 'b-fault': ['X'], 'gone-fault': ['Y'], 'c-fault': ['Z'] },
      [
        { fault: 'a-fault', failed: ['R2', 'R1', 'R1'] },
        { fault: 'c-fault', failed: [] },
      ],
      ['a-fault', 'b-fault', 'c-fault'],
    );
    expect(merged.faults).toEqual({ 'a-fault': ['R1', 'R2'], 'b-fault': ['X'], 'c-fault': [] });
    expect(Object.keys(merged.faults)).toEqual(['a-fault', 'b-fault', 'c-fault']);
    expect(JSON.parse(proofJson(merged))).toEqual(merged);
  });
});

describe('a sentence proven', () => {
  const requirements = [
    { id: 'R-ONE', cites: ['S.1'] },
    { id: 'R-TWO', cites: ['S.2'] },
  ];
  const faults = [
    { name: 'breaks-one', cites: ['S.1'] },
    { name: 'breaks-one-caught-by-two', cites: ['S.1'] },
    { name: 'breaks-two-not-caught', cites: ['S.2'] },
    { name: 'breaks-two-not-run', cites: ['S.2'] },
  ];
  const caught = { 'breaks-one': ['R-ONE', 'R-TWO'], 'breaks-one-caught-by-two': ['R-TWO'], 'breaks-two-not-caught': [] };

  it('is one a fault citing it is caught by a requirement citing it, not by any other requirement', () => {
    const proven = provenBy(faults, caught, requirements);
    expect([...proven]).toEqual([['S.1', ['breaks-one']]]);
    expect(faults.map((f) => faultProof(f, caught, proven))).toEqual(['proves', 'caught elsewhere', 'not caught', 'not run']);
  });
});
