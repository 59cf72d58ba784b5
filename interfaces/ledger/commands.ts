// Submitting commands and finding what became of them, for the command requirements (commands*.ts). Bodies
// are shaped as the official 3.5 document shapes them (JsCommands, the for-transaction request, reassignment
// commands, completion requests); the commands themselves are the user's or discovery's (fixtures.ledgerCommands).
// Nothing here judges a rule: checks do, with what these helpers find.
import { setTimeout as sleep } from 'node:timers/promises';
import { isInt, isObject, pointer, type Json } from '../../common/json.ts';
import { describeAnswer, type Exchange, type RequestOptions } from '../../engine/transport/http.ts';
import type { CheckContext, Citable } from '../../engine/model.ts';
import type { Fixtures } from '../../engine/fixtures.ts';
import { IDLE_MS, body, byParties, elementsOf, limitedAuth, postUpdates, recordOf, updateFormat, type Part, type Shape } from './updates.ts';

export const PATHS = {
  submitAndWait: '/v2/commands/submit-and-wait',
  forTransaction: '/v2/commands/submit-and-wait-for-transaction',
  forTree: '/v2/commands/submit-and-wait-for-transaction-tree',
  forReassignment: '/v2/commands/submit-and-wait-for-reassignment',
  async: '/v2/commands/async/submit',
  asyncReassignment: '/v2/commands/async/submit-reassignment',
  completions: '/v2/commands/completions',
  commandCompletions: '/v2/commands/command-completions',
} as const;

export type CompletionPath = typeof PATHS.completions | typeof PATHS.commandCompletions;

/** How long an async submission's completion may take to show on the completion stream. */
export const COMPLETION_WAIT_MS = 5000;
/** Completions read per request while looking for one. */
const COMPLETIONS_PAGE = 20;
/** Pause between two reads of the completion stream that found nothing new. */
const POLL_PAUSE_MS = 100;

type Commands = NonNullable<Fixtures['ledgerCommands']>;
type Auth = RequestOptions['auth'];

/** Who submits: the fixture's commands and acting parties, with the limited user's token where one is given. */
export interface Acting {
  given: Commands;
  actAs: string[];
  /** The token that acts (undefined: the ledger token). */
  auth: Auth;
}

export function acting(ctx: CheckContext<'ledgerCommands'>): Acting {
  const given = ctx.fixtures.ledgerCommands;
  // A validator's wallet user acts as its party: the limited user where one is given.
  return { given, actAs: [...new Set(given.actAs)], auth: ctx.fixtures.ledgerLimitedToken ? limitedAuth(ctx) : undefined };
}

/** The command id of one submission of this run: `cnc-<run id>-<name>`. */
export const commandIdOf = (ctx: CheckContext, name: string) => `cnc-${ctx.runId}-${name}`;

/** A JsCommands body: the fixture's (or the given commands), under a fresh command id. */
export function jsCommands(a: Acting, commandId: string, commands: unknown[] = a.given.commands): Json {
  return { ...a.given, commands, commandId };
}

/** The template and create arguments of the fixture's first create (CreateCommand or CreateAndExerciseCommand). */
export function creationOf(given: Commands): { templateId: string; createArguments: Json } | undefined {
  for (const c of given.commands) {
    const inner = isObject(c) ? (c.CreateCommand ?? c.CreateAndExerciseCommand) : undefined;
    if (isObject(inner) && typeof inner.templateId === 'string' && isObject(inner.createArguments))
      return { templateId: inner.templateId, createArguments: inner.createArguments };
  }
  return undefined;
}

/** What the fixture's commands leave behind, for ctx.created. */
export function fateOfCommands(given: Commands): string {
  return given.commands
    .map((c) => {
      const [kind, inner] = isObject(c) ? (Object.entries(c)[0] ?? []) : [];
      const template = isObject(inner) && typeof inner.templateId === 'string' ? inner.templateId : 'a template';
      if (kind === 'CreateCommand') return `a ${template} contract created (left active)`;
      if (kind === 'CreateAndExerciseCommand' && isObject(inner) && inner.choice === 'Archive') return `a ${template} contract created and archived in it`;
      return `${kind ?? 'a command'} on ${template}`;
    })
    .join('; ');
}

/** A reused command id (a run with the same run id against this node) is refused as a duplicate: not judged. */
function skipDuplicate(ctx: CheckContext, x: Exchange, commandId: string): void {
  if (x.status !== 409) return;
  const err = parse(x);
  const said = `${isObject(err) ? `${err.code ?? ''} ${err.cause ?? ''}` : ''} ${x.text.slice(0, 500)}`;
  if (/DUPLICATE|ALREADY/i.test(said))
    ctx.skip(`commandId ${commandId} was already used on this node (409); a run with another run id (another --seed, or a later start) uses a fresh one`);
}

const parse = (x: Exchange): Json => {
  try {
    return JSON.parse(x.text);
  } catch {
    return undefined;
  }
};

/** The answer to a submission the node must accept (ctx.accepted), a duplicate command id aside. */
export function submitted(ctx: CheckContext, x: Exchange, commandId: string, what: string): Json {
  skipDuplicate(ctx, x, commandId);
  return ctx.accepted(x, what);
}

/** The ledger end (GET /v2/state/ledger-end): completions and updates of what is submitted next come after it. */
export async function ledgerEnd(ctx: CheckContext, auth: Auth): Promise<number> {
  const x = await ctx.ledger.get('/v2/state/ledger-end', { auth });
  const answer = x.status === 200 ? parse(x) : undefined;
  const offset = isObject(answer) ? (answer.offset ?? 0) : undefined;
  if (!isInt(offset) || offset < 0)
    ctx.skip(`could not read the ledger end, where this check's completions begin: GET /v2/state/ledger-end answered ${describeAnswer(x)}`, { exchange: x });
  return offset;
}

/** An offset this suite can send back exactly (int64 beyond 2^53 it cannot). */
export function expectOffset(ctx: CheckContext, v: unknown, x: Exchange, at: string, what: string): number {
  if (!isInt(v) || v < 1) return ctx.expect(x).fail(`${what}: expected a positive integer offset at ${at}, got ${JSON.stringify(v) ?? 'nothing'}`, at);
  return v;
}

// ---------------------------------------------------------------------------------------------------
// The update stream at one offset
// ---------------------------------------------------------------------------------------------------

/** The stream read at exactly `offset` as `parties`: (offset - 1, offset]. */
export async function readAt(
  ctx: CheckContext,
  offset: number,
  parties: string[],
  parts: Part[],
  shape: Shape,
  auth: Auth,
): Promise<{ x: Exchange; els: Json[] }> {
  const x = await postUpdates(ctx, body({ beginExclusive: offset - 1, endInclusive: offset }, updateFormat(parties, parts, shape)), undefined, auth);
  ctx.expect(x, `a read of the update stream at offset ${offset}, where a submission's answer says its update is`).status(200);
  return { x, els: elementsOf(ctx, x) };
}

/** The element of an answer holding the update `updateId`, with its index. */
export function findUpdate(els: Json[], updateId: string): { record: Json; index: number; kind: string } | undefined {
  for (const [index, e] of els.entries()) {
    const record = recordOf(e);
    if (record?.updateId === updateId) return { record, index, kind: Object.keys(e.update)[0]! };
  }
  return undefined;
}

/** Identities of the events of a transaction record (`{<Kind>: event}`), whoever reads them: kind, node and contract. */
export function eventKeys(events: unknown): string[] {
  if (!Array.isArray(events)) return [];
  return events
    .flatMap((wrapped) => (isObject(wrapped) ? Object.entries(wrapped) : []))
    .map(([kind, ev]) => (isObject(ev) ? `${kind} node ${ev.nodeId} of ${ev.contractId}` : kind))
    .sort();
}

/** The transaction format of the check's reads: every event of `parties`, in `shape`. */
export const transactionFormat = (parties: string[], shape: Shape): Json => ({ eventFormat: byParties(parties), transactionShape: shape });

// ---------------------------------------------------------------------------------------------------
// Completions
// ---------------------------------------------------------------------------------------------------

export interface FoundCompletion {
  /** The Completion record (`completionResponse.Completion.value`). */
  value: Json;
  x: Exchange;
  pointer: string;
}

/** The Completion records of a completion-stream answer, with their pointers. */
export function completionsIn(els: unknown[]): Array<{ value: Json; pointer: string }> {
  const out: Array<{ value: Json; pointer: string }> = [];
  els.forEach((e, i) => {
    const value =
      isObject(e) && isObject(e.completionResponse) && isObject(e.completionResponse.Completion) ? e.completionResponse.Completion.value : undefined;
    if (isObject(value)) out.push({ value, pointer: pointer(i, 'completionResponse', 'Completion', 'value') });
  });
  return out;
}

/** The offset an element of the completion stream carries (a completion's or a checkpoint's). */
function streamOffset(e: unknown): number | undefined {
  const r = isObject(e) && isObject(e.completionResponse) ? Object.values(e.completionResponse)[0] : undefined;
  const o = isObject(r) && isObject(r.value) ? r.value.offset : undefined;
  return isInt(o) ? o : undefined;
}

/** One read of the completion stream of `parties` after `begin`: a request the node must accept. */
export async function readCompletions(
  ctx: CheckContext,
  path: CompletionPath,
  parties: string[],
  begin: number,
  auth: Auth,
  what: string,
): Promise<{ x: Exchange; els: Json[] }> {
  const x = await ctx.ledger.post(path, { parties, beginExclusive: begin }, { auth, query: { limit: COMPLETIONS_PAGE, stream_idle_timeout_ms: IDLE_MS } });
  const els = ctx.accepted(x, what);
  if (!Array.isArray(els))
    ctx
      .expect(x)
      .fail(`${path} answered 200 with ${JSON.stringify(els)?.slice(0, 80) ?? 'no JSON'}, not the documented JSON array of completion stream responses`);
  return { x, els };
}

/**
 * The completion of `commandId` on the completion stream after `begin`, read page by page until it shows or
 * COMPLETION_WAIT_MS pass; undefined (with the last read) when it never did.
 */
export async function awaitCompletion(
  ctx: CheckContext,
  path: CompletionPath,
  parties: string[],
  begin: number,
  commandId: string,
  auth: Auth,
): Promise<{ found?: FoundCompletion; last: Exchange }> {
  const until = Date.now() + COMPLETION_WAIT_MS;
  let after = begin;
  for (;;) {
    const { x, els } = await readCompletions(
      ctx,
      path,
      parties,
      after,
      auth,
      `the completions of ${parties.join(', ')} after offset ${after}, for command ${commandId}`,
    );
    const hit = completionsIn(els).find((c) => c.value.commandId === commandId);
    if (hit) return { found: { ...hit, x }, last: x };
    after = Math.max(after, ...els.map(streamOffset).filter((o): o is number => o !== undefined));
    if (Date.now() >= until) return { last: x };
    if (els.length < COMPLETIONS_PAGE) await sleep(POLL_PAUSE_MS);
  }
}

/** Whether a completion says its command succeeded: a status with code 0 (OK). */
/**
 * An OK completion: status code 0. The official documents leave `status` (and, in proto3 JSON, a zero `code`)
 * optional: a status without a code is OK, and a completion without a status is OK where it names its update
 * (a failed command has none).
 */
export const completedOk = (value: Json): boolean =>
  isObject(value.status) ? (value.status.code ?? 0) === 0 : value.status === undefined && typeof value.updateId === 'string' && value.updateId !== '';

/** The status a completion carries, for messages. */
export const statusText = (value: Json): string => (value.status === undefined ? 'no status' : `status ${JSON.stringify(value.status).slice(0, 200)}`);

/**
 * Fails unless the completion of `commandId` is an OK one of the acting parties (a completion's actAs are the
 * submission's, filtered to the parties read as, here the same).
 */
export function expectOkCompletion(ctx: CheckContext, c: Omit<FoundCompletion, 'x'> & { x: Citable }, commandId: string, actAs: string[]): void {
  if (!completedOk(c.value))
    ctx
      .expect(c.x)
      .fail(`the completion of command ${commandId}, which was accepted, carries ${statusText(c.value)}, not an OK status (code 0)`, `${c.pointer}/status`);
  const parties: unknown = c.value.actAs;
  if (!Array.isArray(parties) || [...new Set(parties)].sort().join() !== [...actAs].sort().join())
    ctx
      .expect(c.x)
      .fail(
        `the completion of command ${commandId} names actAs ${JSON.stringify(parties)}, not the submitting parties ${JSON.stringify(actAs)}`,
        `${c.pointer}/actAs`,
      );
  if (typeof c.value.updateId !== 'string' || c.value.updateId === '')
    ctx.expect(c.x).fail(`the OK completion of command ${commandId} names no updateId (the update it resulted in)`, `${c.pointer}/updateId`);
}

/** Fails: an accepted submission whose completion never showed. */
export function noCompletion(ctx: CheckContext, path: string, commandId: string, begin: number, last: Exchange, submittedBy: string): never {
  return ctx
    .expect(last)
    .fail(
      `${submittedBy} accepted command ${commandId}, yet ${path} showed no completion of it after offset ${begin} within ${COMPLETION_WAIT_MS} ms (the last read attached)`,
    );
}
