// Reads a buy-traffic request body: every field present with its type, then checked against the network
// (known party hosted on exactly one participant, known synchronizer). Anything else is a 400.
import { isObject } from '../../common/json.ts';
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
  // A body of another content type arrives as bytes (a Buffer), which is no JSON object either.
  if (!isObject(body) || Buffer.isBuffer(body)) throw invalid('the body must be a JSON object');
  for (const f of [...STRING_FIELDS, ...INTEGER_FIELDS]) if (!(f in body) || body[f] === null) throw invalid(`field ${f} is required`);
  for (const f of STRING_FIELDS) {
    if (typeof body[f] !== 'string') throw invalid(`field ${f} must be a string`);
    if (body[f] === '') throw invalid(`field ${f} must not be empty`);
  }
  for (const f of INTEGER_FIELDS) {
    const v = body[f];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < INT64_MIN || v >= INT64_MAX) throw invalid(`field ${f} must be an int64 integer`);
  }
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
