// The small reference endpoints: development fund coupons, synchronizer identities, feature support and
// backfilling status.
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import { contractWithState } from './contracts.ts';
import { notFound } from './errors.ts';

export async function miscRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const { world } = ctx;

  app.get('/v0/unclaimed-development-fund-coupons', async () => ({
    'unclaimed-development-fund-coupons': world.coupons.map((c) => contractWithState(c, world.synchronizers[0]!.id)),
  }));

  app.get('/v0/synchronizer-identities/:domain_id_prefix', async (req) => {
    const { domain_id_prefix } = req.params as { domain_id_prefix: string };
    const s = world.synchronizers.find((x) => x.id.startsWith(domain_id_prefix));
    if (!s) throw notFound(`No synchronizer found for prefix ${domain_id_prefix}`);
    return {
      sequencer_id: s.sequencerId,
      sequencer_identity_transactions: s.sequencerIdentityTransactions,
      mediator_id: s.mediatorId,
      mediator_identity_transactions: s.mediatorIdentityTransactions,
    };
  });

  app.get('/v0/feature-support', async () => ({ dummy: false }));

  app.get('/v0/backfilling/status', async () => ({ complete: world.backfillingComplete }));
}
