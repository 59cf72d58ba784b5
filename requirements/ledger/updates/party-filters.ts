// Whom a read reads as, and with which defaults: filtersForAnyParty, several parties in filtersByParty, Filters
// without any cumulative entry, and the default mapping of the deprecated `filter`. Each is judged against
// reads of the same window that ask the same thing another way (metamorphic), so no knowledge of the target's
// history is needed: only that the sampled window holds events of the ledger parties.
import { UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import type { Json } from '../../../common/json.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  ACS_DELTA,
  LEDGER_EFFECTS,
  OPERATION,
  anyPartyFormat,
  body,
  byParties,
  answerElements,
  eventKey,
  eventsOf,
  isCheckpoint,
  kindOf,
  readRequest,
  readWindow,
  sampleStream,
  sampleWindow,
  WILDCARD,
  updateFormat,
  updateKey,
  windowArb,
  type Part,
  type Shape,
  type UpdatesRead,
  type Window,
} from '../../../interfaces/ledger/updates.ts';
import { eachVariant, readVariant, streamVariants, twoEntries } from '../../../interfaces/ledger/stream-variants.ts';

const EVENT_PARTS: Part[] = ['transactions', 'reassignments'];
/** Filters without any cumulative entry, both ways the description allows ("optional, may be empty"). */
const EMPTY_FILTERS: Json[] = [{}, { cumulative: [] }];

/** Whom a read reads as holds in both transaction shapes: each party-set rule is judged in each. */
const SHAPES: Shape[] = [ACS_DELTA, LEDGER_EFFECTS];

const show = (w: Window) => `(${w.beginExclusive}, ${w.endInclusive}]`;

/** The event identities of a read of the window, for the parties and filters given (transactions and reassignments). */
export async function eventKeysOf(ctx: CheckContext, w: Window, parties: string[], filters?: Json, shape: Shape = ACS_DELTA): Promise<Set<string>> {
  const { els } = await readWindow(ctx, w, updateFormat(parties, EVENT_PARTS, shape, filters));
  return new Set(eventsOf(els).map(eventKey));
}

/**
 * Fails when the combined read lacks an event one of the reference reads holds; returns how many events were
 * compared. Only missing events are judged: an event no requesting party may see is the stakeholder rules'.
 */
function expectHolds(ctx: CheckContext, combined: UpdatesRead, references: Array<{ label: string; keys: Set<string> }>, what: string): number {
  const held = new Set(eventsOf(combined.els).map(eventKey));
  let compared = 0;
  for (const r of references) {
    compared += r.keys.size;
    const missing = [...r.keys].filter((k) => !held.has(k));
    if (missing.length)
      ctx
        .expect(combined.x)
        .fail(`${what} lacks ${missing.length} event(s) that ${r.label} holds (offset/kind/contract/node: ${missing.slice(0, 3).join(', ')})`);
  }
  return compared;
}

export const PARTY_FILTER_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], webSocketTwins: UPDATES_CHANNEL },
  [
    rule({
      id: 'LEDGER-UPDATES-ANY-PARTY',
      cites: ['R.ledger.21'],
      needs: ['ledgerParties'],
      tags: ['filters'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        let compared = 0;
        // In the ledger-effects shape with two filter entries (a wildcard and a template), which select what the wildcard does.
        const two = twoEntries(s);
        // Short windows: reading as every party on the participant may hold far more than the sample.
        for (const shape of SHAPES) {
          await ctx.property(
            windowArb(s, { maxSpan: 15 }),
            async (w) => {
              const a = await readRequest(ctx, body(w, anyPartyFormat(shape === LEDGER_EFFECTS ? { cumulative: two } : undefined, shape)));
              // Reading as any party needs a right the configured token may lack; that is no answer about the rule.
              if (a.status === 401 || a.status === 403) ctx.skip(`the configured ledger token may not read with filtersForAnyParty (${a.said})`);
              if (a.status === 413) ctx.skip(`the any-party read of ${show(w)} exceeds the node's list limit (413)`);
              const combined = { x: a.x, els: answerElements(ctx, a) };
              const references = [];
              for (const p of s.parties)
                references.push({ label: `${p}'s own ${shape} read of the window`, keys: await eventKeysOf(ctx, w, [p], undefined, shape) });
              compared += expectHolds(ctx, combined, references, `the filtersForAnyParty ${shape} read of ${show(w)}`);
            },
            { runs: Math.min(ctx.runs, 2) },
          );
        }
        if (compared === 0) ctx.skip('the ledger parties have no events in the windows read');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-SEVERAL-PARTIES',
      cites: ['R.ledger.36'],
      needs: ['ledgerParties'],
      tags: ['filters'],
      variants: { parties: { 'any-party': "the rule of parties keyed in filtersByParty (R.ledger.36); filtersForAnyParty is LEDGER-UPDATES-ANY-PARTY's" } },
      async check(ctx) {
        const s = await sampleStream(ctx);
        if (s.parties.length < 2) ctx.skip('reading as several parties needs at least two ledger parties');
        const w = sampleWindow(s);
        // Every order of the listed parties shows the same: the last one first, then the fixture's order; in
        // both transaction shapes (ledger effects lists the events a listed party witnesses, ACS delta those
        // of contracts it is a stakeholder of: either way each listed party's own events).
        let compared = 0;
        // The reversed order with two filter entries (a wildcard and a template), which select what the wildcard does.
        const two = { cumulative: twoEntries(s) };
        for (const shape of SHAPES) {
          for (const parties of [[...s.parties].reverse(), s.parties]) {
            const combined = await readWindow(ctx, w, updateFormat(parties, EVENT_PARTS, shape, parties === s.parties ? undefined : two));
            const references = [];
            for (const p of parties)
              references.push({ label: `${p}'s own ${shape} read of the window`, keys: await eventKeysOf(ctx, w, [p], undefined, shape) });
            compared += expectHolds(ctx, combined, references, `the ${shape} read of ${show(w)} as ${parties.join(', ')}`);
          }
        }
        if (compared === 0) ctx.skip(`the ledger parties have no events in ${show(w)}`);
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-EMPTY-FILTERS',
      cites: ['R.ledger.29'],
      needs: ['ledgerParties'],
      tags: ['filters'],
      variants: {
        cumulative:
          'the rule of Filters with no cumulative entry (R.ledger.29): neither one nor several; the one-wildcard read it is compared with is its reference',
      },
      async check(ctx) {
        const s = await sampleStream(ctx);
        const w = sampleWindow(s);
        // In each variant of whom it reads as and of the shape: Filters without entries there against the
        // explicit equivalent there, one wildcard with includeCreatedEventBlob false (the WILDCARD of the client).
        await eachVariant(streamVariants(s), async (v) => {
          const wildcard = new Set(eventsOf((await readVariant(ctx, v, w, EVENT_PARTS, { filters: WILDCARD })).els).map(eventKey));
          if (v.prefix === '' && wildcard.size === 0) ctx.skip(`the ledger parties have no events in ${show(w)}`);
          for (const filters of EMPTY_FILTERS) {
            const read = await readVariant(ctx, v, w, EVENT_PARTS, { filters });
            const what = `${v.prefix}the read of ${show(w)} with Filters ${JSON.stringify(filters)}`;
            expectHolds(ctx, read, [{ label: 'a read with an explicit wildcard filter', keys: wildcard }], what);
            for (const e of eventsOf(read.els)) {
              const blob = e.ev.createdEventBlob;
              if (blob !== undefined && blob !== null && blob !== '')
                ctx.expect(read.x).fail(`${what} carries a createdEventBlob, which the implicit wildcard does not include`, `${e.pointer}/createdEventBlob`);
            }
          }
        });
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-LEGACY-FILTER-DEFAULT',
      cites: ['R.ledger.16'],
      needs: ['ledgerParties'],
      tags: ['update-format', 'legacy'],
      // The legacy request (filter, no updateFormat) and what it defaults to: topology events, which have no
      // transaction shape and no filter entries; its filter keys the sampled parties, as the topology read does.
      variants: {
        'transaction-shape': 'the legacy filter request has no updateFormat, and the topology events its default holds have no transaction shape',
        parties:
          'the legacy filter request keys the sampled parties (it has no filtersForAnyParty); the default judged is of topology events, chosen by party list',
        cumulative: 'the legacy filter request has no updateFormat, and the topology events its default holds are chosen by party list, not filter entries',
      },
      async check(ctx) {
        const s = await sampleStream(ctx);
        const w = sampleWindow(s);
        const topology = await readWindow(ctx, w, updateFormat(s.parties, ['topology']));
        const expected = topology.els.filter((e) => kindOf(e) === 'TopologyTransaction').map(updateKey);
        if (expected.length === 0) ctx.skip(`the ledger parties have no participant-authorization topology events in ${show(w)}`);
        const x = await readRequest(ctx, { ...w, filter: byParties(s.parties) });
        // The field is described as removed in release 3.5.0: a node that refuses it has no default to judge.
        if (x.status === 400) ctx.skip(`the node refuses the deprecated filter field (${x.said})`);
        if (x.status === 413) ctx.skip(`the legacy read of ${show(w)} exceeds the node's list limit (413)`);
        const held = new Set(
          answerElements(ctx, x)
            .filter((e) => !isCheckpoint(e))
            .map(updateKey),
        );
        const missing = expected.filter((k) => !held.has(k));
        if (missing.length)
          ctx
            .expect(x.x)
            .fail(
              `a read of ${show(w)} with the deprecated filter for ${s.parties.join(', ')} and no updateFormat lacks ${missing.length} of the ${expected.length} topology transactions an includeTopologyEvents read for those parties returns (${missing.slice(0, 3).join(', ')})`,
            );
      },
    }),
  ],
);
