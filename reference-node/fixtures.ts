// The fixture file a vendor would write for this node: the ids the suite's checks need, read off the
// simulated network. The node declares the shape itself, so that it imports nothing of the suite; the
// suite's Fixtures accept it as it is.
import type { RunningReferenceNode } from './index.ts';
import { findContract } from './ledger/contract-lookup.ts';
import { isoMicros } from './world/time.ts';

export type TransferOfferState = 'created' | 'accepted' | 'completed' | 'failed';

/** The ids this node knows, under the names of the suite's fixture fields. */
export interface ReferenceFixtures {
  // --- scan ---
  /** The current migration, which has ACS snapshots. */
  migrationId: number;
  /** Its latest ACS snapshot time. */
  snapshotRecordTime: string;
  holdingOwners: string[];
  transactionUpdateIds: string[];
  reassignmentUpdateIds: string[];
  domainId: string;
  memberIds: string[];
  validatorIds: string[];
  partyIds: string[];
  /** The parties hosted on the ledger participant (the ones its update stream shows authorized), with every participant hosting them. */
  partyHosting: Array<{ party: string; synchronizerId: string; participants: string[] }>;
  rounds: number[];
  svParties: string[];
  /** Every accepted reward-weight change of the SVs: the weight and when it took effect. */
  rewardWeightChanges: Array<{ svParty: string; weight: string; effectiveAt: string }>;
  preapprovalParties: string[];
  bulkRange: { start: string; end: string };
  // --- ledger ---
  /** Parties hosted on the ledger participant. */
  ledgerParties: string[];
  /** A hosted party the limited user may not read as (none when it may read as all of them). */
  ledgerForbiddenParty: string | undefined;
  ledgerLimitedToken: string;
  /**
   * A command the limited user may submit that leaves nothing behind: a holding of its own party, on the
   * network's amulet template, created and archived in one transaction (as discovery builds it on a real node).
   */
  ledgerCommands: { commands: unknown[]; actAs: string[] };
  /** Every synchronizer of the network: the participant is connected to all, and hosts the actor on each. */
  ledgerSynchronizers: string[];
  /** A holding the stream shows created and archived, with the offsets of both and a hosted stakeholder. */
  ledgerContract: { contractId: string; offset: number; party: string; archivedOffset?: number };
  /** Its list limit (`http-list-max-elements-limit`), a setting of the node. */
  ledgerListLimit: number;
  // --- wallet ---
  /** Tracking ids of the first wallet user's transfer offers, by state. */
  transferOffers: Partial<Record<TransferOfferState, string[]>>;
  otherUserTransferOffers: string[];
  /** The token of another wallet user, who sent some of them. */
  otherWalletUserToken: string;
  trafficReceiverParty: string;
  multiHostedParty: string;
}

/** The fixtures of a running node, read off its world and credentials. */
export function referenceFixtures(node: RunningReferenceNode): ReferenceFixtures {
  const w = node.context.world;
  const snapshot = w.snapshots
    .filter((s) => s.migrationId === w.currentMigrationId)
    .sort((a, b) => a.recordTimeMicros - b.recordTimeMicros)
    .at(-1)!;
  const hostedHere = w.parties.filter((p) => p.hostedOn.includes(w.ledgerParticipant.id)).map((p) => p.id);
  const txIds: string[] = [];
  const reassignmentIds: string[] = [];
  for (let i = 0; i < w.baseCount && (txIds.length < 12 || reassignmentIds.length < 12); i++) {
    const u = w.getUpdate(i);
    if (u.kind === 'transaction' && txIds.length < 12) txIds.push(u.updateId);
    if ((u.kind === 'assign' || u.kind === 'unassign') && reassignmentIds.length < 12) reassignmentIds.push(u.updateId);
  }
  const offers: ReferenceFixtures['transferOffers'] = {};
  const walletParty = node.credentials.walletUsers[0]!.party;
  const otherUser = node.credentials.walletUsers[1]!;
  for (const o of w.transferOffers.filter((x) => x.sender === walletParty)) {
    const state = o.status.status as TransferOfferState;
    (offers[state] ??= []).push(o.trackingId);
  }
  const lastRound = w.round(w.count - 1);
  const actor = node.credentials.ledgerUserToken.readAs[0]!;
  return {
    migrationId: snapshot.migrationId,
    snapshotRecordTime: isoMicros(snapshot.recordTimeMicros),
    holdingOwners: [...w.bulkHoldingOwners],
    // With a verdict-only id second (a transaction the mediator rejected), as a vendor's list may hold one: the
    // scan knows it only as an event item, and the update paths answer 404 for it.
    transactionUpdateIds: [txIds[0]!, w.rejectedVerdicts[0]!.updateId, ...txIds.slice(1)],
    reassignmentUpdateIds: reassignmentIds,
    domainId: w.synchronizers[0]!.id,
    memberIds: [...w.memberTraffic.keys()],
    validatorIds: w.validators.map((v) => v.party),
    partyIds: [w.multiHostedParty.id, w.validators[0]!.party],
    partyHosting: w.parties
      .filter((p) => p.hostedOn.includes(w.ledgerParticipant.id))
      .sort((a, b) => b.hostedOn.length - a.hostedOn.length)
      .map((p) => ({ party: p.id, synchronizerId: w.synchronizers[0]!.id, participants: [...p.hostedOn] })),
    rounds: [0, 1, 2, 3, Math.max(0, lastRound - 1), lastRound],
    svParties: w.svParties.map((p) => p.id),
    rewardWeightChanges: [...w.svRewardWeights].flatMap(([svParty, changes]) =>
      changes.map((c) => ({ svParty, weight: c.weight, effectiveAt: isoMicros(c.effectiveAtMicros) })),
    ),
    preapprovalParties: [...w.preapprovals.keys()],
    bulkRange: { start: isoMicros(w.recordTimeMicros(0) - 1), end: isoMicros(w.recordTimeMicros(w.count - 1)) },
    ledgerParties: hostedHere,
    ledgerForbiddenParty: hostedHere.find((p) => !node.credentials.ledgerUserToken.readAs.includes(p)),
    ledgerLimitedToken: node.credentials.ledgerUserToken.token,
    ledgerCommands: {
      actAs: [actor],
      commands: [
        {
          CreateAndExerciseCommand: {
            templateId: `${w.amuletPackage}:Splice.Amulet:Amulet`,
            createArguments: { dso: w.dso.id, owner: actor, amount: '5.0' },
            choice: 'Archive',
            choiceArgument: {},
          },
        },
      ],
    },
    ledgerSynchronizers: w.synchronizers.map((s) => s.id),
    ledgerContract: streamedContract(node, hostedHere),
    ledgerListLimit: node.context.settings.listLimit,
    transferOffers: offers,
    otherUserTransferOffers: w.transferOffers.filter((x) => x.sender !== walletParty).map((x) => x.trackingId),
    otherWalletUserToken: otherUser.token,
    trafficReceiverParty: w.validators[0]!.party,
    multiHostedParty: w.multiHostedParty.id,
  };
}

/** The first holding of the history that a hosted party holds and that was archived later, as the stream shows it. */
function streamedContract(node: RunningReferenceNode, hosted: readonly string[]): ReferenceFixtures['ledgerContract'] {
  const w = node.context.world;
  const shift = node.context.settings.offsetShift;
  for (const h of w.baseHoldings) {
    const party = [...h.contract.signatories, ...h.contract.observers].find((p) => hosted.includes(p));
    const found = h.archivedIn === undefined || !party ? undefined : findContract(w, h.contract.contractId);
    if (!found?.archived || !party) continue;
    return { contractId: h.contract.contractId, offset: found.createdOffset + shift, party, archivedOffset: found.archived.offset + shift };
  }
  throw new Error('the world has no archived holding of a hosted party');
}
