// What production ledger nodes (Canton 3.3/3.4) send where it bends the letter of the description: switched on
// like faults (`ctx.faults.has('ledger-...')`), but a suite that is right about real nodes fails no MUST
// requirement on them. The wire changes themselves are in release-style.ts and errors.ts.
import { declareDeviations } from '../fault-definition.ts';

export const LEDGER_DEVIATIONS = declareDeviations('ledger', {
  'ledger-error-null-fields': {
    family: 'errors',
    behaviour:
      'Every JsCantonError body carries "correlationId": null, "definiteAnswer": null and "retryInfo": null, as the error example of the Canton documentation does, where the description has them optional.',
    findings: ['LEDGER-ANSWERS-NULL-FOR-ABSENT'],
  },
  'ledger-null-optional-fields': {
    family: 'records',
    behaviour:
      'Records carry interfaceId, contractKey, traceContext.tracestate and externalTransactionHash as null where they have no value, createdEventBlob as "" when it was not requested and commandId as "" on updates the reading parties did not submit, as Canton 3.3/3.4 nodes do.',
    findings: ['LEDGER-ANSWERS-NULL-FOR-ABSENT'],
    operations: ['getUpdates', 'getEventsByContractId', 'submitAndWaitForTransaction', 'submitAndWaitForReassignment', 'submitAndWaitForTransactionTree'],
  },
  'ledger-not-found-plain-text': {
    family: 'errors',
    behaviour:
      'Every 404 of the ledger interface carries the text/plain page "The requested resource could not be found." instead of a JsCantonError, as a proxy in front of a node that answers not-found pages itself does.',
    findings: ['LEDGER-ANSWERS-PLAIN-TEXT-404'],
    operations: ['getPackage', 'submitAsync', 'getEventsByContractId'],
    // Such a page is what an unserved path gets too. The generic answer check of the package download asks for
    // unknown ids only, and the async command that must fail is refused with it: both see an operation that
    // looks unserved (the positive requirements still get their 200s).
    unsupported: ['GENERIC-LEDGER-GET-PACKAGE-RESPONSES', 'LEDGER-COMMANDS-ASYNC-FAILURE-NOT-OK'],
  },
  'ledger-pre-3-5': {
    family: 'versions',
    behaviour:
      'A node of release line 3.4: GET /v2/version answers a 3.4.x version, and events carry no acsDelta and no representativePackageId (both required from 3.5 on); rules about them do not apply to it.',
    findings: [],
    operations: ['getVersion', 'getUpdates', 'getEventsByContractId'],
  },
});

export type LedgerDeviationName = (typeof LEDGER_DEVIATIONS)[number]['name'];
