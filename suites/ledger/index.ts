// The ledger interface's requirement records: the rules of `POST /v2/updates`, one record per rule.
import type { Requirement } from '../model.ts';
import { AUTH_REQUIREMENTS } from './stream-auth.ts';
import { ERROR_REQUIREMENTS } from './stream-errors.ts';
import { FILTER_REQUIREMENTS } from './stream-filters.ts';
import { LIMIT_REQUIREMENTS } from './stream-limits.ts';
import { SHAPE_REQUIREMENTS } from './stream-shapes.ts';
import { WINDOW_REQUIREMENTS } from './stream-window.ts';

export const LEDGER_REQUIREMENTS: Requirement[] = [
  ...WINDOW_REQUIREMENTS,
  ...LIMIT_REQUIREMENTS,
  ...SHAPE_REQUIREMENTS,
  ...FILTER_REQUIREMENTS,
  ...ERROR_REQUIREMENTS,
  ...AUTH_REQUIREMENTS,
];
