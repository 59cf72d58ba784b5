// GET /v0/domains/{domain_id}/members/{member_id}/traffic-status: a member's extra traffic, as the ledger
// holds it at request time. The limit never exceeds what was purchased (a purchase may still be pending).
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import { badRequest, notFound } from './errors.ts';

/** code::id::fingerprint with code PAR (participant) or MED (mediator). */
export const MEMBER_ID = /^(PAR|MED)::[^:]+::[^:]+$/;

export async function trafficRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.get('/v0/domains/:domain_id/members/:member_id/traffic-status', async (req) => {
    const { domain_id, member_id } = req.params as { domain_id: string; member_id: string };
    // scan-traffic-med-refused: only the PAR code is taken for a well-formed member id.
    if (ctx.faults.has('scan-traffic-med-refused') && member_id.startsWith('MED::'))
      throw badRequest(`Invalid member id: ${member_id} (expected PAR::id::fingerprint)`);
    if (!MEMBER_ID.test(member_id) && !ctx.faults.has('scan-member-id-unchecked')) {
      throw badRequest(`Invalid member id: ${member_id} (expected PAR::id::fingerprint or MED::id::fingerprint)`);
    }
    if (!ctx.world.synchronizers.some((s) => s.id === domain_id)) throw notFound(`Synchronizer ${domain_id} not found`);
    const t = ctx.world.memberTraffic.get(member_id);
    if (!t) throw notFound(`No traffic state found for member ${member_id}`);
    let limit = ctx.faults.has('scan-traffic-limit-above-purchased') ? t.totalPurchased + 1 : t.totalLimit;
    let purchased = t.totalPurchased;
    if (ctx.faults.has('scan-traffic-actual-target-swapped')) [limit, purchased] = [purchased, limit];
    return { traffic_status: { actual: { total_consumed: t.totalConsumed, total_limit: limit }, target: { total_purchased: purchased } } };
  });
}
