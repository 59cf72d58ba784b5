// What a command does to the simulated ledger: its transaction is interpreted against the world (templates the
// network knows, contracts active and visible to the submitting parties), recorded as the next update of the
// participant's stream (World.submitted) with its completion (reassignments are built in reassignment.ts). Ids
// derive from the seed and the position in the submission order, so a given seed and command sequence always
// gives the same ledger.
import type { NodeContext } from '../context.ts';
import type { CompletionRecord, Contract, CreatedNode, ExercisedNode, ReassignmentUpdate, TransactionUpdate, TxNode } from '../world/model.ts';
import { derivedHex } from '../world/rng.ts';
import type { World } from '../world/world.ts';
import { baseStream } from './base-stream.ts';
import type { LedgerCommand, SubmittedCommands } from './command-request.ts';
import { findContract } from './contract-lookup.ts';
import { LedgerHttpError } from './errors.ts';
import { submittedOffset } from './offsets.ts';
import { InvalidStreamRequest } from './stream-request.ts';

/** How far a submission moves the simulated clock: its record time is after everything before it. */
const SUBMISSION_STEP_MICROS = 1_000_000;
/** Ledger time precedes the record time by this much, as in the history. */
const EFFECTIVE_BEFORE_RECORD_MICROS = 250;

/** A recorded submission: its update, at its offset, with its completion. */
export interface Recorded<U extends TransactionUpdate | ReassignmentUpdate> {
  update: U;
  offset: number;
  completion: CompletionRecord;
}

export type Submission = Recorded<TransactionUpdate>;

/** The change a submission makes: the ledger deduplicates on the user, the acting parties and the command id. */
export interface Change {
  userId: string;
  commandId: string;
  actAs: string[];
  submissionId?: string;
}

interface KnownTemplate {
  templateId: string;
  packageName: string;
  /** Choices seen exercised on the template in the history, with whether they consume the contract. */
  choices: Map<string, boolean>;
}

const knownTemplates = new WeakMap<World, Map<string, KnownTemplate>>();

/** Every template the network's contracts use, with the choices its history exercises (computed once per world). */
function templatesOf(world: World): Map<string, KnownTemplate> {
  let known = knownTemplates.get(world);
  if (known) return known;
  known = new Map();
  const add = (templateId: string, packageName: string) => {
    if (!known!.has(templateId)) known!.set(templateId, { templateId, packageName, choices: new Map() });
    return known!.get(templateId)!;
  };
  const updates = [...baseStream(world)].map((s) => s.update);
  for (let i = world.baseCount; i < Math.min(world.count, world.baseCount + 2); i++) updates.push(world.getUpdate(i));
  for (const u of updates) {
    if (u.kind !== 'transaction') continue;
    for (const n of u.nodes) {
      if (n.kind === 'created') add(n.contract.templateId, n.contract.packageName);
      else add(n.templateId, n.packageName).choices.set(n.choice, n.consuming);
    }
  }
  for (const c of [...world.governance.referenceContracts, ...world.transferOffers.map((o) => o.contract)]) add(c.templateId, c.packageName);
  knownTemplates.set(world, known);
  return known;
}

/** The known template a command names, by package id or by package name (`#name:Module:Entity`). */
function resolveTemplate(world: World, requested: string): KnownTemplate {
  const known = templatesOf(world);
  const byId = known.get(requested);
  if (byId) return byId;
  const m = /^#([^:]+):(.+)$/.exec(requested);
  const byName = m ? [...known.values()].find((t) => t.packageName === m[1] && t.templateId.slice(t.templateId.indexOf(':') + 1) === m[2]) : undefined;
  if (byName) return byName;
  throw new LedgerHttpError(404, 'notFound', `Template ${requested} is not known to this participant.`, 'TEMPLATES_OR_INTERFACES_NOT_FOUND');
}

const invalid = (message: string): never => {
  throw new InvalidStreamRequest(message);
};

/** The parties a record mentions that the network knows: the observers of a created contract besides its signatories. */
function mentionedParties(world: World, value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    if (world.parties.some((p) => p.id === value)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) mentionedParties(world, v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) mentionedParties(world, v, out);
  return out;
}

/** How a submission came: waited for or not (some faults break the async path only). */
export interface SubmitOptions {
  async?: boolean;
}

/** Builds the transaction of `cmds` at submission number `k` (World.submitted's next index); nothing is recorded. */
function interpret(ctx: NodeContext, cmds: SubmittedCommands, k: number, recordTimeMicros: number, options: SubmitOptions): TransactionUpdate {
  const { world } = ctx;
  const index = world.count + k;
  const effectiveAtMicros = effectiveAt(recordTimeMicros);
  const nodes: TxNode[] = [];
  const roots: number[] = [];
  /** Contracts this transaction archived so far: a later command may not use them. */
  const consumed = new Set<string>();
  const readers = new Set([...cmds.actAs, ...cmds.readAs]);

  const create = (template: KnownTemplate, args: Record<string, unknown>): CreatedNode => {
    const nodeId = nodes.length;
    // Without the templates' Daml code, the submitters are the signatories and the other parties the record names observe.
    const signatories = [...cmds.actAs];
    const observers = [...mentionedParties(world, args)].filter((p) => !signatories.includes(p));
    const contract: Contract = {
      contractId: world.contractId(index, nodeId),
      templateId: template.templateId,
      packageName: template.packageName,
      createArguments: args,
      createdAtMicros: effectiveAtMicros,
      signatories,
      observers,
      createdIn: index,
      createdEventBlob: Buffer.from(`blob:${index}:${nodeId}`).toString('base64'),
    };
    const node: CreatedNode = { nodeId, kind: 'created', contract };
    nodes.push(node);
    return node;
  };

  const exercise = (contract: Contract, choice: string, choiceArgument: unknown): ExercisedNode => {
    const template = resolveTemplate(world, contract.templateId);
    const consuming = choice === 'Archive' || template.choices.get(choice) === true;
    if (choice !== 'Archive' && !template.choices.has(choice))
      invalid(`Invalid value for: body (template ${contract.templateId} has no choice ${choice} this participant knows)`);
    // The controllers of Archive are the signatories: each must be among the submitters.
    const missing = choice === 'Archive' ? contract.signatories.filter((p) => !cmds.actAs.includes(p)) : [];
    if (missing.length > 0)
      throw new LedgerHttpError(
        403,
        'permissionDenied',
        `Archiving ${contract.contractId} needs the authority of ${missing.join(', ')}.`,
        'DAML_AUTHORIZATION_ERROR',
      );
    const node: ExercisedNode = {
      nodeId: nodes.length,
      kind: 'exercised',
      contractId: contract.contractId,
      templateId: contract.templateId,
      packageName: contract.packageName,
      signatories: contract.signatories,
      observers: contract.observers,
      choice,
      choiceArgument: (choiceArgument ?? {}) as Record<string, unknown>,
      actingParties: [...cmds.actAs],
      consuming,
      children: [],
      exerciseResult: {},
    };
    nodes.push(node);
    if (consuming) consumed.add(contract.contractId);
    return node;
  };

  /** The synchronizer of the first contract the transaction uses; it runs there (no automatic reassignment). */
  let synchronizerId: string | undefined;
  const activeContract = (contractId: string, requestedTemplate: string): Contract => {
    const found = findContract(world, contractId);
    const created = nodes.find((n): n is CreatedNode => n.kind === 'created' && n.contract.contractId === contractId)?.contract;
    // ledger-async-archived-accepted: the async path takes an archived contract for an active one.
    const archivedAccepted = options.async === true && ctx.faults.has('ledger-async-archived-accepted');
    // An unassigned contract is active on no synchronizer until its assignment.
    const c = created ?? (found && (!found.archived || archivedAccepted) && !found.placement.unassigned ? found.contract : undefined);
    if (!created && found) synchronizerId ??= found.placement.synchronizerId;
    const visible = c && [...c.signatories, ...c.observers].some((p) => readers.has(p));
    if (!c || !visible || consumed.has(contractId))
      throw new LedgerHttpError(404, 'notFound', `Contract could not be found or is not active: ${contractId}`, 'CONTRACT_NOT_FOUND');
    const template = resolveTemplate(world, requestedTemplate);
    if (template.templateId !== c.templateId)
      invalid(`Invalid value for: body (contract ${contractId} is of template ${c.templateId}, not ${requestedTemplate})`);
    return c;
  };

  for (const command of cmds.commands) roots.push(...apply(command));

  /** The root nodes a command adds to the transaction. */
  function apply(command: LedgerCommand): number[] {
    switch (command.kind) {
      case 'create':
        return [create(resolveTemplate(world, command.templateId), command.createArguments).nodeId];
      case 'exercise':
        return [exercise(activeContract(command.contractId, command.templateId), command.choice, command.choiceArgument).nodeId];
      case 'createAndExercise': {
        // Two root actions, as Daml makes of it: the create, then the exercise on the new contract.
        const created = create(resolveTemplate(world, command.templateId), command.createArguments);
        return [created.nodeId, exercise(created.contract, command.choice, command.choiceArgument).nodeId];
      }
      case 'exerciseByKey':
        // No template of the simulated network has a contract key.
        throw new LedgerHttpError(404, 'notFound', `No active contract of ${command.templateId} has the given key.`, 'CONTRACT_KEY_NOT_FOUND');
    }
  }

  return transactionAt(world, k, recordTimeMicros, {
    synchronizerId,
    workflowId: cmds.workflowId,
    commandId: cmds.commandId,
    submitters: [...cmds.actAs],
    rootNodeIds: roots,
    nodes,
  });
}

/** The transaction recorded as submission number `k` at `recordTimeMicros`, with what its submission decides. */
export function transactionAt(
  world: World,
  k: number,
  recordTimeMicros: number,
  { synchronizerId, ...decided }: Pick<TransactionUpdate, 'workflowId' | 'commandId' | 'submitters' | 'rootNodeIds' | 'nodes'> & { synchronizerId?: string },
): TransactionUpdate {
  const index = world.count + k;
  return {
    kind: 'transaction',
    index,
    updateId: world.updateId(index),
    migrationId: world.currentMigrationId,
    synchronizerId: synchronizerId ?? world.synchronizers[0]!.id,
    recordTimeMicros,
    effectiveAtMicros: effectiveAt(recordTimeMicros),
    ...decided,
    paidTrafficCost: 1000 + decided.nodes.length * 13,
  };
}

/** Ledger time of a transaction recorded at `recordTimeMicros` (what its contracts are created at). */
export const effectiveAt = (recordTimeMicros: number) => recordTimeMicros - EFFECTIVE_BEFORE_RECORD_MICROS;

/** Interprets and records one submission of `userId`. */
export function submit(ctx: NodeContext, cmds: SubmittedCommands, userId: string, options: SubmitOptions = {}): Submission {
  // ledger-async-submit-dropped: an async submission is checked and interpreted, then lost.
  const dropped = options.async === true && ctx.faults.has('ledger-async-submit-dropped');
  return record(
    ctx,
    { userId, commandId: cmds.commandId, actAs: cmds.actAs, submissionId: cmds.submissionId },
    (k, recordTimeMicros) => interpret(ctx, cmds, k, recordTimeMicros, options),
    dropped,
  );
}

/**
 * Records the update `build` makes at submission number `k` as the next of the stream, with its completion. A
 * change already completed is a duplicate (409), as the ledger deduplicates them. `lost` (a fault): built,
 * so a refusal still shows, but neither recorded nor completed.
 */
export function record<U extends TransactionUpdate | ReassignmentUpdate>(
  ctx: NodeContext,
  change: Change,
  build: (k: number, recordTimeMicros: number) => U,
  lost = false,
): Recorded<U> {
  const { world } = ctx;
  const actAs = [...new Set(change.actAs)].sort().join(',');
  const duplicate = world.completions.some((c) => c.userId === change.userId && c.commandId === change.commandId && [...c.actAs].sort().join(',') === actAs);
  if (duplicate)
    throw new LedgerHttpError(409, 'alreadyExists', `A command with id ${change.commandId} was already submitted by these parties.`, 'DUPLICATE_COMMAND');
  const recordTimeMicros = ctx.clock.now() + SUBMISSION_STEP_MICROS;
  if (lost) {
    const update = build(world.submitted.length, recordTimeMicros);
    const completion = { ...change, updateId: update.updateId, submissionId: change.submissionId ?? '', submitted: -1 };
    return { update, offset: 0, completion };
  }
  // What the automation does until then is recorded first, so the change sees it and follows it.
  ctx.clock.runUntil(recordTimeMicros);
  const k = world.submitted.length;
  // Built before the clock moves on: a refused change leaves no trace.
  const update = build(k, recordTimeMicros);
  ctx.clock.advance(recordTimeMicros - ctx.clock.now());
  const completion: CompletionRecord = {
    commandId: change.commandId,
    updateId: update.updateId,
    userId: change.userId,
    actAs: [...new Set(change.actAs)],
    submissionId: change.submissionId ?? derivedHex(ctx.settings.seed, `submission:${k}`, 16),
    submitted: k,
  };
  world.submitted.push(update);
  world.completions.push(completion);
  return { update, offset: submittedOffset(world.count, k), completion };
}
