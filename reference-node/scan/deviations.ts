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
  'scan-events-null-verdict': {
    family: 'event items',
    behaviour:
      'Every /v0/events item without a verdict (the first transactions, reassignments) carries "verdict": null instead of leaving it out, as MainNet scan nodes do on every item of early migrations.',
    findings: ['SCAN-ANSWERS-NULL-FOR-ABSENT'],
    operations: ['getEventById'],
  },
  'scan-events-null-update': {
    family: 'event items',
    behaviour: 'Verdict-only /v0/events items (transactions the mediator rejected) carry "update": null instead of leaving it out, as MainNet scan nodes do.',
    findings: ['SCAN-ANSWERS-NULL-FOR-ABSENT'],
    operations: ['getEventById'],
  },
  'scan-holdings-null-page-token': {
    family: 'paging',
    behaviour: 'The last holdings page (v0, v1 and v2) carries "next_page_token": null instead of leaving it out, as MainNet scan nodes do.',
    findings: ['SCAN-ANSWERS-NULL-FOR-ABSENT'],
    operations: ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'],
  },
  'scan-deprecated-update-path-gone': {
    family: 'versions',
    behaviour:
      'GET /v0/updates/{update_id} (deprecated) is not served: the HTTP layer answers 404 text/plain "The requested resource could not be found." for every id, as a newer node without the deprecated path does; /v2/updates and /v0/events serve the history.',
    // No SCAN-ANSWERS-PLAIN-TEXT-404: that reports served operations; this one is not served.
    findings: [],
    operations: ['getUpdateByIdV0'],
    unsupported: [
      'SCAN-UPDATES-BY-ID',
      'SCAN-UPDATES-TREE-ROOTS-KNOWN',
      'SCAN-UPDATES-TREE-CHILDREN-KNOWN',
      'SCAN-UPDATES-TREE-ALL-REACHABLE',
      'SCAN-UPDATES-CREATED-EVENT-ID',
      'SCAN-UPDATES-RECORD-TIME-MICROS',
      'SCAN-UPDATES-EXTERNAL-HASH-OMITTED',
      'SCAN-UPDATES-OFFSETS-INCREASING',
      'SCAN-UPDATES-LOSSLESS-VARIANTS',
      'SCAN-UPDATES-VARIANTS-SAME-UPDATE',
      'SCAN-UPDATES-LOSSLESS-DEFAULT',
      'SCAN-UPDATES-EFFECTIVE-AT-ISO',
      'SCAN-UPDATES-EVENT-TYPES',
      'GENERIC-SCAN-GET-UPDATE-BY-ID-V0-RESPONSES',
      'GENERIC-SCAN-GET-UPDATE-BY-ID-V0-INVALID-INPUT',
    ],
    // The relations of an operation not served have no successful answer to judge.
    skipped: ['GENERIC-SCAN-GET-UPDATE-BY-ID-V0-RELATIONS'],
  },
  'scan-not-found-plain-text': {
    family: 'error shape',
    behaviour:
      'Not-found answers carry a plain-text body ("Not Found: ...") instead of {error}, as an HTTP layer or a proxy in front of a node answers before the API\'s own handler.',
    findings: ['SCAN-ANSWERS-PLAIN-TEXT-404'],
    operations: [
      'getEventById',
      'getPartyToParticipantV1',
      'getRewardAccountingRootHash',
      'getSynchronizerIdentities',
      'getTransferPreapprovalByParty',
      'getUpdateByIdV0',
      'getUpdateByIdV2',
      'downloadBulkHistoryObject',
    ],
    // A bulk download has no fixture key: nothing but a plain-text 404 is what a node not serving it answers.
    unsupported: ['GENERIC-SCAN-DOWNLOAD-BULK-HISTORY-OBJECT-RESPONSES'],
  },
});

export type ScanDeviationName = (typeof SCAN_DEVIATIONS)[number]['name'];
