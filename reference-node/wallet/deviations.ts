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
});

export type WalletDeviationName = (typeof WALLET_DEVIATIONS)[number]['name'];
