// GET /v0/transfer-preapprovals/by-party/{party}: the transfer preapproval of a party, as a contract with its
// state, looked up for receivers of the preapprovals in the ACS (discovery) or the fixture file. The
// preapproval answered is the one of the party asked for: its contract's receiver is that party.
import { isObject } from '../../common/json.ts';
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedLookups, contractWithStateProblems, enc } from '../../interfaces/scan/common.ts';

export const TRANSFER_PREAPPROVAL_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'scan', operations: ['getTransferPreapprovalByParty'] },
  [
    rule({
      id: 'SCAN-TRANSFER-PREAPPROVAL',
      cites: ['R.scan.33', 'R.scan.34', 'C.preapproval.1'],
      needs: ['preapprovalParties'],
      tags: ['misc'],
      confirms: 'getTransferPreapprovalByParty',
      async check(ctx) {
        // A preapproval may have been withdrawn since the snapshot that showed it: a 404 for some parties is no refusal.
        const found = await acceptedLookups(
          ctx,
          ctx.fixtures.preapprovalParties,
          (party) => ctx.scan.get(`/v0/transfer-preapprovals/by-party/${enc(party)}`),
          (party) => `the preapproval of ${party}, the receiver of a transfer preapproval (fixtures.preapprovalParties; discovery: the ACS snapshot)`,
        );
        for (const { key: party, x, body } of found) {
          const record = body.transfer_preapproval;
          const problems = contractWithStateProblems(record);
          if (problems.length > 0) ctx.expect(x).fail(`${party}: transfer_preapproval: ${problems.join('; ')}`, '/transfer_preapproval');
          // The receiver is judged where the payload names one (the TransferPreapproval template's `receiver`).
          const receiver = isObject(record) && isObject(record.contract) && isObject(record.contract.payload) ? record.contract.payload.receiver : undefined;
          if (typeof receiver === 'string' && receiver !== party)
            ctx
              .expect(x)
              .fail(
                `asked for the transfer preapproval of ${party}, the answer is the preapproval of receiver ${receiver}`,
                '/transfer_preapproval/contract/payload/receiver',
              );
        }
      },
    }),
  ],
);
