// The deviation policy's SHOULD requirements for the scan interface (see requirements/answer-policy.ts).
import { answerPolicyRecords } from '../answer-policy.ts';
import { defineRules } from '../../engine/requirement.ts';

const RECORDS = answerPolicyRecords('scan', {
  section: 'Resources and their fields > C. Scan records',
  nullForAbsent: { id: 'SCAN-ANSWERS-NULL-FOR-ABSENT', sentence: '`external_transaction_hash` string (optional; ...; omitted from JSON when null)' },
  plainText404: { id: 'SCAN-ANSWERS-PLAIN-TEXT-404', sentence: 'Errors 400, 404, 500 with `{error}`.' },
});

export const ANSWER_REQUIREMENTS = defineRules(import.meta.url, { interface: 'scan' }, RECORDS);
