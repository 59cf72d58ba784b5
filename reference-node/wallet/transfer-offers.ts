// The transfer offers of one node's wallets: the world's, and those its users create through the interface.
// A created offer stays `created` until the ledger clock reaches its expiry, then the automation expires it
// (`failed`, expired). The status of an offer is its sender's to ask (404 for everyone else); the open offers,
// the active TransferOffer contracts, are listed to their senders and receivers. An accepted offer is no longer
// a TransferOffer (accepting archives it), so it is not listed.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { contractRecord } from '../scan/contracts.ts';
import type { Contract } from '../world/model.ts';
import { derivedHex } from '../world/rng.ts';
import { transferOfferContract } from '../world/transfer-offers.ts';
import type { WalletCaller } from './caller.ts';
import { WalletError } from './errors.ts';
import type { TransferOfferBody } from './transfer-offer-body.ts';

interface Offer {
  trackingId: string;
  sender: string;
  receiver: string;
  contract: Contract;
  status: JsonObject;
}

interface CreatedOffer {
  contract: Contract;
  transactionId: string;
  expiresAtMicros: number;
}

export class TransferOffers {
  /** Offers created through the interface, by JSON [sender, tracking id]. */
  private readonly created = new Map<string, CreatedOffer>();
  /** Offers already reported failed, by JSON [sender, tracking id] (for wallet-failed-offer-revived). */
  private readonly reportedFailed = new Set<string>();

  constructor(private readonly ctx: NodeContext) {}

  /** Creates the caller's offer; its contract id. 409 when the caller already has an offer with that tracking id. */
  create(caller: WalletCaller, body: TransferOfferBody): string {
    const key = JSON.stringify([caller.party, body.trackingId]);
    if (this.created.has(key) || this.ctx.world.transferOffers.some((o) => o.sender === caller.party && o.trackingId === body.trackingId)) {
      throw new WalletError(409, `A transfer offer with tracking id ${body.trackingId} was already created; check its status instead of resubmitting`);
    }
    const now = this.ctx.clock.now();
    // The command fails before creating anything, so the tracking id stays free.
    if (body.expiresAtMicros <= now) {
      throw new WalletError(400, `Transfer offer command failed: expires_at ${body.expiresAtMicros} is not after the ledger time ${now}`);
    }
    // The simulated ledger's history never changes: the offer lives in this wallet only, dated after the history.
    const label = `transfer-offer:${caller.party}:${body.trackingId}`;
    const contract = transferOfferContract(
      this.ctx.world,
      '00' + derivedHex(this.ctx.settings.seed, label, 36),
      { ...body, sender: caller.party },
      now,
      this.ctx.world.count - 1,
    );
    this.created.set(key, { contract, transactionId: '1220' + derivedHex(this.ctx.settings.seed, `${label}:tx`, 32), expiresAtMicros: body.expiresAtMicros });
    return contract.contractId;
  }

  /** The status of the caller's offer with this tracking id, as the wallet reports it. */
  status(caller: WalletCaller, trackingId: string): JsonObject {
    const withId = this.offers().filter((o) => o.trackingId === trackingId);
    const offer = withId.find((o) => o.sender === caller.party) ?? (this.ctx.faults.has('wallet-other-users-offer-visible') ? withId[0] : undefined);
    if (offer) {
      // failed-offer-revived: the first lookup of a failed offer says failed, the later ones created again.
      if (offer.status.status === 'failed' && this.ctx.faults.has('wallet-failed-offer-revived')) {
        const key = JSON.stringify([offer.sender, trackingId]);
        if (this.reportedFailed.has(key))
          return { status: 'created', transaction_id: transactionId(this.ctx, trackingId), contract_id: offer.contract.contractId };
        this.reportedFailed.add(key);
      }
      return render(this.ctx, offer);
    }
    if (withId.length === 0 && this.ctx.faults.has('wallet-status-unknown-200')) {
      return { status: 'created', transaction_id: transactionId(this.ctx, trackingId), contract_id: contractId(this.ctx, trackingId) };
    }
    throw new WalletError(404, `No transfer offer with tracking id ${trackingId} found`);
  }

  /** The open offers the caller sends or receives, as Contract records. */
  open(caller: WalletCaller): JsonObject[] {
    return this.offers()
      .filter((o) => o.status.status === 'created' && (o.sender === caller.party || o.receiver === caller.party))
      .map((o) => contractRecord(o.contract));
  }

  /** Every offer with its status at the ledger clock's now: the world's first, then the created ones. */
  private offers(): Offer[] {
    const now = this.ctx.clock.now();
    const created = [...this.created.values()].map(({ contract, transactionId, expiresAtMicros }) => ({
      trackingId: contract.createArguments.trackingId as string,
      sender: contract.signatories[0]!,
      receiver: contract.observers[0]!,
      contract,
      status:
        now < expiresAtMicros
          ? { status: 'created', transaction_id: transactionId, contract_id: contract.contractId }
          : { status: 'failed', failure_kind: 'expired' },
    }));
    return [...this.ctx.world.transferOffers, ...created];
  }
}

/** A copy of the status object; the faults drop, add or rename exactly the fields they name. */
function render(ctx: NodeContext, offer: Offer): JsonObject {
  const { trackingId, status } = offer;
  const out = { ...status, ...misnamed(ctx, offer) };
  if (status.status !== 'failed' && ctx.faults.has('wallet-transfer-status-missing-field')) delete out.contract_id;
  if (status.status === 'failed' && ctx.faults.has('wallet-transfer-status-extra-field')) {
    out.transaction_id = transactionId(ctx, trackingId);
    out.contract_id = contractId(ctx, trackingId);
  }
  // wallet-offer-expired-reported-rejected: an expired offer is reported rejected.
  if (out.failure_kind === 'expired' && ctx.faults.has('wallet-offer-expired-reported-rejected')) out.failure_kind = 'rejected';
  // wallet-null-withdrawn-reason (a deviation): the optional reason of a failed offer sent as null, not left out.
  if (status.status === 'failed' && out.withdrawn_reason === undefined && ctx.faults.has('wallet-null-withdrawn-reason')) out.withdrawn_reason = null;
  return out;
}

const transactionId = (ctx: NodeContext, trackingId: string) => '1220' + derivedHex(ctx.settings.seed, `offer-fault-tx:${trackingId}`, 32);
const contractId = (ctx: NodeContext, trackingId: string) => '00' + derivedHex(ctx.settings.seed, `offer-fault-contract:${trackingId}`, 36);

/**
 * The faults whose ids name real ledger facts, only not the state's own: another update of the sender's, the
 * offer the acceptance consumed instead of the accepted offer it created, the sender's change instead of the
 * receiver's holding.
 */
function misnamed(ctx: NodeContext, offer: Offer): JsonObject {
  const { world, faults } = ctx;
  const state = offer.status.status;
  if (state === 'created' && faults.has('wallet-offer-created-foreign-transaction')) {
    const other = world.transferOffers.find((o) => o.sender === offer.sender && o.trackingId !== offer.trackingId);
    const update = other && world.ledgerOnly.get(other.contract.createdIn);
    return update ? { transaction_id: update.updateId } : {};
  }
  if (state === 'accepted' && faults.has('wallet-offer-accepted-names-offer')) return { contract_id: offer.contract.contractId };
  if (state === 'completed' && faults.has('wallet-offer-completed-sender-change')) {
    const transfer = [...world.ledgerOnly.values()].find((u) => u.updateId === offer.status.transaction_id);
    const change =
      transfer?.kind === 'transaction' ? transfer.nodes.find((n) => n.kind === 'created' && n.contract.createArguments.owner === offer.sender) : undefined;
    return change?.kind === 'created' ? { contract_id: change.contract.contractId } : {};
  }
  return {};
}
