// Reads the bodies of the command endpoints as the official ledger document shapes them (JsCommands, the
// for-transaction request around it, ReassignmentCommands, CompletionStreamRequest). A body that breaks the
// shape is an InvalidStreamRequest: the plain-text 400 the interface's HTTP layer answers ("Invalid value for: body").
import { isObject, isStringArray, type JsonObject } from '../../common/json.ts';
import { InvalidStreamRequest, parseEventFormat, parseTransactionFormat, type EventFormatSpec, type Shape } from './stream-request.ts';

export type LedgerCommand =
  | { kind: 'create'; templateId: string; createArguments: JsonObject }
  | { kind: 'exercise'; templateId: string; contractId: string; choice: string; choiceArgument: unknown }
  | { kind: 'createAndExercise'; templateId: string; createArguments: JsonObject; choice: string; choiceArgument: unknown }
  | { kind: 'exerciseByKey'; templateId: string; contractKey: unknown; choice: string; choiceArgument: unknown };

export interface SubmittedCommands {
  commandId: string;
  commands: LedgerCommand[];
  actAs: string[];
  readAs: string[];
  userId?: string;
  workflowId: string;
  submissionId?: string;
}

export type ReassignmentMove =
  | { kind: 'unassign'; contractId: string; source: string; target: string }
  | { kind: 'assign'; reassignmentId: string; source: string; target: string };

export interface SubmittedReassignment {
  commandId: string;
  submitter: string;
  userId?: string;
  workflowId: string;
  submissionId?: string;
  move: ReassignmentMove;
}

export interface CompletionQuery {
  userId?: string;
  parties: string[];
  beginExclusive: number;
}

function fail(message: string): never {
  throw new InvalidStreamRequest(`Invalid value for: body (${message})`);
}

function body(raw: unknown, what: string): JsonObject {
  // A body of another content type arrives as bytes (a Buffer), which is no JSON object either.
  if (!isObject(raw) || Buffer.isBuffer(raw)) fail(`a ${what} JSON object is required`);
  return raw;
}

function string(o: JsonObject, field: string, at: string, required: boolean): string | undefined {
  const v = o[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') fail(`${at}${field} must be a string${v === undefined ? ' (missing)' : ''}`);
  return v;
}

function parties(o: JsonObject, field: string, at: string, nonEmpty: boolean): string[] {
  const v = o[field] ?? (nonEmpty ? undefined : []);
  if (!isStringArray(v)) fail(`${at}${field} must be an array of party ids`);
  if (nonEmpty && v.length === 0) fail(`${at}${field} must be non-empty`);
  return v;
}

function record(v: unknown, at: string): JsonObject {
  if (!isObject(v)) fail(`${at} must be a JSON object (the template's record)`);
  return v;
}

function command(raw: unknown, at: string): LedgerCommand {
  const keys = isObject(raw) ? Object.keys(raw) : [];
  if (!isObject(raw) || keys.length !== 1) fail(`${at} must be an object with exactly one command kind`);
  const kind = keys[0]!;
  const c = raw[kind];
  if (!isObject(c)) fail(`${at}.${kind} must be a JSON object`);
  const inner = `${at}.${kind}.`;
  const templateId = string(c, 'templateId', inner, true)!;
  const choice = () => string(c, 'choice', inner, true)!;
  const argument = (field: string) => (c[field] === undefined ? fail(`${inner}${field} is required`) : c[field]);
  switch (kind) {
    case 'CreateCommand':
      return { kind: 'create', templateId, createArguments: record(argument('createArguments'), `${inner}createArguments`) };
    case 'ExerciseCommand':
      return { kind: 'exercise', templateId, contractId: string(c, 'contractId', inner, true)!, choice: choice(), choiceArgument: argument('choiceArgument') };
    case 'CreateAndExerciseCommand':
      return {
        kind: 'createAndExercise',
        templateId,
        createArguments: record(argument('createArguments'), `${inner}createArguments`),
        choice: choice(),
        choiceArgument: argument('choiceArgument'),
      };
    case 'ExerciseByKeyCommand':
      return { kind: 'exerciseByKey', templateId, contractKey: argument('contractKey'), choice: choice(), choiceArgument: argument('choiceArgument') };
    default:
      return fail(`${at} has unknown command kind '${kind}'`);
  }
}

function jsCommands(o: JsonObject, at: string): SubmittedCommands {
  const commandId = string(o, 'commandId', at, true)!;
  if (commandId === '') fail(`${at}commandId must be non-empty`);
  if (!Array.isArray(o.commands)) fail(`${at}commands must be an array of commands`);
  if (o.commands.length === 0) fail(`${at}commands must be non-empty`);
  return {
    commandId,
    commands: o.commands.map((c, i) => command(c, `${at}commands[${i}]`)),
    actAs: parties(o, 'actAs', at, true),
    readAs: parties(o, 'readAs', at, false),
    userId: string(o, 'userId', at, false) || undefined,
    workflowId: string(o, 'workflowId', at, false) ?? '',
    submissionId: string(o, 'submissionId', at, false) || undefined,
  };
}

/** The body of submit-and-wait, submit-and-wait-for-transaction-tree and async/submit: JsCommands. */
export function parseCommands(raw: unknown): SubmittedCommands {
  return jsCommands(body(raw, 'JsCommands'), '');
}

/** The body of submit-and-wait-for-transaction: the commands and, optionally, the transaction format to answer in. */
export function parseCommandsForTransaction(raw: unknown): { commands: SubmittedCommands; format?: { format: EventFormatSpec; shape: Shape } } {
  const b = body(raw, 'JsSubmitAndWaitForTransactionRequest');
  if (!isObject(b.commands)) fail('commands must be a JsCommands object');
  const commands = jsCommands(b.commands, 'commands.');
  return b.transactionFormat === undefined ? { commands } : { commands, format: parseTransactionFormat(b.transactionFormat, 'transactionFormat') };
}

/** One reassignment command: `{command: {UnassignCommand | AssignCommand: {value}}}`. */
function move(raw: unknown, at: string): ReassignmentMove {
  const inner = isObject(raw) && isObject(raw.command) ? raw.command : fail(`${at}.command must be a JSON object`);
  const keys = Object.keys(inner);
  if (keys.length !== 1) fail(`${at}.command must have exactly one command kind`);
  const kind = keys[0]!;
  const c = inner[kind];
  const v = isObject(c) && isObject(c.value) ? c.value : fail(`${at}.command.${kind}.value must be a JSON object`);
  const field = (f: string) => string(v, f, `${at}.command.${kind}.value.`, true)!;
  if (kind === 'UnassignCommand') return { kind: 'unassign', contractId: field('contractId'), source: field('source'), target: field('target') };
  if (kind === 'AssignCommand') return { kind: 'assign', reassignmentId: field('reassignmentId'), source: field('source'), target: field('target') };
  // Empty is in the document's shape, but it moves nothing.
  return fail(`${at}.command has no reassignment command (${kind})`);
}

/**
 * The body of both reassignment endpoints: ReassignmentCommands and, for submit-and-wait, the event format to
 * answer with. The simulated participant moves one contract per reassignment.
 */
export function parseReassignment(raw: unknown): { commands: SubmittedReassignment; eventFormat?: EventFormatSpec } {
  const b = body(raw, 'reassignment request');
  const r = isObject(b.reassignmentCommands) ? b.reassignmentCommands : fail('reassignmentCommands must be a ReassignmentCommands object');
  const at = 'reassignmentCommands.';
  const commandId = string(r, 'commandId', at, true)!;
  if (commandId === '') fail(`${at}commandId must be non-empty`);
  const submitter = string(r, 'submitter', at, true)!;
  if (submitter === '') fail(`${at}submitter must be a party id`);
  if (!Array.isArray(r.commands) || r.commands.length === 0) fail(`${at}commands must be a non-empty array`);
  if (r.commands.length > 1) fail(`${at}commands must hold one command: this participant moves one contract per reassignment`);
  const commands: SubmittedReassignment = {
    commandId,
    submitter,
    userId: string(r, 'userId', at, false) || undefined,
    workflowId: string(r, 'workflowId', at, false) ?? '',
    submissionId: string(r, 'submissionId', at, false) || undefined,
    move: move(r.commands[0], `${at}commands[0]`),
  };
  return b.eventFormat === undefined ? { commands } : { commands, eventFormat: parseEventFormat(b.eventFormat, 'eventFormat') };
}

/** The body of both completion endpoints. */
export function parseCompletionQuery(raw: unknown): CompletionQuery {
  const b = body(raw, 'CompletionStreamRequest');
  const begin = b.beginExclusive ?? 0;
  if (typeof begin !== 'number' || !Number.isSafeInteger(begin) || begin < 0) fail('beginExclusive must be a non-negative int64');
  return { userId: string(b, 'userId', '', false) || undefined, parties: parties(b, 'parties', '', true), beginExclusive: begin };
}
