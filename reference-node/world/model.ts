// The simulated network's records, independent of any interface's wire format. Each interface module
// renders these in its own shape (ledger stream, scan history, wallet), so all three tell one story.

export interface Participant {
  id: string; // PAR::name::fingerprint
  name: string;
}

export interface Party {
  id: string; // hint::fingerprint
  hint: string;
  /** Participant ids hosting the party (two for the multi-hosted party). */
  hostedOn: string[];
}

export interface Validator {
  party: string;
  participantId: string;
  mediatorId: string;
  /** Faucet statistics of the validator's liveness rounds. */
  faucets: { firstCollectedInRound: number; lastCollectedInRound: number; numRoundsCollected: number; numRoundsMissed: number };
}

export interface Synchronizer {
  id: string; // alias::fingerprint
  alias: string;
  sequencerId: string;
  mediatorId: string;
  sequencerIdentityTransactions: string[];
  mediatorIdentityTransactions: string[];
}

/** A super validator's node on the decentralized synchronizer, as its SvNodeState and the DSO's listings show it. */
export interface SvNode {
  party: string;
  /** The SV's name in the DSO rules (unique). */
  name: string;
  participantId: string;
  scanUrl: string;
  sequencerId: string;
  sequencerUrl: string;
  mediatorId: string;
  /** When participants should start using the sequencer (microseconds). */
  sequencerAvailableAfterMicros: number;
}

export interface Contract {
  contractId: string;
  templateId: string; // packageId:Module:Entity
  packageName: string;
  createArguments: Record<string, unknown>;
  createdAtMicros: number;
  signatories: string[];
  observers: string[];
  /** Index of the creating update in the history. */
  createdIn: number;
  /** Opaque blob a node would hand out for explicit disclosure. */
  createdEventBlob: string;
}

export interface CreatedNode {
  nodeId: number;
  kind: 'created';
  contract: Contract;
}

export interface ExercisedNode {
  nodeId: number;
  kind: 'exercised';
  contractId: string;
  templateId: string;
  packageName: string;
  /** Stakeholders of the exercised contract (signatories, observers). */
  signatories: string[];
  observers: string[];
  choice: string;
  choiceArgument: Record<string, unknown>;
  actingParties: string[];
  consuming: boolean;
  /** Node ids of the direct children, in the order they occurred. */
  children: number[];
  exerciseResult: unknown;
  interfaceId?: string;
}

export type TxNode = CreatedNode | ExercisedNode;

export interface View {
  viewId: number;
  informees: string[];
  confirmingParties: Array<{ parties: string[]; threshold: number }>;
  subViews: number[];
  viewHash: string;
}

export interface Verdict {
  /** Transaction this verdict is about (may be a rejected one that never reached the ledger). */
  updateId: string;
  migrationId: number;
  domainId: string;
  recordTimeMicros: number;
  finalizationTimeMicros: number;
  submittingParties: string[];
  submittingParticipantUid: string;
  result: string;
  mediatorGroup: number;
  views: View[];
  rootViews: number[];
  trafficSummary: { totalTrafficCost: number; envelopes: Array<{ trafficCost: number; viewIds: number[] }> };
  appActivity?: { roundNumber: number; records: Array<{ party: string; weight: number }> };
}

export interface UpdateBase {
  /** Index in the history; a ledger-only update (World.ledgerOnly) has the index of the update it follows. */
  index: number;
  updateId: string;
  migrationId: number;
  synchronizerId: string;
  recordTimeMicros: number;
}

export interface TransactionUpdate extends UpdateBase {
  kind: 'transaction';
  workflowId: string;
  commandId: string;
  submitters: string[];
  effectiveAtMicros: number;
  rootNodeIds: number[];
  /** Nodes by node id (index in this array = node id). */
  nodes: TxNode[];
  externalTransactionHash?: string;
  paidTrafficCost: number;
  verdict?: Verdict;
}

export interface ReassignmentUpdate extends UpdateBase {
  kind: 'assign' | 'unassign';
  /** Shared by the matching unassign and assign. */
  unassignId: string;
  submitter: string;
  source: string;
  target: string;
  /** Migration id of the target (assign) or source (unassign) synchronizer; equal to migrationId here. */
  reassignmentCounter: number;
  contract: Contract;
  /** Set on reassignments submitted through the ledger interface (the history's have made-up command ids). */
  commandId?: string;
  workflowId?: string;
}

export interface TopologyUpdate extends UpdateBase {
  kind: 'topology';
  events: Array<{ type: 'Added' | 'Changed' | 'Onboarding' | 'Revoked'; partyId: string; participantId: string; permission?: string }>;
}

export type Update = TransactionUpdate | ReassignmentUpdate | TopologyUpdate;

export interface AnsEntryRecord {
  contractId?: string;
  user: string;
  name: string;
  url: string;
  description: string;
  /** Microseconds; undefined = no expiry (special entries only). */
  expiresAtMicros?: number;
  createdAtMicros: number;
}

export interface BulkObject {
  key: string;
  bytes: Buffer;
  digest: string;
  /** Updates covered: every update with record time in (fromMicros, toMicros]. */
  fromMicros: number;
  toMicros: number;
}

export interface MemberTraffic {
  totalConsumed: number;
  totalLimit: number;
  totalPurchased: number;
}

export interface Snapshot {
  migrationId: number;
  recordTimeMicros: number;
  /** The last update index included in the snapshot. */
  upToIndex: number;
}

// The sizes of the network a world is built with.

export interface WorldOptions {
  seed: number;
  /** 1 = the default network; the bulk segment holds 1000 x scale updates and 100 x scale holdings. */
  scale: number;
}

export const BASE_UPDATES = 240;
export const BULK_UPDATES_PER_SCALE = 1000;
/** One bulk update in this many creates a holding. */
export const BULK_HOLDING_EVERY = 10;
export const ROUND_EVERY_UPDATES = 10;
export const BULK_OBJECT_UPDATES = 100;
/** The first round whose reward accounting is complete: earlier rounds' root hashes cannot be provided. */
export const EARLIEST_REWARD_ACCOUNTING_ROUND = 1;
/** The first transactions of the history have no mediator verdict (their event items carry none). */
export const UNVERDICTED_TRANSACTIONS = 3;

export interface TransferOfferRecord {
  trackingId: string;
  /** Wallet party (the sender) whose wallet reports this offer. */
  sender: string;
  receiver: string;
  /** The TransferOffer contract the sender created; its create arguments are the offer's payload. */
  contract: Contract;
  status: Record<string, unknown>;
}

/** A ledger user of the ledger participant: the parties it acts and reads as; `readAs: 'any'` is the participant administrator. */
export interface LedgerUser {
  primaryParty?: string;
  actAs: string[];
  readAs: string[] | 'any';
}

/** The completion of a command submitted through the ledger interface (its update is World.submitted's). */
export interface CompletionRecord {
  commandId: string;
  updateId: string;
  userId: string;
  actAs: string[];
  submissionId: string;
  /** Index of the update in World.submitted. */
  submitted: number;
}
