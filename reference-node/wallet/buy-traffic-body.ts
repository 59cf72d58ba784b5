// Reads a buy-traffic request body: every field present with its type, then checked against the network
// (known party hosted on exactly one participant, known synchronizer). Anything else is a 400.
import type { NodeContext } from '../context.ts';
import { requiredFields } from './body-fields.ts';
import { InvalidInputError } from './errors.ts';

export interface BuyTrafficBody {
  receivingParty: string;
  /** The participant whose traffic is bought: the one hosting the receiving party. */
  participantId: string;
  domainId: string;
  trafficAmount: number;
  trackingId: string;
  expiresAtMicros: number;
}

const STRING_FIELDS = ['receiving_validator_party_id', 'domain_id', 'tracking_id'] as const;
const INTEGER_FIELDS = ['traffic_amount', 'expires_at'] as const;

const invalid = (message: string) => new InvalidInputError(`Invalid buy traffic request: ${message}`);

export function readBuyTrafficBody(ctx: NodeContext, raw: unknown): BuyTrafficBody {
  const body = requiredFields(raw, STRING_FIELDS, INTEGER_FIELDS, invalid);
  for (const f of STRING_FIELDS) if (body[f] === '') throw invalid(`field ${f} must not be empty`);
  const trafficAmount = body.traffic_amount as number;
  if (trafficAmount <= 0) throw invalid('traffic_amount must be a positive number of bytes');

  const partyId = body.receiving_validator_party_id as string;
  const party = ctx.world.parties.find((p) => p.id === partyId);
  if (!party) throw invalid(`party ${partyId} is not known`);
  if (party.hostedOn.length > 1 && !ctx.faults.has('wallet-multi-hosted-accepted')) {
    throw invalid(`party ${partyId} is hosted on multiple participants (${party.hostedOn.join(', ')})`);
  }
  const domainId = body.domain_id as string;
  if (!ctx.world.synchronizers.some((s) => s.id === domainId)) throw invalid(`domain ${domainId} is not known`);

  return {
    receivingParty: partyId,
    participantId: party.hostedOn[0]!,
    domainId,
    trafficAmount,
    trackingId: body.tracking_id as string,
    expiresAtMicros: body.expires_at as number,
  };
}
