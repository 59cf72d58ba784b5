// The transfer offers of one node's wallets: the world's, whose states are fixed, and those its users create
// through the interface, which live. A created offer is open (`created`) until its receiver, another wallet
// user, accepts or rejects it, its sender withdraws it, or the ledger clock reaches its expiry and the sender's
// automation expires it. An accepted offer is completed by the sender's automation a little later (the
// transfer creates the receiver's holding), unless it expires first. Every step is a transaction on the
// ledger, and the status names the ids it created. The status of an offer is its sender's to ask (404 for
// everyone else); the open offers, the active TransferOffer contracts, are listed to senders and receivers.
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { contractRecord } from '../scan/contracts.ts';
import { exercise } from '../world/exercise.ts';
import type { Contract, TxNode } from '../world/model.ts';
import { derivedHex } from '../world/rng.ts';
import {
  acceptanceNodes,
  acceptedOfferContract,
  CHANGE_AMOUNT,
  completionNodes,
  type FailureKind,
  failedStatus,
  holdingContract,
  offerEnd,
  transferOfferContract,
} from '../world/transfer-offers.ts';
import type { WalletCaller } from './caller.ts';
import { WalletError } from './errors.ts';
import { OFFER_COMPLETION_DELAY_MICROS } from './ledger-timing.ts';
import { type LedgerSlot, recordWalletTransaction } from './offer-ledger.ts';
import type { TransferOfferBody } from './transfer-offer-body.ts';

interface Offer {
  trackingId: string;
  sender: string;
  receiver: string;
  contract: Contract;
  status: JsonObject;
}

/** An offer created through the interface; `status` changes as it lives. */
interface LiveOffer extends Offer {
  expiresAtMicros: number;
  /** The accepted offer, once the receiver accepted. */
  accepted?: Contract;
}

/** States of an offer not (yet) failed. */
const ACTIVE: ReadonlySet<string> = new Set(['created', 'accepted', 'completed']);

/** The reason the wallet gives a withdrawal its user asked for. */
const WITHDRAWN_BY_SENDER = 'withdrawn by the sender';

export class TransferOffers {
  /** Offers created through the interface, by JSON [sender, tracking id]. */
  private readonly created = new Map<string, LiveOffer>();
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
    let contract: Contract | undefined;
    const tx = this.record(caller.party, (slot) => {
      contract = transferOfferContract(this.ctx.world, slot.contractId(0), { ...body, sender: caller.party }, slot.createdAtMicros, slot.index);
      return [{ nodeId: 0, kind: 'created', contract }];
    });
    const offer: LiveOffer = {
      trackingId: body.trackingId,
      sender: caller.party,
      receiver: body.receiver,
      contract: contract!,
      expiresAtMicros: body.expiresAtMicros,
      status: { status: 'created', transaction_id: tx.updateId, contract_id: contract!.contractId },
    };
    this.created.set(key, offer);
    this.ctx.clock.schedule(body.expiresAtMicros, () => this.expire(offer));
    return offer.contract.contractId;
  }

  /** The receiver accepts an open offer: the accepted offer's contract id. The sender's automation completes it later. */
  accept(caller: WalletCaller, contractId: string): string {
    const offer = this.openOffer(contractId, (o) => o.receiver === caller.party);
    let accepted: Contract | undefined;
    const tx = this.record(offer.receiver, (slot) => {
      accepted = acceptedOfferContract(this.ctx.world, offer.contract, slot.contractId(1), slot.createdAtMicros, slot.index);
      return acceptanceNodes(offer.contract, accepted);
    });
    offer.accepted = accepted!;
    offer.status = { status: 'accepted', transaction_id: tx.updateId, contract_id: accepted!.contractId };
    this.ctx.clock.schedule(this.ctx.clock.now() + OFFER_COMPLETION_DELAY_MICROS, () => this.complete(offer));
    return accepted!.contractId;
  }

  /** The receiver rejects an open offer. */
  reject(caller: WalletCaller, contractId: string): void {
    this.end(
      this.openOffer(contractId, (o) => o.receiver === caller.party),
      'rejected',
    );
  }

  /** The sender withdraws an open offer. */
  withdraw(caller: WalletCaller, contractId: string): void {
    this.end(
      this.openOffer(contractId, (o) => o.sender === caller.party),
      'withdrawn',
    );
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
      return render(this.ctx, this.previousActive(offer) ?? offer);
    }
    if (withId.length === 0 && this.ctx.faults.has('wallet-status-unknown-200')) {
      return { status: 'created', transaction_id: transactionId(this.ctx, trackingId), contract_id: contractId(this.ctx, trackingId) };
    }
    throw new WalletError(404, `No transfer offer with tracking id ${trackingId} found`);
  }

  /**
   * wallet-status-of-previous-offer: an offer in an active state is reported as the sender's offer before it,
   * where that one is in an active state too.
   */
  private previousActive(offer: Offer): Offer | undefined {
    if (!this.ctx.faults.has('wallet-status-of-previous-offer') || !ACTIVE.has(String(offer.status.status))) return undefined;
    const own = this.offers().filter((o) => o.sender === offer.sender);
    const before = own[own.indexOf(offer) - 1];
    return before && ACTIVE.has(String(before.status.status)) ? before : undefined;
  }

  /** The open offers the caller sends or receives, as Contract records. */
  open(caller: WalletCaller): JsonObject[] {
    return this.offers()
      .filter((o) => o.status.status === 'created' && (o.sender === caller.party || o.receiver === caller.party))
      .map((o) => contractRecord(o.contract));
  }

  /** Every offer: the world's first, then the created ones in creation order. */
  private offers(): Offer[] {
    return [...this.ctx.world.transferOffers, ...this.created.values()];
  }

  /** The created offer with this contract id, open and the caller's to act on (`may`); 404 otherwise. */
  private openOffer(contractId: string, may: (o: LiveOffer) => boolean): LiveOffer {
    const offer = [...this.created.values()].find((o) => o.contract.contractId === contractId);
    if (offer?.status.status !== 'created' || !may(offer)) throw new WalletError(404, `No open transfer offer ${contractId} of yours was found`);
    return offer;
  }

  private record(actor: string, nodesAt: (slot: LedgerSlot) => TxNode[]) {
    return recordWalletTransaction(this.ctx, actor, nodesAt);
  }

  /** An open offer ends unaccepted: its choice archives it. */
  private end(offer: LiveOffer, kind: FailureKind): void {
    const node = offerEnd(offer.contract, kind, WITHDRAWN_BY_SENDER);
    this.record(node.actingParties[0]!, () => [node]);
    offer.status = failedStatus(kind, WITHDRAWN_BY_SENDER);
  }

  /** The sender's automation at the offer's expiry: an open offer, or an accepted one not yet completed, expires. */
  private expire(offer: LiveOffer): void {
    if (offer.status.status === 'created') {
      this.end(offer, 'expired');
      return;
    }
    if (offer.status.status !== 'accepted') return;
    this.record(offer.sender, () => [exercise(0, offer.accepted!, 'AcceptedTransferOffer_Expire', { actor: offer.sender }, [offer.sender], true, [], {})]);
    offer.status = failedStatus('expired');
  }

  /** The sender's automation completes an accepted offer: the transfer creates the receiver's holding and the sender's change. */
  private complete(offer: LiveOffer): void {
    if (offer.status.status !== 'accepted') return;
    const { world } = this.ctx;
    const provider = world.validators[0]!.party;
    let received: Contract | undefined;
    const tx = this.record(offer.sender, (slot) => {
      const holding = (nodeId: number, owner: string, amount: string) =>
        holdingContract(world, {
          contractId: slot.contractId(nodeId),
          owner,
          amount,
          round: world.round(slot.index),
          createdAtMicros: slot.createdAtMicros,
          createdIn: slot.index,
        });
      received = holding(1, offer.receiver, (offer.contract.createArguments.amount as JsonObject).amount as string);
      return completionNodes(offer.accepted!, received, holding(2, offer.sender, CHANGE_AMOUNT), provider);
    });
    offer.status = { status: 'completed', transaction_id: tx.updateId, contract_id: received!.contractId };
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
    const transfer = [...world.ledgerOnly.values(), ...world.submitted].find((u) => u.updateId === offer.status.transaction_id);
    const change =
      transfer?.kind === 'transaction' ? transfer.nodes.find((n) => n.kind === 'created' && n.contract.createArguments.owner === offer.sender) : undefined;
    return change?.kind === 'created' ? { contract_id: change.contract.contractId } : {};
  }
  return {};
}
