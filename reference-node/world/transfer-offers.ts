// The wallet users' transfer offers, and the ledger transactions that tell each one's story: the sender
// creates the TransferOffer; the receiver accepts it (an AcceptedTransferOffer, which the sender's automation
// completes with a transfer creating the receiver's holding), rejects it, or the sender withdraws it or lets it expire. The contracts are the senders' and
// receivers', not the DSO's, so these transactions are ledger-only (World.ledgerOnly): scan never shows them.
// The ids the wallet's status reports name these transactions and the contracts they create.
// Apart from world.ts, which calls it once while the world is built.
import type { Contract, Party, Synchronizer, TopologyUpdate, TransactionUpdate, TransferOfferRecord, TxNode, Validator } from './model.ts';
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

type Outcome = 'created' | 'accepted' | 'completed' | 'expired' | 'rejected' | 'withdrawn';

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
const CHANGE_AMOUNT = '4.0000000000';

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

    const trackingInfo = { trackingInfo: { trackingId, sender, receiver } };
    const ended = ENDED_AFTER + 2 * k;
    if (outcome === 'accepted' || outcome === 'completed') {
      // An accepted offer carries the offer's terms but its description.
      const { description: _, ...withoutDescription } = offer.createArguments;
      const accepted = contract(w, {
        contractId: outcome === 'accepted' ? reported!.contract_id : w.contractId(0, 4200 + k),
        template: ACCEPTED_TEMPLATE,
        args: withoutDescription,
        createdAtMicros: ledgerOnlyTimeMicros(w, ended) - 250,
        signatories: [sender, receiver],
        observers: [],
        createdIn: ended,
      });
      const acceptance = [
        exercise(0, offer, 'TransferOffer_Accept', {}, [receiver], true, [1], { acceptedTransferOffer: accepted.contractId }),
        { nodeId: 1, kind: 'created' as const, contract: accepted },
      ];
      w.ledgerOnly.set(ended, tx(ended, outcome === 'accepted' ? reported!.transaction_id : own('accept'), receiver, acceptance));
      if (outcome === 'completed') {
        // The transfer creates the receiver's holding (the contract the wallet's status names) and the sender's change.
        const done = COMPLETED_AFTER + 2 * k;
        const holding = (contractId: string, owner: string, holdingAmount: string) =>
          contract(w, {
            contractId,
            template: AMULET_TEMPLATE,
            args: {
              dso: w.dso.id,
              owner,
              amount: { initialAmount: holdingAmount, createdAt: { number: String(w.round(done)) }, ratePerRound: { rate: '0.0000190259' } },
            },
            createdAtMicros: ledgerOnlyTimeMicros(w, done) - 250,
            signatories: [w.dso.id, owner],
            observers: [],
            createdIn: done,
          });
        const received = holding(reported!.contract_id, receiver, amount);
        const change = holding(w.contractId(0, 4300 + k), sender, CHANGE_AMOUNT);
        const completion = exercise(0, accepted, 'AcceptedTransferOffer_Complete', { inputs: [], walletProvider: provider }, [sender, provider], true, [1, 2], {
          ...trackingInfo,
          senderChangeAmulet: change.contractId,
        });
        const created = [received, change].map((c, i) => ({ nodeId: i + 1, kind: 'created' as const, contract: c }));
        w.ledgerOnly.set(done, tx(done, reported!.transaction_id, sender, [completion, ...created]));
      }
    } else if (outcome !== 'created') {
      const [choice, arg, actor] =
        outcome === 'expired'
          ? ['TransferOffer_Expire', { actor: sender }, sender]
          : outcome === 'rejected'
            ? ['TransferOffer_Reject', {}, receiver]
            : ['TransferOffer_Withdraw', { reason: WITHDRAWN_REASON }, sender];
      w.ledgerOnly.set(ended, tx(ended, own('end'), actor, [exercise(0, offer, choice, arg, [actor], true, [], trackingInfo)]));
    }
    w.transferOffers.push({ trackingId, sender, receiver, contract: offer, status: statusOf(outcome, reported) });
  }
}

function statusOf(outcome: Outcome, reported: { transaction_id: string; contract_id: string } | undefined): Record<string, unknown> {
  if (outcome === 'created' || outcome === 'accepted' || outcome === 'completed') return { status: outcome, ...reported };
  return outcome === 'withdrawn'
    ? { status: 'failed', failure_kind: outcome, withdrawn_reason: WITHDRAWN_REASON }
    : { status: 'failed', failure_kind: outcome };
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
