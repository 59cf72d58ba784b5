// The small reference endpoints: backfilling status, feature support, synchronizer identities, development
// fund coupons and transfer preapprovals.
import type { Requirement } from '../model.ts';
import { enc, isObject, isStringArray, okObject, scanRequirement, SECTION, timeNanos, type Json } from './common.ts';

const backfilling = scanRequirement({
  id: 'SCAN-BACKFILLING-COMPLETE-FLAG',
  level: 'MUST',
  operations: ['getBackfillingStatus'],
  section: SECTION.backfilling,
  sentence: '200 `{complete: boolean}`: true only if all backfilling processes are complete',
  tags: ['misc'],
  async check(ctx) {
    const x = await ctx.scan.get('/v0/backfilling/status');
    if (typeof okObject(ctx, x, 'backfilling status').complete !== 'boolean') ctx.fail('complete is not a boolean', { exchange: x, pointer: '/complete' });
  },
});

const features = scanRequirement({
  id: 'SCAN-FEATURE-SUPPORT',
  level: 'MUST',
  operations: ['getFeatureSupport'],
  section: SECTION.features,
  sentence: 'No parameters. 200 `{dummy?: boolean}`',
  tags: ['misc'],
  async check(ctx) {
    const x = await ctx.scan.get('/v0/feature-support');
    const body = okObject(ctx, x, 'feature support');
    if (body.dummy !== undefined && typeof body.dummy !== 'boolean') ctx.fail('dummy is present but not a boolean', { exchange: x, pointer: '/dummy' });
  },
});

const synchronizerIdentities = scanRequirement({
  id: 'SCAN-SYNCHRONIZER-IDENTITIES',
  level: 'MUST',
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
});

/** Problems of a ContractWithState: contract {template_id, contract_id, created_event_blob, created_at, payload}, domain_id optional. */
function contractWithStateProblems(c: Json): string[] {
  if (!isObject(c) || !isObject(c.contract)) return ['contract is not an object'];
  const k = c.contract;
  const out = ['template_id', 'contract_id', 'created_event_blob', 'created_at'].filter((f) => typeof k[f] !== 'string').map((f) => `contract.${f} is not a string`);
  if (typeof k.created_at === 'string' && timeNanos(k.created_at) === undefined) out.push('contract.created_at is not a timestamp');
  if (!isObject(k.payload)) out.push('contract.payload is not an object');
  if (c.domain_id !== undefined && typeof c.domain_id !== 'string') out.push('domain_id is present but not a string');
  return out;
}

const coupons = scanRequirement({
  id: 'SCAN-DEVELOPMENT-FUND-COUPONS',
  level: 'MUST',
  operations: ['listUnclaimedDevelopmentFundCoupons'],
  section: SECTION.coupons,
  sentence: '200 `{"unclaimed-development-fund-coupons": ContractWithState[]}`, contracts of the template named `UnclaimedDevelopmentFundCoupon`',
  tags: ['misc'],
  async check(ctx) {
    const x = await ctx.scan.get('/v0/unclaimed-development-fund-coupons');
    const list = okObject(ctx, x, 'development fund coupons')['unclaimed-development-fund-coupons'];
    if (!Array.isArray(list)) ctx.fail('unclaimed-development-fund-coupons is not an array', { exchange: x, pointer: '/unclaimed-development-fund-coupons' });
    for (const [k, c] of list.entries()) {
      const problems = contractWithStateProblems(c);
      // A template id ends with the template's name (package:module:entity).
      const template = c?.contract?.template_id;
      if (typeof template === 'string' && template.split(':').at(-1) !== 'UnclaimedDevelopmentFundCoupon') problems.push(`template ${template} is not UnclaimedDevelopmentFundCoupon`);
      if (problems.length > 0) ctx.fail(`coupon ${k}: ${problems.join('; ')}`, { exchange: x, pointer: `/unclaimed-development-fund-coupons/${k}` });
    }
  },
});

const preapprovals = scanRequirement({
  id: 'SCAN-TRANSFER-PREAPPROVAL',
  level: 'MUST',
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
});

export const MISC_REQUIREMENTS: Requirement[] = [backfilling, features, synchronizerIdentities, coupons, preapprovals];
