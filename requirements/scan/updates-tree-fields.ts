// The effective time and the event types of the transaction records of the update paths (tree-rules.ts).
import type { Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { TREE_RULES, treeRequirement } from './tree-rules.ts';

export const UPDATES_TREE_FIELD_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  { id: 'SCAN-UPDATES-EFFECTIVE-AT-ISO', ...treeRequirement(TREE_RULES.effectiveAtIso, 'v0') },
  { id: 'SCAN-UPDATES-V2-EFFECTIVE-AT-ISO', ...treeRequirement(TREE_RULES.effectiveAtIso, 'v2') },
  { id: 'SCAN-UPDATES-EVENT-TYPES', ...treeRequirement(TREE_RULES.eventTypes, 'v0') },
  { id: 'SCAN-UPDATES-V2-EVENT-TYPES', ...treeRequirement(TREE_RULES.eventTypes, 'v2') },
]);
