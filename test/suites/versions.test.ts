// The operations the description dates (description/versions.ts), held to the Versioning sentences and to the
// built-in documents: every version a sentence states is in the table under the sentence, every row names an
// operation of its interface's document and sentences that state its version; and what a stated release
// makes of them.
import { describe, expect, it } from 'vitest';
import { SENTENCE_SECTIONS } from '../../description/index.ts';
import { releaseBefore, releaseNumbers } from '../../common/releases.ts';
import { DATED_OPERATIONS, introducedAfter } from '../../description/versions.ts';
import { releaseOf } from '../../runner/node-versions.ts';
import { builtinDocumentsOnce } from '../support/builtin-specs.ts';

const sentences = new Map(SENTENCE_SECTIONS.flatMap((s) => s.sentences.map((x) => [x.n, x.text] as const)));

describe('the dated operations', () => {
  it('name operations of their documents, and versions their sentences state', async () => {
    const { specs } = await builtinDocumentsOnce();
    for (const d of DATED_OPERATIONS) {
      expect(specs[d.interface]?.catalog.byId.has(d.operation), `${d.operation} in the ${d.interface} document`).toBe(true);
      const text = d.cites.map((n) => sentences.get(n) ?? '').join(' ');
      for (const v of [d.since, d.deprecatedSince, d.movedFrom?.until].filter((x): x is string => x !== undefined)) {
        expect(text, `${d.operation}: ${v} in ${d.cites.join(', ')}`).toContain(v);
        expect(releaseNumbers(v), v).toBeDefined();
      }
      if (d.movedFrom) expect(text).toContain(d.movedFrom.path);
    }
  });

  it('hold every version the Versioning sentences state of a scan path', () => {
    const cited = new Set(DATED_OPERATIONS.flatMap((d) => d.cites));
    for (const n of ['X.versioning.6', 'X.versioning.7', 'X.versioning.9']) {
      const stated = [...(sentences.get(n) ?? '').matchAll(/\b0\.\d+\.\d+\b/g)].map((m) => m[0]);
      expect(stated.length, n).toBeGreaterThan(0);
      expect(cited.has(n), n).toBe(true);
      const rows = DATED_OPERATIONS.filter((d) => d.cites.includes(n)).flatMap((d) => [d.since, d.deprecatedSince, d.movedFrom?.until]);
      for (const v of stated) expect(rows, `${n} states ${v}`).toContain(v);
    }
  });
});

describe('a stated release', () => {
  it('compares on the parts the later one names', () => {
    expect(releaseBefore('0.5.13', '0.5.16')).toBe(true);
    expect(releaseBefore('0.5.16', '0.5.16')).toBe(false);
    expect(releaseBefore('0.6.0', '0.5.18')).toBe(false);
    expect(releaseBefore('3.4.9', '3.5')).toBe(true);
    expect(releaseBefore('v3.5.0-snapshot.1', '3.5')).toBe(false);
    expect(releaseBefore('main', '3.5')).toBeUndefined();
  });

  it('names the operations the description dates after it, none for a release that has them all', () => {
    expect(introducedAfter('scan', '0.5.13')).toEqual([
      'getHoldingsStateV1 (0.6.0)',
      'downloadBulkHistoryObject (0.5.16)',
      'listBulkHistoryUpdates (0.5.18)',
      'getPartyToParticipantV1 (0.5.17)',
      'getPreviousSvRewardWeight (0.6.9)',
    ]);
    expect(introducedAfter('scan', '0.6.0')).toEqual(['getPreviousSvRewardWeight (0.6.9)']);
    expect(introducedAfter('scan', '0.7.5')).toEqual([]);
    expect(introducedAfter('ledger', '3.4.9')).toEqual(['getCommandCompletions (3.5)']);
    expect(introducedAfter('scan', 'unknown')).toEqual([]);
    const asked = { interface: 'scan' as const, request: 'GET http://scan/api/scan/version', answered: true, status: 200 };
    expect(releaseOf({ ...asked, body: '{"version":"0.5.5"}' }).introducedAfter).toHaveLength(5);
    expect(releaseOf({ ...asked, body: '{"version":"0.7.5"}' }).introducedAfter).toBeUndefined();
  });
});
