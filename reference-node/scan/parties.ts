// Per-party lookups: GET /v0/transfer-preapprovals/by-party/{party} and
// GET /v1/domains/{domain_id}/parties/{party_id}/participant-id (every hosting participant).
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { contractWithState } from './contracts.ts';
import { notFound } from './errors.ts';
import { datedRoutes } from './releases.ts';

export async function partyRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.get('/v0/transfer-preapprovals/by-party/:party', async (req) => {
    const { party } = req.params as { party: string };
    let p = ctx.world.preapprovals.get(party);
    if (!p) throw notFound(`No transfer preapproval found for party ${party}`);
    // scan-preapproval-other-receiver: another receiver's preapproval (the next one the network holds).
    if (ctx.faults.has('scan-preapproval-other-receiver')) {
      const all = [...ctx.world.preapprovals.values()];
      p = all[(all.indexOf(p) + 1) % all.length]!;
    }
    const record = contractWithState(p.contract, p.domainId);
    // scan-preapproval-created-at-text: a space instead of T and no zone.
    if (ctx.faults.has('scan-preapproval-created-at-text')) {
      const c = record.contract as JsonObject;
      c.created_at = String(c.created_at).replace('T', ' ').replace('Z', '');
    }
    return { transfer_preapproval: record };
  });

  datedRoutes(app, ctx).get('/v1/domains/:domain_id/parties/:party_id/participant-id', async (req) => {
    const { domain_id, party_id } = req.params as { domain_id: string; party_id: string };
    if (!ctx.world.synchronizers.some((s) => s.id === domain_id)) throw notFound(`Synchronizer ${domain_id} not found`);
    const party = ctx.world.parties.find((p) => p.id === party_id);
    if (!party || party.hostedOn.length === 0) throw notFound(`No participant found hosting party ${party_id} on ${domain_id}`);
    // scan-participant-id-format: the PAR:: code is left off.
    let ids = ctx.faults.has('scan-participant-id-format') ? party.hostedOn.map((id) => id.replace(/^PAR::/, '')) : party.hostedOn;
    // scan-participant-id-no-fingerprint: the uid's namespace is cut off.
    if (ctx.faults.has('scan-participant-id-no-fingerprint')) ids = ids.map((id) => id.replace(/::[^:]+$/, ''));
    // scan-participant-id-first-only: as v0 does, one participant of a party hosted on several.
    if (ctx.faults.has('scan-participant-id-first-only')) ids = ids.slice(0, 1);
    // scan-participant-id-wrong-host: a party hosted on one participant is answered with the next participant of the network.
    if (ctx.faults.has('scan-participant-id-wrong-host') && ids.length === 1) {
      const all = ctx.world.participants.map((p) => p.id);
      ids = [all[(all.indexOf(party.hostedOn[0]!) + 1) % all.length]!];
    }
    return { participant_ids: ids };
  });
}
