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
  {
    id: 'SCAN-SYNCHRONIZER-IDENTITIES-PREFIX',
    kind: 'rule',
    // The parameter is only named a prefix (here and in the official document): advice, not a promise.
    level: 'SHOULD',
    interface: 'scan',
    operations: ['getSynchronizerIdentities'],
    section: SECTION.synchronizers,
    sentence: 'GET /v0/synchronizer-identities/{domain_id_prefix} ... Path `domain_id_prefix` string',
    needs: ['domainId'],
    tags: ['misc'],
    async check(ctx) {
      const id = ctx.fixtures.domainId!;
      const whole = okObject(ctx, await ctx.scan.get(`/v0/synchronizer-identities/${enc(id)}`), `identities of fixture synchronizer ${id}`);
      // Only an answer that names the identities shows the whole id was found (its shape: SCAN-SYNCHRONIZER-IDENTITIES).
      if (typeof whole.sequencer_id !== 'string' || typeof whole.mediator_id !== 'string')
        ctx.skip(`the identities of ${id} name no sequencer_id and mediator_id: nothing found by the whole id to look for by a prefix`);
      // The part before the namespace (e.g. global-domain of global-domain::1220...), else the id less its last character.
      const prefix = id.includes('::') ? id.slice(0, id.indexOf('::')) : id.slice(0, -1);
      if (prefix === '') ctx.skip(`fixtures.domainId ${JSON.stringify(id)} has no proper non-empty prefix`);
      // Another synchronizer may share the prefix, so the identities found by it are not compared.
      const x = await ctx.scan.get(`/v0/synchronizer-identities/${enc(prefix)}`);
      const found = okObject(ctx, x, `${JSON.stringify(prefix)} is a prefix of the synchronizer id ${id}, which is found by its whole id`);
      if (typeof found.sequencer_id !== 'string' || typeof found.mediator_id !== 'string')
        ctx.fail(`the identities found by the prefix ${JSON.stringify(prefix)} name no sequencer_id and mediator_id`, {
          exchange: x,
          pointer: '/sequencer_id',
        });
    },
  },
]);
