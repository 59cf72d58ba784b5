// The deviation policy's SHOULD requirements for the scan interface (see requirements/answer-policy.ts).
import { answerPolicyRecords } from '../answer-policy.ts';
import { defineRules } from '../../engine/requirement.ts';

const RECORDS = answerPolicyRecords('scan', {
  nullForAbsent: { id: 'SCAN-ANSWERS-NULL-FOR-ABSENT', cites: ['R.scan.16'] },
  plainText404: { id: 'SCAN-ANSWERS-PLAIN-TEXT-404', cites: ['C.holdings-v1.15', 'X.errors.13'] },
});

export const ANSWER_REQUIREMENTS = defineRules(import.meta.url, { interface: 'scan' }, RECORDS);
