// Reads a transfer offer request body: every field present with its type, the amount a positive Daml decimal,
// the receiver a party of the network, the ids not empty and the texts within the TransferOffer template's
// limits. Anything else is a 400; what the official document leaves open (an offer to oneself) is accepted.
import type { NodeContext } from '../context.ts';
import { requiredFields } from './body-fields.ts';
import { InvalidInputError } from './errors.ts';

export interface TransferOfferBody {
  receiver: string;
  /** The amount as the ledger writes a Daml decimal: ten fractional digits. */
  amount: string;
  description: string;
  expiresAtMicros: number;
  trackingId: string;
}

const STRING_FIELDS = ['receiver_party_id', 'amount', 'description', 'tracking_id'] as const;
const INTEGER_FIELDS = ['expires_at'] as const;
/** Daml's Decimal: up to 28 integral and 10 fractional digits. */
const DECIMAL = /^(\d{1,28})(?:\.(\d{1,10}))?$/;
/** The template's bound on the description and the tracking id. */
const MAX_TEXT = 280;

const invalid = (message: string) => new InvalidInputError(`Invalid transfer offer request: ${message}`);

export function readTransferOfferBody(ctx: NodeContext, raw: unknown): TransferOfferBody {
  const body = requiredFields(raw, STRING_FIELDS, INTEGER_FIELDS, invalid);
  for (const f of ['receiver_party_id', 'tracking_id'] as const) if (body[f] === '') throw invalid(`field ${f} must not be empty`);
  for (const f of ['description', 'tracking_id'] as const)
    if ((body[f] as string).length >= MAX_TEXT) throw invalid(`field ${f} must be shorter than ${MAX_TEXT} characters`);
  const [receiver, amount] = [body.receiver_party_id as string, body.amount as string];
  const m = DECIMAL.exec(amount);
  if (!m || /^0*(\.0*)?$/.test(amount)) throw invalid(`amount must be a positive decimal with at most 10 fractional digits, got ${JSON.stringify(amount)}`);
  if (!ctx.world.parties.some((p) => p.id === receiver)) throw invalid(`party ${receiver} is not known`);
  return {
    receiver,
    amount: `${BigInt(m[1]!)}.${(m[2] ?? '').padEnd(10, '0')}`,
    description: body.description as string,
    expiresAtMicros: body.expires_at as number,
    trackingId: body.tracking_id as string,
  };
}
