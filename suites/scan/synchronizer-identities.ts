// GET /v0/synchronizer-identities/{domain_id_prefix}: the sequencer and mediator of a synchronizer and their
// identity transactions.
import { isStringArray } from '../../common/json.ts';
import type { Requirement } from '../model.ts';
import { defineRequirements } from '../requirement.ts';
import { enc, okObject, SECTION } from './common.ts';

export const SYNCHRONIZER_IDENTITIES_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [
  {
    id: 'SCAN-SYNCHRONIZER-IDENTITIES',
    kind: 'rule',
    level: 'MUST',
    interface: 'scan',
    operations: ['getSynchronizerIdentities'],
    section: SECTION.synchronizers,
    sentence: '200 `{sequencer_id: string, sequencer_identity_transactions: string[], mediator_id: string, mediator_identity_transactions: string[]}`',
    needs: ['domainId'],
    tags: ['misc'],
    async check(ctx) {
      // The whole id is a prefix of itself.
      const x = await ctx.scan.get(`/v0/synchronizer-identities/${enc(ctx.fixtures.domainId!)}`);
      const body = okObject(ctx, x, `identities of fixture synchronizer ${ctx.fixtures.domainId}`);
      const bad = [
        ...['sequencer_id', 'mediator_id'].filter((f) => typeof body[f] !== 'string'),
        ...['sequencer_identity_transactions', 'mediator_identity_transactions'].filter((f) => !isStringArray(body[f])),
      ];
      if (bad.length > 0) ctx.fail(`fields missing or of the wrong type: ${bad.join(', ')}`, { exchange: x, pointer: `/${bad[0]}` });
    },
  },
]);
