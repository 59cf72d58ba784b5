// The DSO as this SV's scan sees it: GET /v0/dso (its party, its rules listing the SVs, the latest open round,
// the SVs' node states), and the SVs' scans and sequencers on the decentralized synchronizer (GET /v0/scans,
// GET /v0/dso-sequencers), grouped by synchronizer as the answers' shapes are.
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import type { Contract } from '../world/model.ts';
import { votingThreshold } from '../world/dso-governance.ts';
import { isoMicros } from '../world/time.ts';
import { contractWithState } from './contracts.ts';
import { latestOpenMiningRound } from './mining-rounds.ts';

export async function dsoRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const { world } = ctx;
  // Every governance contract lives on the decentralized (global) synchronizer, where transactions are recorded.
  const domainId = world.synchronizers[0]!.id;
  const withState = (c: Contract) => contractWithState(c, domainId);
  const { svNodes, dsoRules, svNodeStates } = world.governance;
  const self = svNodes[0]!;

  app.get('/v0/dso', async () => ({
    sv_user: `${self.name}-operator`,
    sv_party_id: self.party,
    dso_party_id: world.dso.id,
    voting_threshold: votingThreshold(svNodes.length),
    latest_mining_round: withState(latestOpenMiningRound(world)),
    amulet_rules: withState(world.amuletRules),
    dso_rules: withState(dsoRules),
    sv_node_states: svNodeStates.map(withState),
    initial_round: '0',
  }));

  app.get('/v0/scans', async () => ({
    scans: [{ domainId, scans: svNodes.map((n) => ({ publicUrl: n.scanUrl, svName: n.name })) }],
  }));

  app.get('/v0/dso-sequencers', async () => ({
    domainSequencers: [
      {
        domainId,
        sequencers: svNodes.map((n) => ({
          migrationId: world.currentMigrationId,
          id: n.sequencerId,
          url: n.sequencerUrl,
          svName: n.name,
          availableAfter: isoMicros(n.sequencerAvailableAfterMicros),
        })),
      },
    ],
  }));
}
