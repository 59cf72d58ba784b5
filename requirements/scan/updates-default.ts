// GET /v0/updates/{update_id} without `lossless`: answered as with lossless=false.
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { defaultCheck } from './history-defaults.ts';
import { LOSSLESS_V0_ONLY, OP } from './history.ts';

export const UPDATES_DEFAULT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: [OP.v0],
    cites: ['C.updates-v0.2'],
  },
  [
    rule({
      id: 'SCAN-UPDATES-LOSSLESS-DEFAULT',
      needs: ['transactionUpdateIds'],
      tags: ['history', 'encodings'],
      variants: LOSSLESS_V0_ONLY,
      check: defaultCheck('v0', 'lossless', 'false'),
    }),
  ],
);
