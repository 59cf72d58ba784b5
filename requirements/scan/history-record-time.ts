// Record times of the update history written with all six microsecond digits. The MUST rules of the record
// (tree-rules.ts) accept any ISO 8601 time of at most microsecond resolution, trimmed digits included; this
// advice asks for the full resolution the sentence names, as real scans send it (trailing zeros kept).
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { BASE, fetchServedUpdates, LABEL, OP, updateOf, WHERE } from './history.ts';

/**
 * An ISO 8601 time of at most microsecond resolution and its fractional digits (none when it has none). Other
 * renderings, finer digits included, break the MUST rules of the record and are theirs to report.
 */
const ISO_FRACTION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d{1,6}))?(?:Z|[+-]\d{2}:\d{2})$/i;

export const RECORD_TIME_DIGITS_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: WHERE.map((w) => OP[w]),
    cites: ['R.scan.9'],
  },
  [
    rule({
      id: 'SCAN-HISTORY-RECORD-TIME-SIX-DIGITS',
      level: 'SHOULD',
      needs: ['transactionUpdateIds'],
      tags: ['history', 'time'],
      async check(ctx) {
        const ids = [...ctx.fixtures.transactionUpdateIds, ...(ctx.fixtures.reassignmentUpdateIds ?? [])];
        let judged = 0;
        for (const { where, updates } of await fetchServedUpdates(ctx, ids)) {
          for (const u of updates) {
            const rt = updateOf(u.body, where)?.record_time;
            if (typeof rt !== 'string') continue;
            judged++;
            const m = ISO_FRACTION.exec(rt);
            if (!m) continue;
            const digits = m[1]?.length ?? 0;
            if (digits !== 6)
              ctx
                .expect(u.exchange)
                .fail(
                  `${LABEL[where]} ${u.id}: record_time ${rt} has ${digits} fractional digits, not the 6 of microsecond resolution`,
                  `${BASE[where]}/record_time`,
                );
          }
        }
        if (judged === 0) ctx.skip('no fixture update is answered with a record_time');
      },
    }),
  ],
);
