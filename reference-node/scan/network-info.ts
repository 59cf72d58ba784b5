// The small reference endpoints: development fund coupons, synchronizer identities, feature support,
// backfilling status and the current migration.
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { contractWithState } from './contracts.ts';
import { badRequest, notFound } from './errors.ts';

export async function networkInfoRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const { world } = ctx;

  app.get('/v0/unclaimed-development-fund-coupons', async () => {
    const list = world.coupons.map((c) => contractWithState(c, world.synchronizers[0]!.id));
    // scan-coupon-wrong-template: the first coupon names the template DevelopmentFundCoupon.
    const first = list[0]?.contract as JsonObject | undefined;
    if (first && ctx.faults.has('scan-coupon-wrong-template'))
      first.template_id = String(first.template_id).replace(/UnclaimedDevelopmentFundCoupon$/, 'DevelopmentFundCoupon');
    return { 'unclaimed-development-fund-coupons': list };
  });

  // scan-synchronizer-miss-repeats-last-hit: the last synchronizer found, which a miss is answered with.
  let lastFound: (typeof world.synchronizers)[number] | undefined;
  app.get('/v0/synchronizer-identities/:domain_id_prefix', async (req) => {
    const { domain_id_prefix } = req.params as { domain_id_prefix: string };
    // scan-synchronizer-prefix-exact-only: only the whole id finds its synchronizer.
    const exact = ctx.faults.has('scan-synchronizer-prefix-exact-only');
    let s = world.synchronizers.find((x) => (exact ? x.id === domain_id_prefix : x.id.startsWith(domain_id_prefix)));
    // scan-synchronizer-prefix-other: a proper prefix finds the synchronizer after the one it names.
    if (s && s.id !== domain_id_prefix && ctx.faults.has('scan-synchronizer-prefix-other'))
      s = world.synchronizers[(world.synchronizers.indexOf(s) + 1) % world.synchronizers.length];
    if (!s && ctx.faults.has('scan-synchronizer-miss-repeats-last-hit')) s = lastFound;
    lastFound = s ?? lastFound;
    if (!s && ctx.faults.has('scan-unknown-synchronizer-400')) throw badRequest(`Invalid synchronizer id prefix: ${domain_id_prefix}`);
    if (!s) throw notFound(`No synchronizer found for prefix ${domain_id_prefix}`);
    return {
      sequencer_id: s.sequencerId,
      sequencer_identity_transactions: s.sequencerIdentityTransactions,
      // scan-synchronizer-mediator-missing: the required mediator_id is left out.
      ...(ctx.faults.has('scan-synchronizer-mediator-missing') ? {} : { mediator_id: s.mediatorId }),
      mediator_identity_transactions: s.mediatorIdentityTransactions,
    };
  });

  // scan-feature-flag-text / scan-backfilling-flag-text: the flags as text instead of booleans.
  app.get('/v0/feature-support', async () => ({ dummy: ctx.faults.has('scan-feature-flag-text') ? 'false' : false }));

  app.get('/v0/migrations/last', async () => ({ migration_id: world.currentMigrationId }));

  app.get('/v0/backfilling/status', async () => ({
    complete: ctx.faults.has('scan-backfilling-flag-text') ? String(world.backfillingComplete) : world.backfillingComplete,
  }));
}
