import { describe, expect, it } from 'vitest';
import { referenceFixtures } from '../../reference-node/fixtures.ts';
import { startReferenceNode } from '../../reference-node/index.ts';
import { didYouMean } from '../../engine/did-you-mean.ts';
import { fixtureProblems } from '../../engine/fixture-validation.ts';
import { FIXTURE_HELP } from '../../engine/fixtures.ts';
import schema from '../../engine/fixtures.schema.json' with { type: 'json' };
import type { Json as AnyJson } from '../../common/json.ts';

const FIXTURE_NAMES = Object.keys(FIXTURE_HELP);

describe('fixtures schema', () => {
  it('names exactly the fixtures of the Fixtures interface (FIXTURE_HELP is keyed by them)', () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...FIXTURE_NAMES].sort());
  });

  it('describes every property and closes every object level', () => {
    const walk = (s: Record<string, AnyJson>, at: string): void => {
      if (s.type === 'object') expect(s.additionalProperties, at).toBe(false);
      for (const [k, p] of Object.entries<Record<string, AnyJson>>(s.properties ?? {})) {
        expect(typeof p.description, `${at}/${k}`).toBe('string');
        walk(p, `${at}/${k}`);
      }
    };
    walk(schema, '');
  });
});

describe('fixtureProblems', () => {
  it('accepts the fixtures the reference node writes, as read back from JSON', async () => {
    const node = await startReferenceNode({});
    try {
      const written = JSON.parse(JSON.stringify(referenceFixtures(node)));
      expect(Object.keys(written).length).toBeGreaterThan(10);
      expect(fixtureProblems(written)).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it('accepts an empty object and an absent value', () => {
    expect(fixtureProblems({})).toEqual([]);
    expect(fixtureProblems(undefined)).toEqual([]);
  });

  it('names an unknown fixture once and suggests the close name', () => {
    expect(fixtureProblems({ migrationID: 3 })).toEqual(['/fixtures/migrationID: unknown fixture; did you mean migrationId?']);
  });

  it('points to the schema when an unknown fixture resembles none', () => {
    expect(fixtureProblems({ banana: 1 })).toEqual(['/fixtures/banana: unknown fixture; see engine/fixtures.schema.json for the known names']);
  });

  it('shows the wrongly typed value and what to write instead', () => {
    expect(fixtureProblems({ migrationId: 'three' })).toEqual(['/fixtures/migrationId: must be an integer >= 0, got "three"']);
    expect(fixtureProblems({ migrationId: -1.5 })).toEqual(['/fixtures/migrationId: must be an integer >= 0, got -1.5']);
    expect(fixtureProblems({ snapshotRecordTime: 'yesterday' })).toEqual(['/fixtures/snapshotRecordTime: must be a date-time (RFC 3339), got "yesterday"']);
    expect(fixtureProblems([1, 2])).toEqual(['/fixtures: must be an object, got [1,2]']);
    expect(fixtureProblems(null)).toEqual(['/fixtures: must be an object, got null']);
  });

  it('cuts a long received value', () => {
    const [line] = fixtureProblems({ domainId: ['x'.repeat(500)] });
    expect(line).toMatch(/^\/fixtures\/domainId: must be a string, got \["x+\.\.\.$/);
    expect(line!.length).toBeLessThan(120);
  });

  it('points inside nested objects and arrays', () => {
    expect(fixtureProblems({ transferOffers: { created: 'x' } })).toEqual(['/fixtures/transferOffers/created: must be an array of strings, got "x"']);
    expect(fixtureProblems({ transferOffers: { pending: [] } })).toEqual([
      '/fixtures/transferOffers/pending: unknown key; known: created, accepted, completed, failed',
    ]);
    expect(fixtureProblems({ transferOffers: { complted: [] } })).toEqual(['/fixtures/transferOffers/complted: unknown key; did you mean completed?']);
    expect(fixtureProblems({ bulkRange: { start: '2026-01-01T00:00:00Z' } })).toEqual(['/fixtures/bulkRange: must have end']);
    expect(fixtureProblems({ bulkRange: {} })).toEqual(['/fixtures/bulkRange: must have start and end']);
    expect(fixtureProblems({ rounds: [1, 'a', 2] })).toEqual(['/fixtures/rounds/1: must be an integer >= 0, got "a"']);
  });

  it('reports every problem, one line per spot, in document order', () => {
    const problems = fixtureProblems({
      rounds: [-1],
      bulkRange: { begin: '2026-01-01T00:00:00Z', end: 'soon' },
      migrationID: 3,
      holdingOwners: 'alice',
    });
    expect(problems).toEqual([
      '/fixtures/rounds/0: must be an integer >= 0, got -1',
      '/fixtures/bulkRange: must have start',
      '/fixtures/bulkRange/begin: unknown key; known: start, end',
      '/fixtures/bulkRange/end: must be a date-time (RFC 3339), got "soon"',
      '/fixtures/migrationID: unknown fixture; did you mean migrationId?',
      '/fixtures/holdingOwners: must be an array of strings, got "alice"',
    ]);
  });

  it('escapes keys in pointers and keeps each problem on one line', () => {
    expect(fixtureProblems({ 'a/b~c\n': 1 })).toEqual(['/fixtures/a~1b~0c\\u000a: unknown fixture; see engine/fixtures.schema.json for the known names']);
  });
});

describe('didYouMean', () => {
  it('suggests for case slips, small typos and prefixes', () => {
    expect(didYouMean('migrationID', FIXTURE_NAMES)).toBe('migrationId');
    expect(didYouMean('migartionId', FIXTURE_NAMES)).toBe('migrationId');
    expect(didYouMean('holdingOwner', FIXTURE_NAMES)).toBe('holdingOwners');
    expect(didYouMean('svParty', FIXTURE_NAMES)).toBe('svParties');
    expect(didYouMean('domain', FIXTURE_NAMES)).toBe('domainId');
    expect(didYouMean('ned', ['start', 'end'])).toBe('end');
  });

  it('suggests nothing for an unrelated, empty or ambiguous word', () => {
    expect(didYouMean('banana', FIXTURE_NAMES)).toBeUndefined();
    expect(didYouMean('pending', ['created', 'accepted', 'completed', 'failed'])).toBeUndefined();
    expect(didYouMean('', FIXTURE_NAMES)).toBeUndefined();
    expect(didYouMean('m', FIXTURE_NAMES)).toBeUndefined();
    expect(didYouMean('ledger', FIXTURE_NAMES)).toBeUndefined();
    expect(didYouMean('x', [])).toBeUndefined();
  });

  it('is deterministic: ties go to the earlier candidate', () => {
    expect(didYouMean('ab', ['ac', 'ad'])).toBe('ac');
    expect(didYouMean('ab', ['ad', 'ac'])).toBe('ad');
  });
});
