// What each blind fault of a closed round must make fail (see blind-faults.ts): written by `npm run
// detection:blind -- --record` from the round's scoring after its survivors were closed, then reviewed (each id
// is a requirement of the rule the fault breaks). A fault judged to break no rule the suite may enforce says why.
import type { BlindExpectation } from './blind-faults.ts';

export const BLIND_CAUGHT_BY: Readonly<Record<string, BlindExpectation>> = {
  'blind-r1-scan-holdings-v0-full-last-page-has-token': {
    notAViolation: 'a last page exactly page_size long still carries a token, which opens an empty page: what real scans do',
  },
};
