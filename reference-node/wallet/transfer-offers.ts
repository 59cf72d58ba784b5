// Transfer offer status by tracking id, as the wallet of the calling user reports it: the offer's state
// with exactly the fields of that state, or 404 when this wallet knows no offer with that tracking id.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { derivedHex } from '../world/rng.ts';
import type { WalletCaller } from './caller.ts';
import { WalletError } from './errors.ts';

export function transferOfferStatus(ctx: NodeContext, caller: WalletCaller, trackingId: string): JsonObject {
  const withId = ctx.world.transferOffers.filter((o) => o.trackingId === trackingId);
  const offer = withId.find((o) => o.sender === caller.party) ?? (ctx.faults.has('wallet-other-users-offer-visible') ? withId[0] : undefined);
  if (offer) return render(ctx, trackingId, offer.status);
  if (withId.length === 0 && ctx.faults.has('wallet-status-unknown-200')) {
    return { status: 'created', transaction_id: transactionId(ctx, trackingId), contract_id: contractId(ctx, trackingId) };
  }
  throw new WalletError(404, `No transfer offer with tracking id ${trackingId} found`);
}

/** A copy of the world's status object; the faults drop or add exactly the fields they name. */
function render(ctx: NodeContext, trackingId: string, status: JsonObject): JsonObject {
  const out = { ...status };
  if (status.status !== 'failed' && ctx.faults.has('wallet-transfer-status-missing-field')) delete out.contract_id;
  if (status.status === 'failed' && ctx.faults.has('wallet-transfer-status-extra-field')) {
    out.transaction_id = transactionId(ctx, trackingId);
    out.contract_id = contractId(ctx, trackingId);
  }
  // wallet-null-withdrawn-reason (a deviation): the optional reason of a failed offer sent as null, not left out.
  if (status.status === 'failed' && out.withdrawn_reason === undefined && ctx.faults.has('wallet-null-withdrawn-reason')) out.withdrawn_reason = null;
  return out;
}

const transactionId = (ctx: NodeContext, trackingId: string) => '1220' + derivedHex(ctx.settings.seed, `offer-fault-tx:${trackingId}`, 32);
const contractId = (ctx: NodeContext, trackingId: string) => '00' + derivedHex(ctx.settings.seed, `offer-fault-contract:${trackingId}`, 36);
