// The order of child_event_ids on /v2/updates/{update_id} (the rule: child-order.ts).
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { childOrderRequirement } from './child-order.ts';

export const UPDATES_CHILD_ORDER_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  { id: 'SCAN-UPDATES-V2-CHILDREN-IN-ORDER', ...childOrderRequirement('v2') },
]);
