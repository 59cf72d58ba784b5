// The deviation policy's SHOULD requirements for the ledger interface (see requirements/answer-policy.ts).
import { answerPolicyRecords } from '../answer-policy.ts';
import { defineRules } from '../../engine/requirement.ts';

const RECORDS = answerPolicyRecords('ledger', {
  section: 'A. Ledger interface records > JsCantonError; Errors',
  nullForAbsent: {
    id: 'LEDGER-ANSWERS-NULL-FOR-ABSENT',
    sentence:
      '`code` string (required), `cause` string (required), `correlationId` string, `traceId` string, ... `retryInfo` string, `definiteAnswer` boolean.',
  },
  plainText404: {
    id: 'LEDGER-ANSWERS-PLAIN-TEXT-404',
    sentence: "| other statuses | JsCantonError; 413 Content Too Large when the result count exceeds the node's list limit |",
  },
});

export const ANSWER_REQUIREMENTS = defineRules(import.meta.url, { interface: 'ledger' }, RECORDS);
