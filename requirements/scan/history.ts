// Fixture updates looked up by id on the three history endpoints, each judged on its own:
// GET /v0/updates/{id} (`v0`, deprecated), GET /v2/updates/{id} (`v2`) and GET /v0/events/{id} (`events`, whose
// `update` carries the record). An endpoint the scan does not serve makes only the rules reading it
// unsupported; the others go on.
import { isObject, parseJson, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext } from '../../engine/model.ts';
import { acceptedObject, enc } from '../../interfaces/scan/common.ts';

export const WHERE = ['v0', 'v2', 'events'] as const;
export type Where = (typeof WHERE)[number];
export const OP: Record<Where, string> = { v0: 'getUpdateByIdV0', v2: 'getUpdateByIdV2', events: 'getEventById' };
export const PATH: Record<Where, string> = { v0: '/v0/updates/', v2: '/v2/updates/', events: '/v0/events/' };
/** Path of the update record inside each answer, as a JSON pointer prefix. */
export const BASE: Record<Where, string> = { v0: '', v2: '', events: '/update' };
/**
 * Why a rule judged on one update-by-id path leaves the other out (Requirement.variants, axis `version`): each
 * path is judged by a record of its own (the same rule on /v2/updates has `-V2-` in its id), so a report says
 * which version breaks it. The events endpoint is no version of these paths.
 */
export function otherVersionApart(where: Where): Record<string, Record<string, string>> {
  if (where === 'events') return {};
  const other = where === 'v0' ? 'v2' : 'v0';
  return {
    version: {
      [OP[other]]:
        `${LABEL[other]} is judged by a record of its own (ids with${other === 'v2' ? '' : 'out'} -V2-), so a report names the version that breaks the rule`,
    },
  };
}

/** Why a rule of UpdateHistoryTransactionV2 leaves /v0/updates out: it answers the older record, of which the description states no such thing. */
export const V2_RECORD_ONLY = {
  version: { [OP.v0]: '/v0/updates answers UpdateHistoryTransaction; the description states this of UpdateHistoryTransactionV2 only' },
};

/** `lossless` is a parameter of /v0/updates; the description shows none of /v2/updates but its path's id. */
export const LOSSLESS_V0_ONLY = { version: { [OP.v2]: "lossless is /v0/updates' parameter; the parameters of /v2/updates are not shown" } };

/** The endpoint as failure messages name it. */
export const LABEL: Record<Where, string> = { v0: '/v0/updates', v2: '/v2/updates', events: '/v0/events' };

/**
 * History looked up by id never changes, so one run fetches each lookup once and shares the answer between
 * its requirements (in the run's cache).
 */
export function historyGet(ctx: CheckContext, path: string, query?: Record<string, string>): Promise<Exchange> {
  const key = `scan-history ${ctx.scan.base}${path}?${JSON.stringify(query ?? {})}`;
  return ctx.shared(key, (forget) => {
    const x = ctx.scan.get(path, { query });
    // A request without an answer (or refused by the run's budget) is not kept: a later check asks again.
    x.then((r) => {
      if (r.status === 0) forget();
    }, forget);
    return x;
  });
}

/** The update record an answer carries: the body (update paths) or its `update` (events). Null reads as absent. */
export function updateOf(body: Record<string, Json>, where: Where): Record<string, Json> | undefined {
  const u = where === 'events' ? body.update : body;
  return isObject(u) ? u : undefined;
}

/** The transaction record of an answer, if it carries one (a tree: `events_by_id`). */
export function transactionOf(body: Record<string, Json>, where: Where): Record<string, Json> | undefined {
  const u = updateOf(body, where);
  return u && isObject(u.events_by_id) ? u : undefined;
}

/** The reassignment record of an answer, if it carries one (it has `event`). */
export function reassignmentOf(body: Record<string, Json>, where: Where): Record<string, Json> | undefined {
  const u = updateOf(body, where);
  return u && isObject(u.event) ? u : undefined;
}

export interface FetchedUpdate {
  id: string;
  exchange: Exchange;
  body: Record<string, Json>;
  /** The value encoding asked for where it is not the default (see RENDERINGS). */
  encoding?: string;
}

/**
 * The renderings a rule of a lookup judges when it names none: /v0/events answers in compact_json (the
 * default) or protobuf_json, "the record is the same in both, only the Daml values are written otherwise"
 * (C.events.1), so a rule of the record holds in both and is judged in both; the update paths have one.
 * A rule of one encoding asks for it by name (a `query`).
 */
const RENDERINGS: Record<Where, ReadonlyArray<Record<string, string> | undefined>> = {
  v0: [undefined],
  v2: [undefined],
  events: [undefined, { daml_value_encoding: 'protobuf_json' }],
};

/** How a failure names a looked-up update: the endpoint, the id, and the encoding where it is not the default. */
export const named = (u: { id: string; encoding?: string }, where: Where): string => `${LABEL[where]} ${u.id}${u.encoding ? ` (${u.encoding})` : ''}`;

/** Statuses that answer "no such resource" to a lookup: an unknown id, or a path the scan does not serve. */
const ABSENT = [404, 405, 501];

function isJsonBody(x: Exchange): boolean {
  if (!/json/i.test(x.headers['content-type'] ?? '')) return false;
  try {
    JSON.parse(x.text);
    return true;
  } catch {
    return false;
  }
}

/** What one endpoint answered for the fixture ids: the answers other than "absent", or why there are none. */
type Lookup = { answered: Array<{ id: string; exchange: Exchange }> } | { unserved: string; exchange: Exchange } | { unknown: string };

async function lookUp(ctx: CheckContext, ids: readonly string[], where: Where, query?: Record<string, string>): Promise<Lookup> {
  const answered: Array<{ id: string; exchange: Exchange }> = [];
  const absent: Exchange[] = [];
  for (const id of ids) {
    const x = await historyGet(ctx, PATH[where] + enc(id), query);
    if (ABSENT.includes(x.status)) absent.push(x);
    else answered.push({ id, exchange: x });
  }
  if (answered.length > 0 || absent.length === 0) return { answered };
  const path = `GET ${PATH[where]}{update_id}`;
  const refused = absent.find((x) => x.status !== 404);
  if (refused) return { unserved: `${path} is not served: it answers ${refused.status} to a fixture update id`, exchange: refused };
  // The interface's own 404 is JSON; a text one comes from the HTTP layer before any handler: no such route.
  const plain = absent.find((x) => !isJsonBody(x));
  if (plain)
    return {
      unserved: `${path} is not served: it answers 404 with a ${plain.headers['content-type'] ?? 'untyped'} body, not the interface's JSON error, to every fixture update id`,
      exchange: plain,
    };
  for (const other of WHERE.filter((w) => w !== where)) {
    for (const id of ids) {
      const x = await historyGet(ctx, PATH[other] + enc(id));
      const body = x.status === 200 && isJsonBody(x) ? (JSON.parse(x.text) as Json) : undefined;
      if (isObject(body) && updateOf(body, other))
        return {
          unserved: `${path} is not served: it answers 404 to every fixture update id, though ${LABEL[other]} answers ${id} with its update`,
          exchange: absent[0]!,
        };
    }
  }
  return { unknown: `none of the fixture update ids is known to ${LABEL[where]} (all answered 404)` };
}

/** The answers as updates: each must be a 200 JSON object. */
const asUpdates = (ctx: CheckContext, answered: Array<{ id: string; exchange: Exchange }>): FetchedUpdate[] =>
  answered.map(({ id, exchange }) => ({ id, exchange, body: ctx.expect(exchange, `fixture update ${id}`).status(200).object() }));

/**
 * Looks up fixture update ids on one endpoint. Ids it does not know (404) are left out: a fixture that is not
 * there cannot be checked, and a verdict-only id has no update. When none is known the check is skipped, or
 * reported unsupported when the endpoint is not served (see lookUp). Any other answer than 200 fails.
 */
export async function fetchUpdates(ctx: CheckContext, ids: readonly string[], where: Where, query?: Record<string, string>): Promise<FetchedUpdate[]> {
  const l = await lookUp(ctx, ids, where, query);
  if ('unserved' in l) return ctx.unsupported(l.unserved, { exchange: l.exchange });
  if ('unknown' in l) return ctx.skip(l.unknown);
  return asUpdates(ctx, l.answered);
}

/**
 * fetchUpdates in every rendering of the endpoint (RENDERINGS): the default's answers, then the others' for the
 * ids the default answered (each a 200 too: an encoding the description names is no invalid request).
 */
export async function fetchRenderings(ctx: CheckContext, ids: readonly string[], where: Where): Promise<FetchedUpdate[]> {
  const [first, ...others] = RENDERINGS[where];
  const out = await fetchUpdates(ctx, ids, where, first);
  const answered = [...out];
  for (const query of others) out.push(...(await rendered(ctx, answered, where, query!)));
  return out;
}

/** The updates the default rendering answered, asked for again in another (each a 200). */
async function rendered(ctx: CheckContext, updates: readonly FetchedUpdate[], where: Where, query: Record<string, string>): Promise<FetchedUpdate[]> {
  const answered = [];
  for (const { id } of updates) answered.push({ id, exchange: await historyGet(ctx, PATH[where] + enc(id), query) });
  return asUpdates(ctx, answered).map((u) => ({ ...u, encoding: Object.values(query).join() }));
}

/**
 * The fixture updates on every endpoint the scan serves, by endpoint and rendering (RENDERINGS: /v0/events
 * twice, in each value encoding, as two groups, so that a rule comparing updates compares within one
 * rendering); unsupported when it serves none.
 */
export async function fetchServedUpdates(ctx: CheckContext, ids: readonly string[]): Promise<Array<{ where: Where; updates: FetchedUpdate[] }>> {
  const out: Array<{ where: Where; updates: FetchedUpdate[] }> = [];
  const unserved: Array<{ unserved: string; exchange: Exchange }> = [];
  for (const where of WHERE) {
    const l = await lookUp(ctx, ids, where);
    if ('answered' in l) {
      const updates = asUpdates(ctx, l.answered);
      out.push({ where, updates });
      for (const query of RENDERINGS[where].slice(1)) out.push({ where, updates: await rendered(ctx, updates, where, query!) });
    } else if ('unserved' in l) unserved.push(l);
  }
  if (unserved.length === WHERE.length) ctx.unsupported(unserved.map((u) => u.unserved).join('; '), { exchange: unserved[0]!.exchange });
  return out;
}

/** Whether the scan serves the endpoint, judged on the fixture transaction ids (true when there are none). */
export async function historyServed(ctx: CheckContext, where: Where): Promise<boolean> {
  const ids = ctx.fixtures.transactionUpdateIds ?? [];
  // One answer other than "absent" shows the path served; only an all-absent endpoint needs the whole judgement.
  for (const id of ids) if (!ABSENT.includes((await historyGet(ctx, PATH[where] + enc(id))).status)) return true;
  return ids.length === 0 || !('unserved' in (await lookUp(ctx, ids, where)));
}

export interface FetchedTx extends FetchedUpdate {
  where: Where;
  tx: Record<string, Json>;
}

/** The fixture transactions as one endpoint renders them. */
export async function transactions(ctx: CheckContext<'transactionUpdateIds'>, where: Where, query?: Record<string, string>): Promise<FetchedTx[]> {
  const out: FetchedTx[] = [];
  const ids = ctx.fixtures.transactionUpdateIds;
  for (const u of await (query ? fetchUpdates(ctx, ids, where, query) : fetchRenderings(ctx, ids, where))) {
    const tx = transactionOf(u.body, where);
    if (tx) out.push({ ...u, where, tx });
  }
  if (out.length === 0) ctx.skip(`none of the fixture transaction ids is answered by ${LABEL[where]} with a transaction tree`);
  return out;
}

/** The parts of a transaction that do not depend on the payload encoding. */
function treeOutline(tx: Record<string, Json> | undefined): string {
  if (!tx) return 'no transaction';
  return JSON.stringify({ update_id: tx.update_id, roots: tx.root_event_ids, keys: Object.keys(tx.events_by_id ?? {}).sort() });
}

/** Fixture transactions compared per encoding check: enough to see a tree change, few enough to stay fast. */
const ENCODING_SAMPLE = 4;

/** A problem of the second value's transaction compared with the first's; the pointer is relative to the record. */
export type EncodingComparison = (first: Record<string, Json>, second: Record<string, Json>) => { message: string; pointer: string } | undefined;

/**
 * A check that the two values of an encoding parameter describe the same trees for the fixture transactions
 * (only the payload encoding may differ), and, where given, what `compare` asks of the two renderings. An id
 * answered without a tree in both (a verdict-only event, a reassignment) is not a transaction here and is
 * passed over.
 */
export function encodingCheck(
  where: Where,
  param: string,
  values: [string, string],
  compare?: EncodingComparison,
): (ctx: CheckContext<'transactionUpdateIds'>) => Promise<void> {
  return async (ctx) => {
    let checked = 0;
    let found = 0;
    // Transactions, then a few reassignments (the lookups answer either; a reassignment's created event carries
    // Daml values too): the record is the same in both encodings whatever its type.
    const samples = [
      { ids: ctx.fixtures.transactionUpdateIds, cap: ENCODING_SAMPLE },
      { ids: ctx.fixtures.reassignmentUpdateIds ?? [], cap: 2 },
    ];
    for (const { ids, cap } of samples) {
      let taken = 0;
      // Reassignments of both kinds (an unassignment carries no Daml value, an assignment its created event):
      // the sample goes on, a few more at most, until it has seen each.
      const kinds = new Set<string>();
      for (const updateId of ids) {
        if (taken >= cap && (kinds.size === 2 || taken >= cap + 4 || ids === samples[0]!.ids)) break;
        const answers = [];
        for (const value of values) {
          const x = await historyGet(ctx, PATH[where] + enc(updateId), { [param]: value });
          if (ABSENT.includes(x.status)) break;
          const body = ctx.expect(x, `${param}=${value} is an allowed value`).status(200).object();
          const tx = transactionOf(body, where);
          const rec = tx ?? reassignmentOf(body, where);
          if (rec && rec.update_id !== updateId)
            ctx.expect(x).fail(`${param}=${value}: update_id ${JSON.stringify(rec.update_id)} is not the requested ${updateId}`, `${BASE[where]}/update_id`);
          answers.push({ x, tx, rec });
        }
        if (answers.length < 2) continue;
        const event = answers[0]!.tx ? undefined : answers[0]!.rec?.event;
        if (isObject(event)) kinds.add(isObject(event.created_event) ? 'assignment' : 'unassignment');
        found++;
        if (!answers[0]!.rec && !answers[1]!.rec) continue;
        taken++;
        if (answers[0]!.tx || answers[1]!.tx) checked++;
        if (treeOutline(answers[0]!.tx) !== treeOutline(answers[1]!.tx)) {
          ctx
            .expect((answers[0]!.tx && answers[1]!.tx ? answers[1] : answers.find((a) => !a.tx))!.x)
            .fail(
              `${param}=${values[0]} and ${param}=${values[1]} describe different trees for ${updateId} (update id, roots or event ids differ, or only one carries a tree); only the payload encoding may differ`,
            );
        }
        // The record's own fields (workflow, times, synchronizer, ...) are no payload: they are the same.
        const [a, b] = [answers[0]!.rec, answers[1]!.rec];
        const payload = ['events_by_id', 'event'];
        const field = a && b ? Object.keys(a).find((k) => !payload.includes(k) && k in b && JSON.stringify(a[k]) !== JSON.stringify(b[k])) : undefined;
        if (field)
          ctx
            .expect(answers[1]!.x)
            .fail(
              `${LABEL[where]} ${updateId}: ${field} is ${JSON.stringify(b![field])} with ${param}=${values[1]} but ${JSON.stringify(a![field])} with ${param}=${values[0]}; only the payload encoding may differ`,
              `${BASE[where]}/${field}`,
            );
        // The values of a record of either type (a transaction's tree, an assignment's created event).
        const p = a && b ? compare?.(a, b) : undefined;
        if (p)
          ctx
            .expect(answers[1]!.x)
            .fail(`${LABEL[where]} ${updateId}, ${param}=${values[1]} against ${param}=${values[0]}: ${p.message}`, BASE[where] + p.pointer);
      }
    }
    if (found === 0) await fetchUpdates(ctx, ctx.fixtures.transactionUpdateIds, where); // unsupported, or skipped as unknown
    if (checked === 0) ctx.skip(`none of the fixture transaction ids is answered by ${LABEL[where]} with a transaction tree`);
  };
}

/** Fixture ids a positive lookup asks for, per record type: the first few (a verdict-only id among them too, where the fixture has one). */
const LOOKUP_SAMPLE = 4;
const ORIGIN = "fixtures.transactionUpdateIds; discovery: this scan's update and event history (POST /v2/updates, POST /v0/events)";
const REASSIGNMENT_ORIGIN = "fixtures.reassignmentUpdateIds; discovery: this scan's update history (POST /v2/updates)";

/**
 * The record types a lookup by update id can answer with, each with the fixture ids that are of it. The update
 * paths answer "either UpdateHistoryTransaction or UpdateHistoryReassignment", the event history's `update` is
 * "transaction or reassignment": a lookup is judged on ids of every type, not on transactions alone.
 */
function lookupIds(ctx: CheckContext<'transactionUpdateIds'>): Array<{ type: string; ids: readonly string[]; origin: string }> {
  return [
    { type: 'transaction', ids: ctx.fixtures.transactionUpdateIds, origin: ORIGIN },
    { type: 'reassignment', ids: ctx.fixtures.reassignmentUpdateIds ?? [], origin: REASSIGNMENT_ORIGIN },
  ];
}

/** The update ids an answer says it is about: the record's, and on /v0/events the verdict's too (absent parts left out). */
function namedIds(body: Record<string, Json>, where: Where): Array<{ id: Json; pointer: string }> {
  if (where !== 'events') return [{ id: body.update_id, pointer: '/update_id' }];
  const parts = [
    { part: body.update, pointer: '/update/update_id' },
    { part: body.verdict, pointer: '/verdict/update_id' },
  ];
  return parts.filter((p) => isObject(p.part)).map((p) => ({ id: (p.part as Record<string, Json>).update_id, pointer: p.pointer }));
}

/**
 * The positive requirement of a history lookup: fixture update ids of every record type (transactions and
 * reassignments), which the scan itself listed, are answered (ctx.accepted), each with the update asked for.
 * On the update paths a verdict-only id is unknown (its transaction was rejected), so a 404 there is a refusal
 * only for an id /v0/events answers with its update; the event history knows every listed id, as an update
 * or a verdict.
 */
export function lookupCheck(where: Where): (ctx: CheckContext<'transactionUpdateIds'>) => Promise<void> {
  return async (ctx) => {
    for (const { type, ids, origin } of lookupIds(ctx)) {
      const noun = type === 'transaction' ? 'update' : `${type} update`;
      let answered = 0;
      let unknown: { id: string; x: Exchange } | undefined;
      // Each id in every rendering of the endpoint (both value encodings of /v0/events): a lookup answers in each.
      const asks = ids.slice(0, LOOKUP_SAMPLE).flatMap((id) => RENDERINGS[where].map((query) => ({ id, query })));
      for (const { id, query } of asks) {
        const x = await ctx.scan.get(PATH[where] + enc(id), { query });
        const what = `${noun} ${id}${query ? ` (${Object.values(query).join()})` : ''} (${origin})`;
        if (x.status === 404 && where !== 'events') {
          const item = await historyGet(ctx, PATH.events + enc(id));
          const known = item.status === 200 ? updateOf(parseJson(item.text) ?? {}, 'events') : undefined;
          if (known?.update_id === id) acceptedObject(ctx, x, `${what}, which GET /v0/events/${id} answers with its update`);
          unknown ??= { id, x };
          continue;
        }
        const body = acceptedObject(ctx, x, what);
        answered++;
        const named = namedIds(body, where);
        if (named.length === 0) ctx.expect(x).fail(`${LABEL[where]} ${id}: the event item carries neither an update nor a verdict: it is about no update`);
        for (const n of named)
          if (n.id !== id) ctx.expect(x).fail(`asked ${LABEL[where]} for ${noun} ${id}, the answer is about update ${JSON.stringify(n.id)}`, n.pointer);
      }
      // Transactions are what every scan has: none found fails. A reassignment the event history does not know is
      // judged above only (a scan may list no reassignment at all).
      if (type === 'transaction' && answered === 0 && unknown)
        acceptedObject(ctx, unknown.x, `${noun} ${unknown.id} (${origin}); none of the fixture ids asked was found`);
    }
  };
}
