// GET /v0/events/{update_id} without `daml_value_encoding`: answered as with compact_json.
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { defaultCheck } from './history-defaults.ts';
import { OP } from './history.ts';

export const EVENTS_DEFAULT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: [OP.events],
    cites: ['C.events.2'],
  },
  [
    rule({
      id: 'SCAN-EVENTS-ENCODING-DEFAULT',
      needs: ['transactionUpdateIds'],
      tags: ['history', 'encodings'],
      variants: {
        'value-encoding': {
          protobuf_json: 'the rule of the default encoding, compact_json (C.events.2): protobuf_json asked by name is another rendering, not the default',
        },
      },
      check: defaultCheck('events', 'daml_value_encoding', 'compact_json'),
    }),
  ],
);
