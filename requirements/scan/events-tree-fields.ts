// The effective time and the event types of the transaction record in the `update` of /v0/events (tree-rules.ts).
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { TREE_RULES, treeRequirement } from './tree-rules.ts';

export const EVENTS_TREE_FIELD_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  { id: 'SCAN-EVENTS-UPDATE-EFFECTIVE-AT-ISO', ...treeRequirement(TREE_RULES.effectiveAtIso, 'events') },
  { id: 'SCAN-EVENTS-UPDATE-EVENT-TYPES', ...treeRequirement(TREE_RULES.eventTypes, 'events') },
]);
