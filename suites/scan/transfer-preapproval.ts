// GET /v0/transfer-preapprovals/by-party/{party}: the transfer preapproval of a party, as a contract with its
// state.
import type { Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';
import { contractWithStateProblems, enc, okObject, SECTION } from './common.ts';

export const TRANSFER_PREAPPROVAL_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'SCAN-TRANSFER-PREAPPROVAL',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: ['getTransferPreapprovalByParty'],
    section: SECTION.preapprovals,
    sentence: '200 `{transfer_preapproval: ContractWithState}`',
    needs: ['preapprovalParties'],
    tags: ['misc'],
    async check(ctx) {
      let checked = 0;
      for (const party of ctx.fixtures.preapprovalParties!) {
        const x = await ctx.scan.get(`/v0/transfer-preapprovals/by-party/${enc(party)}`);
        if (x.status === 404) continue;
        checked++;
        const problems = contractWithStateProblems(okObject(ctx, x, `preapproval of fixture party ${party}`).transfer_preapproval);
        if (problems.length > 0) ctx.fail(`${party}: transfer_preapproval: ${problems.join('; ')}`, { exchange: x, pointer: '/transfer_preapproval' });
      }
      if (checked === 0) ctx.skip('no fixture preapproval party has a transfer preapproval (all answered 404)');
    },
  },
]);
