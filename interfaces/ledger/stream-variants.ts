// The variants of one read of the update stream (x-cn-variants of getUpdates in specs/ledger-api.yaml): the
// transaction shape (ACS delta or ledger effects), the parties read as (every party by filtersForAnyParty,
// several or one keyed in filtersByParty) and the cumulative entries of the Filters (one or several). A rule
// of the stream that names none of them holds on each, so it runs over `streamVariants`: three formats that
// together show every value of every axis (a covering set, not the product, to keep the requests few).
// Which values a rule exercised is observed from its requests (engine/answers/variant-coverage.ts).
import type { Json } from '../../common/json.ts';
import { CheckSkipped, type CheckContext, type Citable } from '../../engine/model.ts';
import { summariseChannel } from '../../engine/transport/websocket.ts';
import type fc from 'fast-check';
import {
  ACS_DELTA,
  LEDGER_EFFECTS,
  PARTS,
  body,
  elementsOf,
  eventsOf,
  postUpdates,
  readWindow,
  sampleWindow,
  templateEntry,
  wildcardEntry,
  type Part,
  type Sample,
  type Shape,
  type UpdatesRead,
  type Window,
} from './updates.ts';
import { ChannelRefusal, channelElements, UPDATES_CHANNEL } from './update-channel.ts';

/** What a rule sets itself in a variant's format: the shape, the cumulative entries, or the whole Filters. */
export interface Own {
  shape?: Shape;
  cumulative?: Json[];
  filters?: Json;
}

export interface StreamVariant {
  /** How failure messages name the variant, e.g. "ledger effects, filtersByParty for alice, 2 entries". */
  label: string;
  /** What a failure message starts with: nothing for the first variant (the reads rules always made), else the label. */
  prefix: string;
  /** Whom it reads as: every party on the participant (filtersForAnyParty), or these parties (filtersByParty). */
  who: 'any' | readonly string[];
  shape: Shape;
  /** The cumulative entries of its Filters. */
  cumulative: Json[];
  /** The UpdateFormat of the variant asking for `parts` (every kind by default), a rule naming its own shape, entries or whole Filters. */
  format(parts?: readonly Part[], own?: Own): Json;
}

/** An UpdateFormat of the given parts reading as `who` with `filters`: filtersForAnyParty, or these parties by filtersByParty. */
function variantFormat(who: 'any' | readonly string[], topologyParties: readonly string[], shape: Shape, filters: Json, parts: readonly Part[]): Json {
  const event: Json = who === 'any' ? { filtersForAnyParty: filters } : { filtersByParty: Object.fromEntries(who.map((p) => [p, filters])) };
  const f: Json = {};
  if (parts.includes('transactions')) f.includeTransactions = { eventFormat: event, transactionShape: shape };
  if (parts.includes('reassignments')) f.includeReassignments = event;
  if (parts.includes('topology')) f.includeTopologyEvents = { includeParticipantAuthorizationEvents: { parties: [...topologyParties] } };
  return f;
}

/**
 * Two cumulative entries selecting what one wildcard selects: the wildcard, and a template the sample shows
 * created events of (a template the node knows; a wildcard may not be given twice, R.ledger.26). One wildcard
 * when the sample shows no template.
 */
export function twoEntries(s: Pick<Sample, 'elements'>): Json[] {
  const ev = eventsOf(s.elements).find((e) => e.kind === 'CreatedEvent' && typeof e.ev.templateId === 'string');
  return ev ? [wildcardEntry(), templateEntry(ev.ev.templateId as string)] : [wildcardEntry()];
}

/**
 * Three reads of the same updates for the sampled parties: (1) ACS delta, every sampled party keyed, one
 * wildcard entry (the reads the rules always made, first); (2) ledger effects, the first party alone, a
 * wildcard and a template entry (the template adds nothing to the wildcard, so the result is the wildcard's;
 * a wildcard may not be given twice, R.ledger.26); (3) ACS delta for any party, one wildcard entry. Without a
 * sampled template the second keeps one entry.
 */
export function streamVariants(s: Pick<Sample, 'parties' | 'elements'>): StreamVariant[] {
  const two = twoEntries(s);
  const first = s.parties.slice(0, 1);
  const many = s.parties.length === 1 ? s.parties[0]! : `${s.parties.length} parties`;
  const variants: Array<Pick<StreamVariant, 'label' | 'who' | 'shape' | 'cumulative'>> = [
    { label: `ACS delta, filtersByParty for ${many}, one entry`, who: s.parties, shape: ACS_DELTA, cumulative: [wildcardEntry()] },
    { label: `ledger effects, filtersByParty for ${first[0]}, ${two.length} entries`, who: first, shape: LEDGER_EFFECTS, cumulative: two },
    { label: 'ACS delta, filtersForAnyParty, one entry', who: 'any', shape: ACS_DELTA, cumulative: [wildcardEntry()] },
  ];
  return variants.map((v, i) => ({
    ...v,
    prefix: i === 0 ? '' : `${v.label}: `,
    format: (parts = PARTS, own: Own = {}) =>
      variantFormat(v.who, s.parties, own.shape ?? v.shape, own.filters ?? { cumulative: own.cumulative ?? v.cumulative }, parts),
  }));
}

/**
 * A variant the node would not answer here: filtersForAnyParty needs a right the configured token may lack
 * (401/403), and reading as every party may exceed the list limit (413) where the sampled parties did not.
 * That is no answer about the rule: the variant is passed over (the first, the reads rules always made, is
 * not: its refusal skips the rule as before).
 */
class VariantUnanswered extends Error {}

/** A bounded read of the window in the variant; a later variant the node does not answer is passed over (see VariantUnanswered). */
export async function readVariant(ctx: CheckContext, v: StreamVariant, w: Window, parts?: readonly Part[], own?: Own, extra?: Json): Promise<UpdatesRead> {
  if (v.prefix === '') return readWindow(ctx, w, v.format(parts, own), extra);
  if (ctx.transport === 'websocket') {
    const x = await ctx.ledger.channel(UPDATES_CHANNEL, { request: body(w, v.format(parts, own), extra) });
    try {
      const { els, cite } = channelElements(ctx, x, 'bounded');
      return { x: cite, els };
    } catch (e) {
      if (!(e instanceof ChannelRefusal)) throw e;
      if (v.who === 'any') throw new VariantUnanswered(`${v.label}: ${e.code}`);
      throw new CheckSkipped(e.message, { status: 403, exchange: summariseChannel(x) });
    }
  }
  const x = await postUpdates(ctx, body(w, v.format(parts, own), extra));
  if (x.status === 413 || (v.who === 'any' && (x.status === 401 || x.status === 403))) throw new VariantUnanswered(`${v.label}: ${x.status}`);
  return { x, els: elementsOf(ctx, x) };
}

/** Passes over a later variant whose read of any party the configured token may not make (for reads other than readVariant's). */
export function passOverRefused(v: StreamVariant, x: { status: number }): void {
  if (v.prefix !== '' && v.who === 'any' && (x.status === 401 || x.status === 403)) throw new VariantUnanswered(`${v.label}: ${x.status}`);
}

/** Runs `judge` on each variant, passing over those the node does not answer (VariantUnanswered). */
export async function eachVariant(variants: readonly StreamVariant[], judge: (v: StreamVariant) => Promise<void>): Promise<void> {
  for (const v of variants) {
    try {
      await judge(v);
    } catch (e) {
      if (!(e instanceof VariantUnanswered)) throw e;
    }
  }
}

/** The sampled window read in each variant: the sample itself for the first (read in its format), a bounded read for the others. */
export async function sampleReads(ctx: CheckContext, s: Sample, parts?: readonly Part[]): Promise<Array<{ v: StreamVariant; x: Citable; els: Json[] }>> {
  const out: Array<{ v: StreamVariant; x: Citable; els: Json[] }> = [];
  await eachVariant(streamVariants(s), async (v) => {
    if (v.prefix === '' && parts === undefined) out.push({ v, x: s.exchange, els: s.elements });
    else out.push({ v, ...(await readVariant(ctx, v, sampleWindow(s), parts)) });
  });
  return out;
}

/**
 * A property run on each variant, the run's budget of runs shared among them (at least one each), so that a
 * rule covers every variant for about the requests it made on one. Failure messages name the variant; a
 * variant the node does not answer ends that variant's runs.
 */
export async function propertyOverVariants<T>(
  ctx: CheckContext,
  variants: readonly StreamVariant[],
  arbitrary: fc.Arbitrary<T>,
  predicate: (v: StreamVariant, value: T) => Promise<void>,
  runs = ctx.runs,
  examples: readonly T[] = [],
): Promise<void> {
  // The run's cases shared out over the variants (the first ones get the remainder), each at least one: the
  // variants widen what is drawn, not how much.
  const share = (k: number) => Math.max(1, Math.floor(runs / variants.length) + (k < runs % variants.length ? 1 : 0));
  let k = 0;
  await eachVariant(variants, (v) => ctx.property(arbitrary, (value) => predicate(v, value), { runs: share(k++), examples }));
}
