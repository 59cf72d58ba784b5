// The ledger interface's requirement records: the rules of `POST /v2/updates`, and those of the other endpoints
// (commands, events, packages, DARs, vetting, version), one record per rule.
import type { Requirement } from '../../engine/model.ts';
import { AUTH_REQUIREMENTS } from './updates/auth.ts';
import { CUMULATIVE_REQUIREMENTS } from './updates/cumulative.ts';
import { ERROR_REQUIREMENTS } from './updates/errors.ts';
import { FILTER_REQUIREMENTS } from './updates/filters.ts';
import { LIMIT_REQUIREMENTS } from './updates/limits.ts';
import { LIST_LIMIT_BOUND_REQUIREMENTS } from './updates/list-limit-bound.ts';
import { OPEN_READ_REQUIREMENTS } from './updates/open-reads.ts';
import { PARTY_FILTER_REQUIREMENTS } from './updates/party-filters.ts';
import { REQUEST_FIELD_REQUIREMENTS } from './updates/request-fields.ts';
import { SHAPE_REQUIREMENTS } from './updates/shapes.ts';
import { WINDOW_REQUIREMENTS } from './updates/window.ts';
import { BOUNDED_READ_REQUIREMENTS } from './updates/bounded-read.ts';
import { ANSWER_REQUIREMENTS } from './answers.ts';
import { PACKAGE_UPLOAD_REQUIREMENTS } from './packages-upload.ts';
import { SINCE_3_5_REQUIREMENTS } from './command-completions.ts';
import { COMMANDS_REQUIREMENTS } from './commands.ts';
import { ASYNC_REQUIREMENTS } from './commands-async.ts';
import { COMMAND_FAILURE_REQUIREMENTS } from './commands-failure.ts';
import { REASSIGNMENT_REQUIREMENTS } from './commands-reassignment.ts';
import { EVENT_REQUIREMENTS } from './events.ts';
import { PACKAGE_REQUIREMENTS } from './packages.ts';
import { DAR_REQUIREMENTS } from './packages-dars.ts';
import { VETTING_REQUIREMENTS } from './vetting.ts';
import { VERSION_REQUIREMENTS } from './version.ts';
import { WEBSOCKET_REQUIREMENTS } from './websocket/index.ts';

export const LEDGER_REQUIREMENTS: Requirement[] = [
  ...WINDOW_REQUIREMENTS,
  ...OPEN_READ_REQUIREMENTS,
  ...LIMIT_REQUIREMENTS,
  ...LIST_LIMIT_BOUND_REQUIREMENTS,
  ...SHAPE_REQUIREMENTS,
  ...FILTER_REQUIREMENTS,
  ...PARTY_FILTER_REQUIREMENTS,
  ...CUMULATIVE_REQUIREMENTS,
  ...ERROR_REQUIREMENTS,
  ...REQUEST_FIELD_REQUIREMENTS,
  ...AUTH_REQUIREMENTS,
  ...ANSWER_REQUIREMENTS,
  ...SINCE_3_5_REQUIREMENTS,
  ...COMMANDS_REQUIREMENTS,
  ...ASYNC_REQUIREMENTS,
  ...COMMAND_FAILURE_REQUIREMENTS,
  ...REASSIGNMENT_REQUIREMENTS,
  ...BOUNDED_READ_REQUIREMENTS,
  ...EVENT_REQUIREMENTS,
  ...VERSION_REQUIREMENTS,
  ...PACKAGE_REQUIREMENTS,
  ...DAR_REQUIREMENTS,
  ...PACKAGE_UPLOAD_REQUIREMENTS,
  ...VETTING_REQUIREMENTS,
  ...WEBSOCKET_REQUIREMENTS,
];
