// The deviation policy's SHOULD requirements for the wallet interface (see suites/answers/policy-requirements.ts).
import { answerPolicyRequirements } from '../answers/policy-requirements.ts';

export const ANSWER_REQUIREMENTS = answerPolicyRequirements(import.meta.url, 'wallet', {
  section: 'B. Wallet interface',
  nullForAbsent: '`withdrawn_reason` (optional human-readable text)',
  errorBody: '404 `{error}`: no offer with this tracking id is known',
});
