// The deviation policy's SHOULD requirements for the wallet interface (see requirements/answer-policy.ts).
import { answerPolicyRecords } from '../answer-policy.ts';
import { defineRules } from '../../engine/requirement.ts';

const RECORDS = answerPolicyRecords('wallet', {
  section: 'B. Wallet interface',
  nullForAbsent: { id: 'WALLET-ANSWERS-NULL-FOR-ABSENT', sentence: '`withdrawn_reason` (optional human-readable text)' },
  plainText404: { id: 'WALLET-ANSWERS-PLAIN-TEXT-404', sentence: '404 `{error}`: no offer with this tracking id is known' },
});

export const ANSWER_REQUIREMENTS = defineRules(import.meta.url, { interface: 'wallet' }, RECORDS);
