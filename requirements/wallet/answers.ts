// The deviation policy's SHOULD requirements for the wallet interface (see requirements/answer-policy.ts).
import { answerPolicyRecords } from '../answer-policy.ts';
import { defineRules } from '../../engine/requirement.ts';

const RECORDS = answerPolicyRecords('wallet', {
  nullForAbsent: { id: 'WALLET-ANSWERS-NULL-FOR-ABSENT', cites: ['T.transfer-offer.7', 'B.transfer-status.3'] },
  plainText404: { id: 'WALLET-ANSWERS-PLAIN-TEXT-404', cites: ['B.transfer-status.4', 'X.errors.13'] },
});

export const ANSWER_REQUIREMENTS = defineRules(import.meta.url, { interface: 'wallet' }, RECORDS);
