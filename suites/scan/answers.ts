// The deviation policy's SHOULD requirements for the scan interface (see suites/answers/policy-requirements.ts).
import { answerPolicyRequirements } from '../answers/policy-requirements.ts';

export const ANSWER_REQUIREMENTS = answerPolicyRequirements(import.meta.url, 'scan', {
  section: 'Resources and their fields > C. Scan records',
  nullForAbsent: { id: 'SCAN-ANSWERS-NULL-FOR-ABSENT', sentence: '`external_transaction_hash` string (optional; ...; omitted from JSON when null)' },
  plainText404: { id: 'SCAN-ANSWERS-PLAIN-TEXT-404', sentence: 'Errors 400, 404, 500 with `{error}`.' },
});
