// Reassignment commands move a contract between two synchronizers the participant is connected to: the
// unassignment takes it off its synchronizer and raises its reassignment counter by one, and the assignment
// naming the unassignment's reassignmentId puts it on the target with that same counter. Each is an update of
// the submitter's stream, at the offset its answer (waited for) or its completion (async) names, carrying the
// submitted command id. The contract is the check's own: created from the template and arguments of
// fixtures.ledgerCommands, moved away and back onto the target, then archived there.
import { isObject, parseJson, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { STREAM_LOOKUP_VARIANTS } from './stream-lookup.ts';
import {
  PATHS,
  acting,
  awaitCompletion,
  commandIdOf,
  creationOf,
  expectOffset,
  expectOkCompletion,
  findUpdate,
  jsCommands,
  ledgerEnd,
  noCompletion,
  readAt,
  submitted,
  transactionFormat,
  type Acting,
} from '../../interfaces/ledger/commands.ts';
import { predates } from '../../interfaces/ledger/release-line.ts';
import { ACS_DELTA, byParties } from '../../interfaces/ledger/updates.ts';

const VETTING_PATH = '/v2/package-vetting';

type Mode = 'wait' | 'async';

/** The contract being moved and where it is, for the checks and for what the run leaves behind. */
interface Moving {
  a: Acting;
  mode: Mode;
  templateId: string;
  contractId?: string;
  submitter: string;
  source: string;
  target: string;
  state: 'none' | 'created' | 'unassigned' | 'assigned' | 'archived';
  /** The last offset of the check's own updates: completions of its next command come after it. */
  seen?: number;
  reassignmentId?: string;
}

/** A reassignment record as an answer or the stream shows it, with where it sits in that answer. */
interface Shown {
  record: Json;
  x: Exchange;
  at: string;
  /** Who showed it: "the answer", "the stream". */
  by: string;
}

/** The event of `kind` of a reassignment record: a JsUnassignedEvent's value, or a JsAssignmentEvent itself. */
function eventOf(s: Shown, kind: 'JsUnassignedEvent' | 'JsAssignmentEvent'): { ev: Json; at: string } | undefined {
  const events: unknown[] = Array.isArray(s.record.events) ? s.record.events : [];
  for (const [i, wrapped] of events.entries()) {
    const inner = isObject(wrapped) ? wrapped[kind] : undefined;
    if (kind === 'JsUnassignedEvent' && isObject(inner) && isObject(inner.value)) return { ev: inner.value, at: `${s.at}/events/${i}/${kind}/value` };
    if (kind === 'JsAssignmentEvent' && isObject(inner)) return { ev: inner, at: `${s.at}/events/${i}/${kind}` };
  }
  return undefined;
}

function expectField(ctx: CheckContext, s: Shown, at: string, actual: unknown, expected: unknown, what: string): void {
  if (actual !== expected) ctx.expect(s.x).fail(`${s.by} shows ${what} ${JSON.stringify(actual) ?? 'nothing'}, expected ${JSON.stringify(expected)}`, at);
}

/** The unassignment of the fresh contract: off its source, counter 0 + 1. */
function judgeUnassigned(ctx: CheckContext, m: Moving, s: Shown): Json {
  expectField(ctx, s, `${s.at}/synchronizerId`, s.record.synchronizerId, m.source, 'the unassignment on synchronizer');
  const found = eventOf(s, 'JsUnassignedEvent');
  if (!found) return ctx.expect(s.x).fail(`${s.by} shows no JsUnassignedEvent in the unassignment of contract ${m.contractId}`, `${s.at}/events`);
  const { ev, at } = found;
  // Shown twice when waited for (the answer, the stream): both name the same reassignment.
  if (m.reassignmentId !== undefined) expectField(ctx, s, `${at}/reassignmentId`, ev.reassignmentId, m.reassignmentId, 'the reassignmentId');
  else if (typeof ev.reassignmentId === 'string' && ev.reassignmentId !== '') m.reassignmentId = ev.reassignmentId;
  expectField(ctx, s, `${at}/contractId`, ev.contractId, m.contractId, 'the unassigned contract');
  expectField(ctx, s, `${at}/source`, ev.source, m.source, 'the source');
  expectField(ctx, s, `${at}/target`, ev.target, m.target, 'the target');
  // A contract starts at counter 0; each unassignment raises it by one.
  expectField(
    ctx,
    s,
    `${at}/reassignmentCounter`,
    ev.reassignmentCounter,
    1,
    `the reassignment counter of the freshly created contract ${m.contractId} after its unassignment (0 + 1):`,
  );
  if (typeof ev.reassignmentId !== 'string' || ev.reassignmentId === '')
    ctx.expect(s.x).fail(`${s.by} shows no reassignmentId for the unassignment of ${m.contractId}: nothing to assign it by`, `${at}/reassignmentId`);
  return ev;
}

/** The assignment naming the unassignment: onto the target, with the unassignment's counter. */
function judgeAssigned(ctx: CheckContext, m: Moving, s: Shown, unassigned: Json): void {
  expectField(ctx, s, `${s.at}/synchronizerId`, s.record.synchronizerId, m.target, 'the assignment on synchronizer');
  const found = eventOf(s, 'JsAssignmentEvent');
  if (!found) return void ctx.expect(s.x).fail(`${s.by} shows no JsAssignmentEvent in the assignment of contract ${m.contractId}`, `${s.at}/events`);
  const { ev, at } = found;
  expectField(ctx, s, `${at}/reassignmentId`, ev.reassignmentId, unassigned.reassignmentId, 'the assigned reassignmentId');
  expectField(ctx, s, `${at}/source`, ev.source, m.source, 'the source');
  expectField(ctx, s, `${at}/target`, ev.target, m.target, 'the target');
  expectField(
    ctx,
    s,
    `${at}/reassignmentCounter`,
    ev.reassignmentCounter,
    unassigned.reassignmentCounter,
    "the assigned contract's reassignment counter (the unassignment's):",
  );
  expectField(
    ctx,
    s,
    `${at}/createdEvent/contractId`,
    isObject(ev.createdEvent) ? ev.createdEvent.contractId : undefined,
    m.contractId,
    'the assigned contract',
  );
}

/** The reassignment `updateId` at `offset` on the submitter's stream, with the submitted command id. */
async function onStream(ctx: CheckContext, m: Moving, commandId: string, updateId: string, offset: number, named: string): Promise<Shown> {
  const { x, els } = await readAt(ctx, offset, [m.submitter], ['reassignments'], ACS_DELTA, m.a.auth);
  const found = findUpdate(els, updateId);
  if (!found)
    return ctx
      .expect(x)
      .fail(`${named} update ${updateId} at offset ${offset}, yet the update stream of ${m.submitter} at that offset (attached) does not hold it`);
  const at = `/${found.index}/update/${found.kind}/value`;
  if (found.kind !== 'Reassignment')
    ctx.expect(x).fail(`the update ${updateId} of command ${commandId} is a ${found.kind} on the stream, not a Reassignment`, at);
  if (found.record.commandId !== commandId)
    ctx
      .expect(x)
      .fail(
        `the reassignment ${updateId} on the submitter's stream carries commandId ${JSON.stringify(found.record.commandId)}, not the submitted ${commandId}`,
        `${at}/commandId`,
      );
  return { record: found.record, x, at, by: 'the update stream (attached)' };
}

/**
 * Submits one reassignment command and gives the reassignment as the stream shows it (and, waited for, as
 * the answer does): `judge` holds for each.
 */
async function reassign(ctx: CheckContext, m: Moving, step: 'unassign' | 'assign', command: Json, judge: (s: Shown) => void): Promise<void> {
  const commandId = commandIdOf(ctx, `${m.mode}-reassignment-${step}`);
  const reassignmentCommands = { commandId, submitter: m.submitter, commands: [{ command }] };
  const what = `the ${step}ment of contract ${m.contractId} from ${m.source} to ${m.target}, command ${commandId}`;
  if (m.mode === 'wait') {
    const x = await ctx.ledger.post(PATHS.forReassignment, { reassignmentCommands, eventFormat: byParties([m.submitter]) }, { auth: m.a.auth });
    const record = submitted(ctx, x, commandId, what)?.reassignment;
    m.state = step === 'unassign' ? 'unassigned' : 'assigned';
    if (!isObject(record)) return void ctx.expect(x).fail('the answer carries no reassignment object', '/reassignment');
    const answered: Shown = { record, x, at: '/reassignment', by: 'the answer' };
    judge(answered);
    const updateId = record.updateId;
    if (typeof updateId !== 'string' || updateId === '')
      return void ctx.expect(x).fail('the returned reassignment names no updateId', '/reassignment/updateId');
    if (record.commandId !== commandId)
      ctx
        .expect(x)
        .fail(`the returned reassignment carries commandId ${JSON.stringify(record.commandId)}, not the submitted ${commandId}`, '/reassignment/commandId');
    const offset = expectOffset(ctx, record.offset, x, '/reassignment/offset', 'the returned reassignment has no offset to look for it at');
    judge(await onStream(ctx, m, commandId, updateId, offset, 'submit-and-wait-for-reassignment answered'));
    return;
  }
  // Its completion comes after the last offset the check saw (the creation, the unassignment), else the ledger end.
  const begin = m.seen ?? (await ledgerEnd(ctx, m.a.auth));
  const x = await ctx.ledger.post(PATHS.asyncReassignment, { reassignmentCommands }, { auth: m.a.auth });
  submitted(ctx, x, commandId, what);
  m.state = step === 'unassign' ? 'unassigned' : 'assigned';
  const { found, last } = await awaitCompletion(ctx, PATHS.completions, [m.submitter], begin, commandId, m.a.auth);
  if (!found) return noCompletion(ctx, PATHS.completions, commandId, begin, last, 'POST /v2/commands/async/submit-reassignment');
  expectOkCompletion(ctx, found, commandId, [m.submitter]);
  // An unassignment completes on its source synchronizer, an assignment on its target.
  const on = step === 'unassign' ? m.source : m.target;
  const time = found.value.synchronizerTime;
  if (!isObject(time) || time.synchronizerId !== on)
    ctx
      .expect(found.x)
      .fail(
        `the completion of the ${step}ment ${commandId} names synchronizer ${JSON.stringify(isObject(time) ? time.synchronizerId : time)}, not ${on}`,
        `${found.pointer}/synchronizerTime`,
      );
  const offset = expectOffset(ctx, found.value.offset, found.x, `${found.pointer}/offset`, `the completion of command ${commandId}`);
  m.seen = offset;
  judge(await onStream(ctx, m, commandId, found.value.updateId, offset, `the completion of command ${commandId} names`));
}

/** Best effort, after a check stopped half-way: the contract back on a synchronizer and archived. Judges nothing. */
async function cleanUp(ctx: CheckContext, m: Moving): Promise<void> {
  try {
    if (m.state === 'unassigned' && m.reassignmentId) {
      const command = { AssignCommand: { value: { reassignmentId: m.reassignmentId, source: m.source, target: m.target } } };
      const commandId = commandIdOf(ctx, `${m.mode}-reassignment-cleanup-assign`);
      const x = await ctx.ledger.post(
        PATHS.forReassignment,
        { reassignmentCommands: { commandId, submitter: m.submitter, commands: [{ command }] } },
        { auth: m.a.auth },
      );
      if (x.status === 200) m.state = 'assigned';
    }
    if (m.state === 'created' || m.state === 'assigned') {
      const x = await archive(ctx, m, 'cleanup-archive');
      if (x.status === 200) m.state = 'archived';
    }
  } catch {
    // What is left is said in ctx.created.
  }
}

function archive(ctx: CheckContext, m: Moving, name: string): Promise<Exchange> {
  const commands = [{ ExerciseCommand: { templateId: m.templateId, contractId: m.contractId, choice: 'Archive', choiceArgument: {} } }];
  return ctx.ledger.post(PATHS.submitAndWait, jsCommands(m.a, commandIdOf(ctx, `${m.mode}-reassignment-${name}`), commands), { auth: m.a.auth });
}

const FATE: Record<Moving['state'], string> = {
  none: 'not created',
  created: 'left active where it was created: the check stopped before moving it',
  unassigned: 'left unassigned (in flight): the check stopped before assigning it',
  assigned: 'left active on the target: the check stopped before archiving it',
  archived: 'archived on the target',
};

/**
 * The synchronizers of `candidates` where the vetting listing (read whole, on one page) shows this participant
 * (or, where GET /v2/parties/participant-id does not say which it is, every participant) not vetting the
 * template's package: a contract of it cannot be assigned there, which a correct node refuses. A listing that
 * cannot be read, or is paged, says nothing.
 */
async function unvettedOn(ctx: CheckContext, templateId: string, candidates: readonly string[]): Promise<Set<string>> {
  const request = (await predates(ctx, '3.5')) ? { pageToken: '', pageSize: 0 } : {};
  const [x, self] = await Promise.all([ctx.ledger.get(VETTING_PATH, { body: request }), ctx.ledger.get('/v2/parties/participant-id')]);
  const body = x.status === 200 ? parseJson(x.text) : undefined;
  if (!isObject(body) || !Array.isArray(body.vettedPackages) || (typeof body.nextPageToken === 'string' && body.nextPageToken !== '')) return new Set();
  const own: unknown = self.status === 200 ? parseJson(self.text)?.participantId : undefined;
  const [pkg] = templateId.split(':');
  const named = pkg?.startsWith('#') ? pkg.slice(1) : undefined;
  const vets = (p: unknown) => isObject(p) && (named ? p.packageName === named : p.packageId === pkg);
  const entries = body.vettedPackages.filter((e): e is Record<string, Json> => isObject(e) && (typeof own !== 'string' || e.participantId === own));
  return new Set(
    candidates.filter((s) => {
      const on = entries.filter((e) => e.synchronizerId === s);
      return on.length > 0 && !on.some((e) => Array.isArray(e.packages) && e.packages.some(vets));
    }),
  );
}

async function moveAndBack(ctx: CheckContext<'ledgerCommands'>, mode: Mode): Promise<void> {
  const a = acting(ctx);
  const creation = creationOf(a.given);
  if (!creation) return ctx.skip('fixtures.ledgerCommands has no CreateCommand or CreateAndExerciseCommand to create a contract of its template with');
  const connected = [...new Set(ctx.fixtures.ledgerSynchronizers)];
  if (connected.length < 2)
    return ctx.skip(
      `the participant is connected to one synchronizer only where the acting party may submit (${connected.join(', ')}; fixtures.ledgerSynchronizers): a reassignment needs a second`,
    );
  // A synchronizer that does not vet the template's package takes no contract of it.
  const unvetted = await unvettedOn(ctx, creation.templateId, connected);
  const synchronizers = connected.filter((s) => !unvetted.has(s));
  if (synchronizers.length < 2)
    return ctx.skip(
      `the package of ${creation.templateId} is vetted on fewer than two of the synchronizers the acting party may submit on (not on ${[...unvetted].join(', ')}; GET ${VETTING_PATH}): no synchronizer to move a contract of it to`,
    );

  const createdBy = commandIdOf(ctx, `${mode}-reassignment-create`);
  const x = await ctx.ledger.post(
    PATHS.forTransaction,
    { commands: jsCommands(a, createdBy, [{ CreateCommand: creation }]), transactionFormat: transactionFormat(a.actAs, ACS_DELTA) },
    { auth: a.auth },
  );
  const tx = submitted(ctx, x, createdBy, `a ${creation.templateId} contract to move, created by command ${createdBy}`)?.transaction;
  const events: unknown[] = isObject(tx) && Array.isArray(tx.events) ? tx.events : [];
  const index = events.findIndex((e) => isObject(e) && isObject(e.CreatedEvent));
  const created = index >= 0 ? (events[index] as Json).CreatedEvent : undefined;
  if (typeof created?.contractId !== 'string')
    return ctx
      .expect(x)
      .fail(
        `the transaction of command ${createdBy} shows the acting parties no created contract (an ACS delta for ${a.actAs.join(', ')})`,
        '/transaction/events',
      );
  const source = tx.synchronizerId;
  const seen = Number.isSafeInteger(tx.offset) && tx.offset > 0 ? (tx.offset as number) : undefined;
  if (typeof source !== 'string') return ctx.expect(x).fail(`the transaction of command ${createdBy} names no synchronizer`, '/transaction/synchronizerId');
  const stakeholders = new Set([...(created.signatories ?? []), ...(created.observers ?? [])]);
  const m: Moving = {
    a,
    mode,
    templateId: creation.templateId,
    contractId: created.contractId,
    submitter: a.actAs.find((p) => stakeholders.has(p)) ?? a.actAs[0]!,
    source,
    target: synchronizers.find((s) => s !== source)!,
    state: 'created',
    seen,
  };
  try {
    let unassigned: Json;
    await reassign(ctx, m, 'unassign', { UnassignCommand: { value: { contractId: m.contractId, source: m.source, target: m.target } } }, (s) => {
      unassigned = judgeUnassigned(ctx, m, s);
    });
    await reassign(ctx, m, 'assign', { AssignCommand: { value: { reassignmentId: m.reassignmentId, source: m.source, target: m.target } } }, (s) =>
      judgeAssigned(ctx, m, s, unassigned),
    );
    const archived = await archive(ctx, m, 'archive');
    submitted(ctx, archived, commandIdOf(ctx, `${mode}-reassignment-archive`), `the archive of contract ${m.contractId} on the target ${m.target}`);
    m.state = 'archived';
  } finally {
    if (m.state !== 'archived') await cleanUp(ctx, m);
    ctx.created(`contract ${m.contractId} (${m.templateId}), created by command ${createdBy} on ${m.source}, moved to ${m.target}: ${FATE[m.state]}`);
  }
}

export const REASSIGNMENT_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', variants: STREAM_LOOKUP_VARIANTS }, [
  rule({
    id: 'LEDGER-COMMANDS-FOR-REASSIGNMENT-MOVES',
    operations: ['submitAndWaitForReassignment', 'submitAndWaitForTransaction', 'getUpdates', 'submitAndWait', 'getPackageVetting'],
    confirms: 'submitAndWaitForReassignment',
    cites: ['A.overview.6'],
    mutates: true,
    needs: ['ledgerCommands', 'ledgerSynchronizers'],
    tags: ['commands', 'reassignments'],
    check: (ctx) => moveAndBack(ctx, 'wait'),
  }),
  rule({
    id: 'LEDGER-COMMANDS-ASYNC-REASSIGNMENT-MOVES',
    operations: ['submitReassignmentAsync', 'submitAndWaitForTransaction', 'getCompletions', 'getUpdates', 'submitAndWait', 'getPackageVetting'],
    confirms: 'submitReassignmentAsync',
    cites: ['A.overview.12'],
    mutates: true,
    needs: ['ledgerCommands', 'ledgerSynchronizers'],
    tags: ['commands', 'reassignments'],
    check: (ctx) => moveAndBack(ctx, 'async'),
  }),
]);
