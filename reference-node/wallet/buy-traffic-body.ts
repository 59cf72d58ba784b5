// Reads a buy-traffic request body: every field present with its type, then checked against the network
// (known party hosted on exactly one participant, known synchronizer). Anything else is a 400.
import type { NodeContext } from '../context.ts';
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

const INT64_MIN = -(2 ** 63);
const INT64_MAX = 2 ** 63;

const STRING_FIELDS = ['receiving_validator_party_id', 'domain_id', 'tracking_id'] as const;
const INTEGER_FIELDS = ['traffic_amount', 'expires_at'] as const;

const invalid = (message: string) => new InvalidInputError(`Invalid buy traffic request: ${message}`);

export function readBuyTrafficBody(ctx: NodeContext, body: unknown): BuyTrafficBody {
  if (body === undefined) throw invalid('a JSON body is required');
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) throw invalid('the body must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const f of [...STRING_FIELDS, ...INTEGER_FIELDS]) if (!(f in b) || b[f] === null) throw invalid(`field ${f} is required`);
  for (const f of STRING_FIELDS) {
    if (typeof b[f] !== 'string') throw invalid(`field ${f} must be a string`);
    if (b[f] === '') throw invalid(`field ${f} must not be empty`);
  }
  for (const f of INTEGER_FIELDS) {
    const v = b[f];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < INT64_MIN || v >= INT64_MAX) throw invalid(`field ${f} must be an int64 integer`);
  }
  const trafficAmount = b.traffic_amount as number;
  if (trafficAmount <= 0) throw invalid('traffic_amount must be a positive number of bytes');

  const partyId = b.receiving_validator_party_id as string;
  const party = ctx.world.parties.find((p) => p.id === partyId);
  if (!party) throw invalid(`party ${partyId} is not known`);
  if (party.hostedOn.length > 1 && !ctx.faults.has('wallet-multi-hosted-accepted')) {
    throw invalid(`party ${partyId} is hosted on multiple participants (${party.hostedOn.join(', ')})`);
  }
  const domainId = b.domain_id as string;
  if (!ctx.world.synchronizers.some((s) => s.id === domainId)) throw invalid(`domain ${domainId} is not known`);

  return {
    receivingParty: partyId, participantId: party.hostedOn[0]!, domainId, trafficAmount,
    trackingId: b.tracking_id as string, expiresAtMicros: b.expires_at as number,
  };
}
