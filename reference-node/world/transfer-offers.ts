// The wallet users' transfer offers, and the ledger transactions that tell each one's story: the sender
// creates the TransferOffer; the receiver accepts it (an AcceptedTransferOffer, which the sender's automation
// completes with a transfer creating the receiver's holding), rejects it, or the sender withdraws it or lets it expire. The contracts are the senders' and
// receivers', not the DSO's, so these transactions are ledger-only (World.ledgerOnly): scan never shows them.
// The ids the wallet's status reports name these transactions and the contracts they create.
// addTransferOffers is world.ts's, called once while the world is built; the builders of the offers' contracts
// and transactions also serve the wallet's live offers (wallet/transfer-offers.ts).
import type { Contract, ExercisedNode, Party, Synchronizer, TopologyUpdate, TransactionUpdate, TransferOfferRecord, TxNode, Validator } from './model.ts';
import { exercise } from './exercise.ts';
import { ledgerOnlyBase, ledgerOnlyTimeMicros } from './ledger-only.ts';
import { derivedHex } from './rng.ts';
import { isoMicros } from './time.ts';

/** What of the world the offers are made from and added to. */
export interface TransferOfferWorld {
  readonly seed: number;
  readonly dso: Party;
  readonly walletPackage: string;
  readonly amuletPackage: string;
  readonly synchronizers: Synchronizer[];
  readonly validators: Validator[];
  readonly transferOffers: TransferOfferRecord[];
  readonly ledgerOnly: Map<number, TransactionUpdate | TopologyUpdate>;
  ledgerEndMicros(): number;
  contractId(index: number, nodeId: number): string;
  recordTimeMicros(index: number): number;
  migrationOf(index: number): number;
  round(index: number): number;
}

export type FailureKind = 'expired' | 'rejected' | 'withdrawn';
type Outcome = 'created' | 'accepted' | 'completed' | FailureKind;

// Base updates after which the offers' transactions are recorded (offer k at +2k): creations, then the
// acceptances and other endings, then the completions. Even indices only: the ledger's offset checkpoints
// follow odd ones, and a ledger-only update takes the offset just above the update it follows.
const CREATED_AFTER = 20;
const ENDED_AFTER = 120;
const COMPLETED_AFTER = 180;

const DAY = 86_400_000_000;
/** The expiring offer's lifetime: shorter than the time from its creation to its expiry transaction. */
const SHORT_LIFETIME = 60_000_000;
const OFFER_TEMPLATE = 'Splice.Wallet.TransferOffer:TransferOffer';
const ACCEPTED_TEMPLATE = 'Splice.Wallet.TransferOffer:AcceptedTransferOffer';
const AMULET_TEMPLATE = 'Splice.Amulet:Amulet';
const WITHDRAWN_REASON = 'insufficient funds';
/** What the sender keeps of the inputs of a completed transfer. */
export const CHANGE_AMOUNT = '4.0000000000';

export function addTransferOffers(w: TransferOfferWorld, users: Party[]): void {
  const [alice, bob] = [users[0]!.id, users[1]!.id];
  const provider = w.validators[0]!.party;
  const txId = (k: string) => '1220' + derivedHex(w.seed, `offer-tx:${k}`, 32);
  // Senders and receivers are all hosted on the ledger participant; bob's offer involves no party of alice's.
  // [tracking id, sender, receiver, outcome, amount, description, the ids the wallet's status reports (label of
  // the transaction id, node of the contract id)]
  const offers: Array<[string, string, string, Outcome, string, string, [string, number]?]> = [
    ['offer-created-1', alice, bob, 'created', '25.0000000000', 'Lunch', ['c1', 4000]],
    ['offer-accepted-1', alice, bob, 'accepted', '12.5000000000', 'Tickets', ['a1', 4001]],
    ['offer-completed-1', alice, bob, 'completed', '100.0000000000', 'Rent', ['d1', 4002]],
    ['offer-failed-expired', alice, bob, 'expired', '3.0000000000', 'Coffee'],
    ['offer-failed-rejected', alice, provider, 'rejected', '7.2500000000', 'Fees'],
    ['offer-failed-withdrawn', alice, bob, 'withdrawn', '500.0000000000', 'Deposit'],
    ['offer-bob-created', bob, provider, 'created', '42.0000000000', '', ['b1', 4003]],
  ];
  for (const [k, [trackingId, sender, receiver, outcome, amount, description, ids]] of offers.entries()) {
    const reported = ids === undefined ? undefined : { transaction_id: txId(ids[0]), contract_id: w.contractId(0, ids[1]) };
    const own = (step: string) => '1220' + derivedHex(w.seed, `offer-${step}:${trackingId}`, 32);
    const tx = (after: number, updateId: string, submitter: string, nodes: TxNode[]): TransactionUpdate => {
      const base = ledgerOnlyBase(w, after, updateId);
      return {
        ...base,
        kind: 'transaction',
        workflowId: 'wallet',
        commandId: `cmd-${derivedHex(w.seed, `cmd:${updateId}`, 6)}`,
        submitters: [submitter],
        effectiveAtMicros: base.recordTimeMicros - 250,
        rootNodeIds: [0],
        nodes,
        paidTrafficCost: 900 + k * 17,
      };
    };
    const createdAt = ledgerOnlyTimeMicros(w, CREATED_AFTER + 2 * k) - 250;
    const open = outcome === 'created' || outcome === 'accepted';
    const expiresAt = open ? w.ledgerEndMicros() + 30 * DAY : createdAt + (outcome === 'expired' ? SHORT_LIFETIME : DAY);
    const terms = { sender, receiver, amount, description, expiresAtMicros: expiresAt, trackingId };
    const offerId = outcome === 'created' ? reported!.contract_id : w.contractId(0, 4100 + k);
    const offer = transferOfferContract(w, offerId, terms, createdAt, CREATED_AFTER + 2 * k);
    const createUpdateId = outcome === 'created' ? reported!.transaction_id : own('create');
    w.ledgerOnly.set(CREATED_AFTER + 2 * k, tx(CREATED_AFTER + 2 * k, createUpdateId, sender, [{ nodeId: 0, kind: 'created', contract: offer }]));

    const ended = ENDED_AFTER + 2 * k;
    if (outcome === 'accepted' || outcome === 'completed') {
      const acceptedId = outcome === 'accepted' ? reported!.contract_id : w.contractId(0, 4200 + k);
      const accepted = acceptedOfferContract(w, offer, acceptedId, ledgerOnlyTimeMicros(w, ended) - 250, ended);
      w.ledgerOnly.set(ended, tx(ended, outcome === 'accepted' ? reported!.transaction_id : own('accept'), receiver, acceptanceNodes(offer, accepted)));
      if (outcome === 'completed') {
        // The transfer creates the receiver's holding (the contract the wallet's status names) and the sender's change.
        const done = COMPLETED_AFTER + 2 * k;
        const holding = (contractId: string, owner: string, holdingAmount: string) =>
          holdingContract(w, {
            contractId,
            owner,
            amount: holdingAmount,
            round: w.round(done),
            createdAtMicros: ledgerOnlyTimeMicros(w, done) - 250,
            createdIn: done,
          });
        const received = holding(reported!.contract_id, receiver, amount);
        const change = holding(w.contractId(0, 4300 + k), sender, CHANGE_AMOUNT);
        w.ledgerOnly.set(done, tx(done, reported!.transaction_id, sender, completionNodes(accepted, received, change, provider)));
      }
    } else if (outcome !== 'created') {
      const end = offerEnd(offer, outcome, WITHDRAWN_REASON);
      w.ledgerOnly.set(ended, tx(ended, own('end'), end.actingParties[0]!, [end]));
    }
    w.transferOffers.push({ trackingId, sender, receiver, contract: offer, status: statusOf(outcome, reported) });
  }
}

function statusOf(outcome: Outcome, reported: { transaction_id: string; contract_id: string } | undefined): Record<string, unknown> {
  if (outcome === 'created' || outcome === 'accepted' || outcome === 'completed') return { status: outcome, ...reported };
  return failedStatus(outcome, WITHDRAWN_REASON);
}

/** The wallet's status of an offer that failed this way (a withdrawal with its reason). */
export function failedStatus(kind: FailureKind, withdrawnReason?: string): Record<string, unknown> {
  return kind === 'withdrawn' ? { status: 'failed', failure_kind: kind, withdrawn_reason: withdrawnReason } : { status: 'failed', failure_kind: kind };
}

/** The offer's terms as the transactions that end it report them. */
const trackingInfo = (offer: Contract) => {
  const { trackingId, sender, receiver } = offer.createArguments;
  return { trackingInfo: { trackingId, sender, receiver } };
};

/** The exercise that ends an offer nobody accepted: the sender's expiry or withdrawal, or the receiver's rejection. */
export function offerEnd(offer: Contract, kind: FailureKind, withdrawnReason: string): ExercisedNode {
  const [sender, receiver] = [offer.createArguments.sender as string, offer.createArguments.receiver as string];
  const [choice, arg, actor]: [string, Record<string, unknown>, string] =
    kind === 'expired'
      ? ['TransferOffer_Expire', { actor: sender }, sender]
      : kind === 'rejected'
        ? ['TransferOffer_Reject', {}, receiver]
        : ['TransferOffer_Withdraw', { reason: withdrawnReason }, sender];
  return exercise(0, offer, choice, arg, [actor], true, [], trackingInfo(offer));
}

/** The accepted offer that accepting `offer` creates: the offer's terms but its description, signed by both. */
export function acceptedOfferContract(
  w: Pick<TransferOfferWorld, 'walletPackage' | 'amuletPackage'>,
  offer: Contract,
  contractId: string,
  createdAtMicros: number,
  createdIn: number,
): Contract {
  const { description: _, ...withoutDescription } = offer.createArguments;
  const parties = [offer.createArguments.sender as string, offer.createArguments.receiver as string];
  return contract(w, { contractId, template: ACCEPTED_TEMPLATE, args: withoutDescription, createdAtMicros, signatories: parties, observers: [], createdIn });
}

/** The receiver's acceptance: the offer archived by TransferOffer_Accept, creating the accepted offer. */
export function acceptanceNodes(offer: Contract, accepted: Contract): TxNode[] {
  const receiver = offer.createArguments.receiver as string;
  return [
    exercise(0, offer, 'TransferOffer_Accept', {}, [receiver], true, [1], { acceptedTransferOffer: accepted.contractId }),
    { nodeId: 1, kind: 'created', contract: accepted },
  ];
}

/** The transfer: the sender's automation (with its provider) completes the accepted offer, creating the receiver's holding and the sender's change. */
export function completionNodes(accepted: Contract, received: Contract, change: Contract, provider: string): TxNode[] {
  const sender = accepted.createArguments.sender as string;
  const completion = exercise(0, accepted, 'AcceptedTransferOffer_Complete', { inputs: [], walletProvider: provider }, [sender, provider], true, [1, 2], {
    ...trackingInfo(accepted),
    senderChangeAmulet: change.contractId,
  });
  return [completion, ...[received, change].map((c, i) => ({ nodeId: i + 1, kind: 'created' as const, contract: c }))];
}

/** An amulet holding of `owner`, created in round `round`. */
export function holdingContract(
  w: Pick<TransferOfferWorld, 'dso' | 'walletPackage' | 'amuletPackage'>,
  h: { contractId: string; owner: string; amount: string; round: number; createdAtMicros: number; createdIn: number },
): Contract {
  return contract(w, {
    contractId: h.contractId,
    template: AMULET_TEMPLATE,
    args: {
      dso: w.dso.id,
      owner: h.owner,
      amount: { initialAmount: h.amount, createdAt: { number: String(h.round) }, ratePerRound: { rate: '0.0000190259' } },
    },
    createdAtMicros: h.createdAtMicros,
    signatories: [w.dso.id, h.owner],
    observers: [],
    createdIn: h.createdIn,
  });
}

/** The terms of a transfer offer, as the sender gives them. */
export interface OfferTerms {
  sender: string;
  receiver: string;
  /** A Daml decimal with ten fractional digits. */
  amount: string;
  description: string;
  expiresAtMicros: number;
  trackingId: string;
}

/** The TransferOffer contract of an offer: the sender signs it, the receiver observes it. */
export function transferOfferContract(
  w: Pick<TransferOfferWorld, 'dso' | 'walletPackage' | 'amuletPackage'>,
  contractId: string,
  t: OfferTerms,
  createdAtMicros: number,
  createdIn: number,
): Contract {
  return contract(w, {
    contractId,
    template: OFFER_TEMPLATE,
    args: {
      sender: t.sender,
      receiver: t.receiver,
      dso: w.dso.id,
      amount: { amount: t.amount, unit: 'AmuletUnit' },
      description: t.description,
      expiresAt: isoMicros(t.expiresAtMicros),
      trackingId: t.trackingId,
    },
    createdAtMicros,
    signatories: [t.sender],
    observers: [t.receiver],
    createdIn,
  });
}

function contract(
  w: Pick<TransferOfferWorld, 'walletPackage' | 'amuletPackage'>,
  c: {
    contractId: string;
    template: string;
    args: Record<string, unknown>;
    createdAtMicros: number;
    signatories: string[];
    observers: string[];
    createdIn: number;
  },
): Contract {
  const wallet = c.template.startsWith('Splice.Wallet');
  return {
    contractId: c.contractId,
    templateId: `${wallet ? w.walletPackage : w.amuletPackage}:${c.template}`,
    packageName: wallet ? 'splice-wallet' : 'splice-amulet',
    createArguments: c.args,
    createdAtMicros: c.createdAtMicros,
    signatories: c.signatories,
    observers: c.observers,
    createdIn: c.createdIn,
    createdEventBlob: Buffer.from(`blob:${c.contractId}`).toString('base64'),
  };
}
