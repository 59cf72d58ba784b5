// The deviation policy's SHOULD requirements for the ledger interface (see requirements/answer-policy.ts).
import { answerPolicyRecords } from '../answer-policy.ts';
import { defineRules } from '../../engine/requirement.ts';

const RECORDS = answerPolicyRecords('ledger', {
  nullForAbsent: {
    id: 'LEDGER-ANSWERS-NULL-FOR-ABSENT',
    cites: ['R.ledger.42', 'A.updates.9', 'X.errors.3'],
  },
  plainText404: {
    id: 'LEDGER-ANSWERS-PLAIN-TEXT-404',
    cites: ['R.ledger.41', 'A.updates.9', 'X.errors.3'],
  },
});

export const ANSWER_REQUIREMENTS = defineRules(import.meta.url, { interface: 'ledger' }, RECORDS);
