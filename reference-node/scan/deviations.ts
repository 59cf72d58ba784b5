// What production scan nodes send where it bends the letter of the description: switched on like faults
// (`ctx.faults.has('scan-...')`), but a suite that is right about real nodes fails no MUST requirement on them.
import { declareDeviations } from '../fault-definition.ts';

export const SCAN_DEVIATIONS = declareDeviations('scan', {
  'scan-validator-never-collected': {
    family: 'faucets',
    behaviour:
      'An onboarded validator that has never collected reports all four faucet counters as 0 (collected 0, missed 0, first 0, last 0), as MainNet scan nodes do; the round arithmetic is about validators that collected.',
    findings: [],
    operations: ['getValidatorFaucetsByValidator'],
  },
});

export type ScanDeviationName = (typeof SCAN_DEVIATIONS)[number]['name'];
