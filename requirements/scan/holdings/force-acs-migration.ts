// POST /v0/state/acs/force: the migration id of the snapshot it takes is the scan's current one. Migration ids
// only grow, and a migration with an ACS snapshot (fixtures.migrationId) is the current one or an earlier one:
// so the forced snapshot's migration id is at least the fixture's.
import { isInt64 } from '../../../engine/int64.ts';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { forceAcsSnapshot } from './snapshots.ts';

export const FORCE_ACS_MIGRATION_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: ['forceAcsSnapshotNow'],
    cites: ['C.acs-force.1', 'C.acs-force.4'],
  },
  [
    rule({
      id: 'SCAN-HOLDINGS-FORCE-ACS-MIGRATION',
      mutates: true,
      needs: ['migrationId'],
      tags: ['holdings', 'snapshots'],
      confirms: 'forceAcsSnapshotNow',
      async check(ctx) {
        const { forced, snap } = await forceAcsSnapshot(ctx, true);
        const m = snap.migration_id;
        if (!isInt64(m)) ctx.expect(forced).fail(`migration_id ${JSON.stringify(m)} is not an integer`, '/migration_id');
        const known = ctx.fixtures.migrationId;
        if (m < known)
          ctx
            .expect(forced)
            .fail(
              `force-ACS reports migration_id ${m}, below migration ${known}, which already has an ACS snapshot (fixtures.migrationId): the current migration id is never below a migration the scan has`,
              '/migration_id',
            );
      },
    }),
  ],
);
