// GET /v0/events/{update_id} without `daml_value_encoding`: answered as with compact_json.
import type { Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';
import { SECTION } from './common.ts';
import { defaultCheck } from './history-defaults.ts';
import { OP } from './history.ts';

export const EVENTS_DEFAULT_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'SCAN-EVENTS-ENCODING-DEFAULT',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: [OP.events],
    section: SECTION.events,
    sentence: 'Query `daml_value_encoding` optional, allowed `compact_json` (default; compact, human-readable)',
    needs: ['transactionUpdateIds'],
    tags: ['history', 'encodings'],
    check: defaultCheck('events', 'daml_value_encoding', 'compact_json'),
  },
]);
