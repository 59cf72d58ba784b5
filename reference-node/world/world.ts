// One simulated network behind all three interfaces. The history has two parts:
// - a base segment, generated once from the seed, carrying every shape the description mentions
//   (multi-root trees, nested exercises, reassignment pairs, topology changes, migrations, verdicts);
// - a bulk segment of simple transactions whose content is a pure function of its index, so that
//   `scale` can reach a million updates and a hundred thousand holdings without memory or start-up cost.
// Ids encode the index they belong to, so lookups by id need no index structures.
import { createHash } from 'node:crypto';
import { dsoGovernance, type DsoGovernance } from './dso-governance.ts';
import { exercise } from './exercise.ts';
import { MadeOnce } from './made-once.ts';
import { addSecondHosting } from './ledger-only.ts';
import { addReferenceData } from './reference-data.ts';
import { addTransferOffers } from './transfer-offers.ts';
import { addUsers } from './users.ts';
import { verdictFor } from './verdicts.ts';
import { derivedHex, Rng } from './rng.ts';
import { GENESIS_MICROS, UPDATE_SPACING_MICROS } from './time.ts';
import {
  BASE_UPDATES,
  BULK_HOLDING_EVERY,
  BULK_OBJECT_UPDATES,
  BULK_UPDATES_PER_SCALE,
  EARLIEST_REWARD_ACCOUNTING_ROUND,
  ROUND_EVERY_UPDATES,
  UNVERDICTED_TRANSACTIONS,
  type AnsEntryRecord,
  type BulkObject,
  type CompletionRecord,
  type Contract,
  type CreatedNode,
  type LedgerUser,
  type MemberTraffic,
  type Participant,
  type Party,
  type ReassignmentUpdate,
  type Snapshot,
  type Synchronizer,
  type TopologyUpdate,
  type TxNode,
  type Update,
  type TransactionUpdate,
  type Validator,
  type Verdict,
  type TransferOfferRecord,
  type WorldOptions,
} from './model.ts';

export class World {
  readonly seed: number;
  readonly scale: number;
  readonly fingerprint: string;
  readonly amuletPackage: string;
  readonly walletPackage: string;
  readonly participants: Participant[] = [];
  readonly parties: Party[] = [];
  readonly validators: Validator[] = [];
  readonly synchronizers: Synchronizer[] = [];
  readonly dso: Party;
  readonly svParties: Party[] = [];
  /** The participant whose ledger interface the reference node serves. */
  readonly ledgerParticipant: Participant;
  readonly multiHostedParty: Party;
  /** Users of the wallet: ledger user id -> party. */
  readonly walletUsers = new Map<string, string>();
  /** Ledger users of the ledger participant by user id. */
  readonly ledgerUsers = new Map<string, LedgerUser>();
  readonly migrationIds = [0, 1];
  readonly currentMigrationId = 1;
  /** First index of migration 1. */
  readonly migrationBoundary: number;
  readonly baseCount = BASE_UPDATES;
  readonly bulkCount: number;
  readonly count: number;
  readonly snapshots: Snapshot[] = [];
  readonly rejectedVerdicts: Verdict[] = [];
  readonly ansEntries: AnsEntryRecord[] = [];
  readonly preapprovals = new Map<string, { contract: Contract; domainId: string }>();
  readonly memberTraffic = new Map<string, MemberTraffic>();
  readonly svRewardWeights = new Map<string, Array<{ effectiveAtMicros: number; weight: string }>>();
  readonly coupons: Contract[] = [];
  readonly transferOffers: TransferOfferRecord[] = [];
  readonly backfillingComplete = true;
  /** Holdings created in the base segment, in creation order, with the index that archived them. */
  readonly baseHoldings: Array<{ contract: Contract; archivedIn?: number }> = [];
  readonly bulkHoldingOwners: string[];
  readonly amuletRules: Contract;
  /** The DSO's rules, SVs and validator licenses, and every reference contract (dso-governance.ts). */
  readonly governance: DsoGovernance;
  private readonly base: Update[] = [];
  /** Bulk updates made so far: a run reads the same windows again and again (a full run: 18 000 reads of 1 000). */
  private readonly bulk = new MadeOnce(20_000, (index: number) => this.bulkUpdate(index));
  /** Updates only the ledger participant's stream shows, each after the base update its key names (ledger-only.ts). */
  readonly ledgerOnly = new Map<number, TransactionUpdate | TopologyUpdate>();
  /**
   * Transactions and reassignments submitted through the ledger interface, after the history in submission order
   * (the only part of the world that grows while the node runs; ledger/submission.ts), and their completions.
   */
  readonly submitted: Array<TransactionUpdate | ReassignmentUpdate> = [];
  readonly completions: CompletionRecord[] = [];

  constructor(options: WorldOptions) {
    this.seed = options.seed;
    this.scale = options.scale;
    const rng = new Rng(options.seed);
    this.fingerprint = '1220' + rng.hex(32);
    this.amuletPackage = derivedHex(this.seed, 'pkg-amulet', 32);
    this.walletPackage = derivedHex(this.seed, 'pkg-wallet', 32);
    this.bulkCount = Math.max(0, Math.round(options.scale * BULK_UPDATES_PER_SCALE));
    this.count = this.baseCount + this.bulkCount;
    this.migrationBoundary = Math.floor(this.baseCount * 0.4);

    // --- network ----------------------------------------------------------------------
    for (const alias of ['global-domain', 'private-synchronizer']) {
      const fp = '1220' + rng.hex(32);
      this.synchronizers.push({
        id: `${alias}::${fp}`,
        alias,
        sequencerId: `SEQ::sequencer-${alias}::${fp}`,
        mediatorId: `MED::mediator-${alias}::${fp}`,
        sequencerIdentityTransactions: [rng.hex(48), rng.hex(48)],
        mediatorIdentityTransactions: [rng.hex(48)],
      });
    }
    for (let n = 1; n <= 4; n++) this.participants.push({ id: `PAR::participant${n}::1220${rng.hex(32)}`, name: `participant${n}` });
    this.ledgerParticipant = this.participants[0]!;
    const party = (hint: string, hostedOn: Participant[]): Party => {
      const p = { id: `${hint}::1220${rng.hex(32)}`, hint, hostedOn: hostedOn.map((x) => x.id) };
      this.parties.push(p);
      return p;
    };
    this.dso = party('DSO', [this.participants[3]!]);
    for (let n = 1; n <= 2; n++) this.svParties.push(party(`sv${n}`, [this.participants[3]!]));
    for (let n = 1; n <= 4; n++) {
      const participant = this.participants[n - 1]!;
      const v = party(`validator${n}`, [participant]);
      const first = rng.int(1, 5);
      const collected = rng.int(3, 20);
      const missed = rng.int(0, 4);
      this.validators.push({
        party: v.id,
        participantId: participant.id,
        mediatorId: `MED::mediator${n}::1220${rng.hex(32)}`,
        faucets: { firstCollectedInRound: first, lastCollectedInRound: first + collected + missed - 1, numRoundsCollected: collected, numRoundsMissed: missed },
      });
    }
    // A validator that collected in a single round: last equals first.
    const single = this.validators[3]!.faucets;
    Object.assign(single, { lastCollectedInRound: single.firstCollectedInRound, numRoundsCollected: 1, numRoundsMissed: 0 });
    const users = ['alice', 'bob', 'carol', 'dave'].map((h, i) => party(h, [this.participants[i < 2 ? 0 : i - 1]!]));
    this.multiHostedParty = party('shared', [this.participants[0]!, this.participants[1]!]);
    this.bulkHoldingOwners = [users[0]!.id, users[1]!.id, users[2]!.id, this.multiHostedParty.id];

    addUsers(this, users);

    // --- history ------------------------------------------------------------------------
    this.amuletRules = this.generateBase(rng, users);
    this.generateSnapshots();
    addReferenceData(this, rng, users);
    this.governance = dsoGovernance(this);
    addTransferOffers(this, users);
    addSecondHosting(this);
  }

  // ---- History access ----

  recordTimeMicros(index: number): number {
    return GENESIS_MICROS + (index + 1) * UPDATE_SPACING_MICROS;
  }

  /** Index of the first update whose record time is strictly greater than `micros`. */
  firstIndexAfter(micros: number): number {
    const i = Math.floor((micros - GENESIS_MICROS) / UPDATE_SPACING_MICROS); // index+1 <= ... so record(i-1) <= micros
    return Math.min(this.count, Math.max(0, i));
  }

  migrationOf(index: number): number {
    return index < this.migrationBoundary ? 0 : 1;
  }

  round(index: number): number {
    return Math.floor(index / ROUND_EVERY_UPDATES);
  }

  updateId(index: number): string {
    return '1220' + index.toString(16).padStart(8, '0') + derivedHex(this.seed, `update:${index}`, 28);
  }

  /** The index an update id names, if it is one of ours. */
  indexOfUpdateId(id: string): number | undefined {
    if (!/^1220[0-9a-f]{64}$/.test(id)) return undefined;
    const index = parseInt(id.slice(4, 12), 16);
    return index < this.count && this.updateId(index) === id ? index : undefined;
  }

  contractId(index: number, nodeId: number): string {
    return '00' + index.toString(16).padStart(8, '0') + nodeId.toString(16).padStart(4, '0') + derivedHex(this.seed, `contract:${index}:${nodeId}`, 30);
  }

  getUpdate(index: number): Update {
    if (index < 0 || index >= this.count) throw new RangeError(`no update ${index}`);
    return index < this.baseCount ? this.base[index]! : this.bulk.get(index);
  }

  /** Scan's offset of an update: monotonically and lexicographically increasing on this node. */
  scanOffset(index: number): string {
    return String(index + 1).padStart(16, '0');
  }

  /** The simulated ledger's "now": just after the last update. */
  ledgerEndMicros(): number {
    return this.recordTimeMicros(this.count - 1) + 1;
  }

  // ---- Holdings ----

  /** Number of holdings created in the bulk segment. */
  get bulkHoldingCount(): number {
    return Math.ceil(this.bulkCount / BULK_HOLDING_EVERY);
  }

  /** Holding number `seq` in creation order (base holdings first), or undefined past the end. */
  holdingAt(seq: number): { contract: Contract; archivedIn?: number } | undefined {
    if (seq < this.baseHoldings.length) return this.baseHoldings[seq];
    const j = seq - this.baseHoldings.length;
    if (j >= this.bulkHoldingCount) return undefined;
    const tx = this.bulk.get(this.baseCount + j * BULK_HOLDING_EVERY) as TransactionUpdate;
    return { contract: (tx.nodes[1] as CreatedNode).contract };
  }

  get holdingCount(): number {
    return this.baseHoldings.length + this.bulkHoldingCount;
  }

  /** Owner of a holding: the second signatory (the first is the DSO). */
  holdingOwner(c: Contract): string {
    return (c.createArguments.owner as string) ?? c.signatories[1]!;
  }

  // ---- Generation ----

  /** A contract of the world, its id derived from where it was created. */
  contract(index: number, nodeId: number, template: string, args: Record<string, unknown>, signatories: string[], observers: string[]): Contract {
    const pkg = template.startsWith('Splice.Wallet') ? this.walletPackage : this.amuletPackage;
    return {
      contractId: this.contractId(index, nodeId),
      templateId: `${pkg}:${template}`,
      packageName: template.startsWith('Splice.Wallet') ? 'splice-wallet' : 'splice-amulet',
      createArguments: args,
      createdAtMicros: this.recordTimeMicros(index) - 250,
      signatories,
      observers,
      createdIn: index,
      createdEventBlob: Buffer.from(`blob:${index}:${nodeId}`).toString('base64'),
    };
  }

  private amuletArgs(index: number, owner: string, amount: string): Record<string, unknown> {
    return {
      dso: this.dso.id,
      owner,
      amount: { initialAmount: amount, createdAt: { number: String(this.round(index)) }, ratePerRound: { rate: '0.0000190259' } },
    };
  }

  private txBase(index: number, workflow: string, submitters: string[], rootNodeIds: number[], nodes: TxNode[]): TransactionUpdate {
    return {
      kind: 'transaction',
      index,
      updateId: this.updateId(index),
      migrationId: this.migrationOf(index),
      synchronizerId: this.synchronizers[0]!.id,
      recordTimeMicros: this.recordTimeMicros(index),
      workflowId: workflow,
      commandId: `cmd-${derivedHex(this.seed, `cmd:${index}`, 6)}`,
      submitters,
      effectiveAtMicros: this.recordTimeMicros(index) - 250,
      rootNodeIds,
      nodes,
      paidTrafficCost: 1000 + (index % 97) * 13,
    };
  }

  private tap(index: number, owner: string, amount: string, withMarker: boolean): TransactionUpdate {
    const amulet = this.contract(index, 1, 'Splice.Amulet:Amulet', this.amuletArgs(index, owner, amount), [this.dso.id, owner], []);
    const nodes: TxNode[] = [
      exercise(0, this.amuletRules, 'AmuletRules_DevNet_Tap', { receiver: owner, amount }, [owner], false, [1], { amulet: amulet.contractId }),
      { nodeId: 1, kind: 'created', contract: amulet },
    ];
    const roots = [0];
    if (withMarker) {
      const provider = this.validators[index % this.validators.length]!.party;
      nodes.push({
        nodeId: 2,
        kind: 'created',
        contract: this.contract(
          index,
          2,
          'Splice.Amulet:FeaturedAppActivityMarker',
          { dso: this.dso.id, provider, beneficiary: owner, weight: '1.0' },
          [this.dso.id],
          [provider, owner],
        ),
      });
      roots.push(2);
    }
    return this.txBase(index, '', [owner], roots, nodes);
  }

  private bulkUpdate(index: number): Update {
    const b = index - this.baseCount;
    if (b % BULK_HOLDING_EVERY === 0) {
      const owner = this.bulkHoldingOwners[(b / BULK_HOLDING_EVERY) % this.bulkHoldingOwners.length]!;
      const tx = this.tap(index, owner, `${10 + (b % 90)}.0000000000`, false);
      tx.verdict = verdictFor(this, tx);
      return tx;
    }
    const validator = this.validators[b % this.validators.length]!.party;
    const record = this.contract(
      index,
      0,
      'Splice.ValidatorLicense:ValidatorLivenessActivityRecord',
      { dso: this.dso.id, validator, round: { number: String(this.round(index)) } },
      [this.dso.id],
      [validator],
    );
    const tx = this.txBase(index, 'liveness', [validator], [0], [{ nodeId: 0, kind: 'created', contract: record }]);
    tx.verdict = verdictFor(this, tx);
    return tx;
  }

  private generateBase(rng: Rng, users: Party[]): Contract {
    const push = (u: Update) => this.base.push(u);
    const next = () => this.base.length;
    const sync = (n: number) => this.synchronizers[n]!.id;

    // 0: the DSO creates the amulet rules; clients read the decentralized synchronizer from their config schedule.
    const configSchedule = { initialValue: { decentralizedSynchronizer: { activeSynchronizer: sync(0) } }, futureValues: [] };
    const rules = this.contract(0, 0, 'Splice.AmuletRules:AmuletRules', { dso: this.dso.id, configSchedule, isDevNet: true }, [this.dso.id], []);
    push(this.txBase(0, 'bootstrap', [this.dso.id], [0], [{ nodeId: 0, kind: 'created', contract: rules }]));
    (this as { amuletRules: Contract }).amuletRules = rules;
    // 1: the ledger participant's parties are authorized on it (topology, ledger stream only).
    const hostedHere = this.parties.filter((p) => p.hostedOn.includes(this.ledgerParticipant.id));
    // A party a user acts as keeps submitting here, as commands in its name need: a change of its hosting
    // draws a permission all the same (the history stays the seed's), and keeps submission.
    const acting = new Set([...this.ledgerUsers.values()].flatMap((u) => u.actAs));
    const changedTo = (party: string, drawn: string) => (acting.has(party) ? 'PARTICIPANT_PERMISSION_SUBMISSION' : drawn);
    push({
      kind: 'topology',
      index: 1,
      updateId: this.updateId(1),
      migrationId: 0,
      synchronizerId: sync(0),
      recordTimeMicros: this.recordTimeMicros(1),
      events: hostedHere.map((p) => ({
        type: 'Added' as const,
        partyId: p.id,
        participantId: this.ledgerParticipant.id,
        permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
      })),
    });

    // Holding state while generating: active, unlocked, on the global synchronizer.
    const active: Array<{ contract: Contract; seq: number; counter: number; synchronizer: number }> = [];
    const addHolding = (c: Contract) => {
      this.baseHoldings.push({ contract: c });
      active.push({ contract: c, seq: this.baseHoldings.length - 1, counter: 0, synchronizer: 0 });
    };
    const archive = (c: Contract, at: number) => {
      const h = this.baseHoldings.find((x) => x.contract.contractId === c.contractId)!;
      h.archivedIn = at;
      active.splice(
        active.findIndex((x) => x.contract.contractId === c.contractId),
        1,
      );
    };
    let outOfOrderPairDone = false;

    for (let step = 0; next() < this.baseCount; step++) {
      const i = next();
      const kind = step % 8;
      const owner = rng.pick(users.map((u) => u.id).concat(this.multiHostedParty.id));
      const spendable = active.filter((a) => a.synchronizer === 0 && a.contract.templateId.endsWith(':Amulet'));
      if (kind <= 2 || spendable.length < 3) {
        const tx = this.tap(i, owner, `${rng.int(5, 500)}.0000000000`, kind === 1);
        push(tx);
        addHolding((tx.nodes[1] as CreatedNode).contract);
      } else if (kind <= 4) {
        // Transfer: nested exercise that archives the input, a reward coupon, the receiver's and the change holding.
        const input = rng.pick(spendable);
        const sender = this.holdingOwner(input.contract);
        const receiver = rng.pick(users.map((u) => u.id).filter((u) => u !== sender));
        const coupon = this.contract(i, 2, 'Splice.Amulet:AppRewardCoupon', { dso: this.dso.id, provider: sender, amount: '0.3' }, [this.dso.id], [sender]);
        const out = this.contract(i, 3, 'Splice.Amulet:Amulet', this.amuletArgs(i, receiver, '1.5000000000'), [this.dso.id, receiver], []);
        const change = this.contract(i, 4, 'Splice.Amulet:Amulet', this.amuletArgs(i, sender, '2.2500000000'), [this.dso.id, sender], []);
        const nodes: TxNode[] = [
          exercise(0, rules, 'AmuletRules_Transfer', { sender, receiver, input: input.contract.contractId }, [sender], false, [1, 3, 4], {
            created: [out.contractId, change.contractId],
          }),
          exercise(1, input.contract, 'Amulet_Spend', { spender: sender }, [sender], true, [2], {}),
          { nodeId: 2, kind: 'created', contract: coupon },
          { nodeId: 3, kind: 'created', contract: out },
          { nodeId: 4, kind: 'created', contract: change },
        ];
        const tx = this.txBase(i, 'transfer', [sender], [0], nodes);
        if (kind === 4) tx.externalTransactionHash = derivedHex(this.seed, `ext:${i}`, 32);
        push(tx);
        archive(input.contract, i);
        addHolding(out);
        addHolding(change);
      } else if (kind === 5) {
        // Lock: the owner's holding is consumed into a locked holding that the lock holder observes.
        const input = rng.pick(spendable);
        const holder = this.validators[0]!.party;
        const locked = this.contract(
          i,
          1,
          'Splice.Amulet:LockedAmulet',
          { ...this.amuletArgs(i, this.holdingOwner(input.contract), '3.0000000000'), lock: { holders: [holder] } },
          [this.dso.id, this.holdingOwner(input.contract)],
          [holder],
        );
        const tx = this.txBase(
          i,
          'lock',
          [this.holdingOwner(input.contract)],
          [0],
          [
            exercise(0, input.contract, 'Amulet_Lock', { holder }, [this.holdingOwner(input.contract)], true, [1], { locked: locked.contractId }),
            { nodeId: 1, kind: 'created', contract: locked },
          ],
        );
        push(tx);
        archive(input.contract, i);
        addHolding(locked);
      } else if (kind === 6 && i + 1 < this.baseCount) {
        // A reassignment pair; the counter grows with every unassign of the contract.
        const moving = rng.pick(active.filter((a) => a.contract.templateId.endsWith(':Amulet')));
        moving.counter += 1;
        const from = moving.synchronizer;
        const to = 1 - from;
        const unassignId = derivedHex(this.seed, `unassign:${i}`, 20);
        const submitter = this.holdingOwner(moving.contract);
        const common = { unassignId, submitter, source: sync(from), target: sync(to), reassignmentCounter: moving.counter, contract: moving.contract };
        const unassign = { ...common, kind: 'unassign' as const, synchronizerId: sync(from) };
        const assign = { ...common, kind: 'assign' as const, synchronizerId: sync(to) };
        // Usually the assignment follows its unassignment; once, it is recorded first.
        const order = !outOfOrderPairDone && step > 40 ? [assign, unassign] : [unassign, assign];
        if (order[0] === assign) outOfOrderPairDone = true;
        for (const u of order) {
          const idx = next();
          push({ ...u, index: idx, updateId: this.updateId(idx), migrationId: this.migrationOf(idx), recordTimeMicros: this.recordTimeMicros(idx) });
        }
        moving.synchronizer = to;
      } else {
        const who = rng.pick(hostedHere);
        push({
          kind: 'topology',
          index: i,
          updateId: this.updateId(i),
          migrationId: this.migrationOf(i),
          synchronizerId: sync(0),
          recordTimeMicros: this.recordTimeMicros(i),
          events: [
            who.id === this.multiHostedParty.id
              ? { type: 'Onboarding', partyId: who.id, participantId: this.participants[1]!.id, permission: 'PARTICIPANT_PERMISSION_OBSERVATION' }
              : {
                  type: 'Changed',
                  partyId: who.id,
                  participantId: this.ledgerParticipant.id,
                  permission: changedTo(who.id, rng.pick(['PARTICIPANT_PERMISSION_SUBMISSION', 'PARTICIPANT_PERMISSION_CONFIRMATION'])),
                },
          ],
        });
      }
    }
    // The first transactions predate the mediator's verdict log (as MainNet's early migrations do): their event
    // items carry no verdict.
    const txs = this.base.filter((u): u is TransactionUpdate => u.kind === 'transaction');
    for (const u of txs.slice(UNVERDICTED_TRANSACTIONS)) u.verdict = verdictFor(this, u);
    // Verdicts of transactions the mediator rejected: they exist only as verdicts. Each is sequenced between two
    // updates, since the events of a migration have distinct record times (the event history pages by them).
    const between = Math.floor(UPDATE_SPACING_MICROS / 2);
    for (let k = 0; k < 3; k++) {
      const v = verdictFor(this, txs[10 + k * 30]!);
      this.rejectedVerdicts.push({
        ...v,
        updateId: '1220ffff' + derivedHex(this.seed, `rejected:${k}`, 30),
        recordTimeMicros: v.recordTimeMicros + between,
        finalizationTimeMicros: v.finalizationTimeMicros + between,
        result: 'VERDICT_RESULT_REJECTED',
        appActivity: undefined,
      });
    }
    return rules;
  }

  /** Informees of a node: stakeholders for creates and consuming exercises, signatories and actors otherwise. */
  informees(node: TxNode): string[] {
    if (node.kind === 'created') return unique([...node.contract.signatories, ...node.contract.observers]);
    return unique(node.consuming ? [...node.signatories, ...node.observers, ...node.actingParties] : [...node.signatories, ...node.actingParties]);
  }

  /** Witnesses of every node: its informees and those of all its ancestors. */
  witnesses(tx: TransactionUpdate): Map<number, string[]> {
    const out = new Map<number, string[]>();
    const visit = (id: number, inherited: string[]) => {
      const node = tx.nodes[id]!;
      const w = unique([...inherited, ...this.informees(node)]);
      out.set(id, w);
      if (node.kind === 'exercised') for (const c of node.children) visit(c, w);
    };
    for (const r of tx.rootNodeIds) visit(r, []);
    return out;
  }

  private generateSnapshots(): void {
    const add = (migrationId: number, upToIndex: number) =>
      this.snapshots.push({ migrationId, upToIndex, recordTimeMicros: this.recordTimeMicros(upToIndex) + 500_000 });
    add(0, Math.floor(this.migrationBoundary / 2));
    add(0, this.migrationBoundary - 1);
    add(1, Math.floor((this.migrationBoundary + this.baseCount) / 2));
    add(1, this.baseCount - 1);
    if (this.bulkCount > 0) add(1, this.count - 1);
  }

  /** The snapshot used for a holdings query, or undefined (exact: must match; at_or_before: latest not after). */
  findSnapshot(migrationId: number, micros: number, match: 'exact' | 'at_or_before'): Snapshot | undefined {
    const of = this.snapshots.filter((s) => s.migrationId === migrationId).sort((a, b) => a.recordTimeMicros - b.recordTimeMicros);
    if (match === 'exact') return of.find((s) => s.recordTimeMicros === micros);
    return of.filter((s) => s.recordTimeMicros <= micros).pop();
  }

  /** Takes a snapshot now (force-ACS), filed under the current migration id plus `migrationShift`; returns it. */
  forceSnapshot(migrationShift = 0): Snapshot {
    const migrationId = Math.max(0, this.currentMigrationId + migrationShift);
    const latest = this.snapshots.filter((s) => s.migrationId === migrationId).map((s) => s.recordTimeMicros);
    const micros = Math.max(this.ledgerEndMicros(), ...latest) + 1000;
    const s = { migrationId, upToIndex: this.count - 1, recordTimeMicros: micros };
    this.snapshots.push(s);
    return s;
  }

  // ---- Bulk history objects: each covers a run of updates, its bytes made on demand ----

  get bulkObjectCount(): number {
    return Math.ceil(this.count / BULK_OBJECT_UPDATES);
  }

  bulkObject(k: number): BulkObject | undefined {
    if (k < 0 || k >= this.bulkObjectCount) return undefined;
    const from = k * BULK_OBJECT_UPDATES;
    const to = Math.min(this.count, from + BULK_OBJECT_UPDATES) - 1;
    const lines: string[] = [];
    for (let i = from; i <= to; i++)
      lines.push(JSON.stringify({ update_id: this.updateId(i), migration_id: this.migrationOf(i), record_time_micros: this.recordTimeMicros(i) }));
    const bytes = Buffer.from(lines.join('\n') + '\n');
    return {
      key: `updates/${String(k).padStart(8, '0')}-${derivedHex(this.seed, `bulk:${k}`, 6)}.jsonl`,
      bytes,
      digest: createHash('sha256').update(bytes).digest('hex'),
      fromMicros: this.recordTimeMicros(from) - 1,
      toMicros: this.recordTimeMicros(to),
    };
  }

  bulkObjectByKey(key: string): BulkObject | undefined {
    const m = /^updates\/(\d{8})-[0-9a-f]{12}\.jsonl$/.exec(key);
    if (!m) return undefined;
    const obj = this.bulkObject(Number(m[1]));
    return obj?.key === key ? obj : undefined;
  }

  /**
   * Root hash of a reward-accounting round: all three result kinds occur, with the `status` values real nodes
   * send (the official scan document's discriminator; the description leaves them open).
   */
  rootHash(round: number): { status: RootHashStatus; round_number?: number; root_hash?: string } | undefined {
    const current = this.round(this.count - 1);
    if (round < 0 || round > current + 10) return undefined;
    if (round < EARLIEST_REWARD_ACCOUNTING_ROUND) return { status: 'CannotProvide' };
    if (round >= current - 1) return { status: 'Undetermined' };
    return { status: 'Ok', round_number: round, root_hash: derivedHex(this.seed, `root:${round}`, 32) };
  }
}

export type RootHashStatus = 'Ok' | 'Undetermined' | 'CannotProvide';

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

export function buildWorld(options: WorldOptions): World {
  return new World(options);
}
