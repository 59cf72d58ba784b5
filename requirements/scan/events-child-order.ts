// The order of child_event_ids on the `update` of /v0/events/{update_id} (the rule: child-order.ts).
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { childOrderRequirement } from './child-order.ts';

export const EVENTS_CHILD_ORDER_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  { id: 'SCAN-EVENTS-V2-CHILDREN-IN-ORDER', ...childOrderRequirement('events') },
]);
