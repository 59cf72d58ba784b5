// What production validator nodes send where it bends the letter of the description: switched on like faults
// (`ctx.faults.has('wallet-...')`), but a suite that is right about real nodes fails no MUST requirement on them.
import { declareDeviations } from '../fault-definition.ts';

export const WALLET_DEVIATIONS = declareDeviations('wallet', {
  'wallet-not-found-plain-text': {
    family: 'error shape',
    behaviour:
      'Not-found answers carry a plain-text body ("Not Found: ...") instead of {error: string}, as an HTTP layer or a proxy in front of a node answers before the API\'s own handler.',
    findings: ['WALLET-ANSWERS-PLAIN-TEXT-404'],
    operations: ['getTransferOfferStatus'],
    // Its only error is the 404 of an unknown offer: nothing left to judge {error: string} on.
    skipped: ['WALLET-ERROR-BODY-STATUS-LOOKUP'],
  },
  'wallet-null-withdrawn-reason': {
    family: 'transfer offer states',
    behaviour:
      'A failed transfer offer without a reason carries "withdrawn_reason": null instead of leaving the optional field out, as servers that render every field of a record do.',
    findings: ['WALLET-ANSWERS-NULL-FOR-ABSENT'],
    operations: ['getTransferOfferStatus'],
  },
});

export type WalletDeviationName = (typeof WALLET_DEVIATIONS)[number]['name'];
