// GET /v2/state/ledger-end, latest-pruned-offsets and connected-synchronizers: where the participant's stream ends (the
// offset the update stream reads up to), and the synchronizers it is connected to: all of the network's, the
// reassignments move contracts between them. Asked about a party, the answer is the synchronizers where the
// party is hosted on the participant (this one unless another is named), with its newest permission there.
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import { authenticated, queryParameter } from './authenticated-route.ts';
import { baseStream } from './base-stream.ts';
import { requireReadRights } from './callers.ts';
import { currentLedgerEnd } from './offsets.ts';

const UNSPECIFIED = 'PARTICIPANT_PERMISSION_UNSPECIFIED';
const PRUNED_FAULT_OFFSET = 10;
/** A hosting no topology event of this stream describes (a party hosted elsewhere) is taken as a full one. */
const DEFAULT_PERMISSION = 'PARTICIPANT_PERMISSION_SUBMISSION';

export function participantStateRoutes(app: FastifyInstance, ctx: NodeContext): void {
  const { world } = ctx;
  app.get(
    '/state/ledger-end',
    authenticated(ctx, () => ({ offset: currentLedgerEnd(world) })),
  );
  // Nothing of the history is pruned. ledger-pruned-reads-served: the participant says it is pruned up to offset
  // PRUNED_FAULT_OFFSET, yet serves reads beginning below it.
  app.get(
    '/state/latest-pruned-offsets',
    authenticated(ctx, () => {
      const pruned = ctx.faults.has('ledger-pruned-reads-served') ? PRUNED_FAULT_OFFSET : 0;
      return { participantPrunedUpToInclusive: pruned, allDivulgedContractsPrunedUpToInclusive: pruned };
    }),
  );
  app.get(
    '/state/connected-synchronizers',
    authenticated(ctx, (req, caller) => {
      const party = queryParameter(req, 'party') || undefined;
      const participant = queryParameter(req, 'participantId') || world.ledgerParticipant.id;
      if (party === undefined) {
        return { connectedSynchronizers: world.synchronizers.map((s) => ({ synchronizerAlias: s.alias, synchronizerId: s.id, permission: UNSPECIFIED })) };
      }
      requireReadRights(caller, [party], false);
      const hosted = world.parties.some((p) => p.id === party && p.hostedOn.includes(participant));
      const permission = hosted ? newestPermission(ctx, party, participant) : undefined;
      return {
        connectedSynchronizers: permission ? world.synchronizers.map((s) => ({ synchronizerAlias: s.alias, synchronizerId: s.id, permission })) : [],
      };
    }),
  );
}

/** The party's permission on the participant after the stream's topology events (undefined once revoked). */
function newestPermission(ctx: NodeContext, party: string, participant: string): string | undefined {
  let permission: string | undefined = DEFAULT_PERMISSION;
  for (const { update } of baseStream(ctx.world)) {
    if (update.kind !== 'topology') continue;
    for (const e of update.events) {
      if (e.partyId === party && e.participantId === participant) permission = e.type === 'Revoked' ? undefined : (e.permission ?? permission);
    }
  }
  return permission;
}
