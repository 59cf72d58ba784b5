// GET /v0/updates/{update_id} without `lossless`: answered as with lossless=false.
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { SECTION } from '../../interfaces/scan/common.ts';
import { defaultCheck } from './history-defaults.ts';
import { OP } from './history.ts';

export const UPDATES_DEFAULT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'scan', operations: [OP.v0], section: SECTION.updatesV0 },
  [
    rule({
      id: 'SCAN-UPDATES-LOSSLESS-DEFAULT',
      sentence: 'Query `lossless` boolean optional, default false',
      needs: ['transactionUpdateIds'],
      tags: ['history', 'encodings'],
      check: defaultCheck('v0', 'lossless', 'false'),
    }),
  ],
);
