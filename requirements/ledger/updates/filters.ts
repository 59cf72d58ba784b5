// Which events the requesting parties get: the ACS-delta shape (created/archived events of contracts with a
// requesting stakeholder), the ledger-effects shape (created/exercised events a requesting party
// witnesses), witnessParties within the requesting parties, and template filters. Each check judges only
// what the answer itself shows (a created event names its signatories and observers), so it needs no
// knowledge of the target's history.
import { UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import fc from 'fast-check';
import type { Json } from '../../../common/json.ts';
import type { CheckContext, Citable, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  ACS_DELTA,
  LEDGER_EFFECTS,
  OPERATION,
  eventsOf,
  readWindow,
  sampleStream,
  sampleWindow,
  strings,
  templateEntry,
  updateFormat,
  type FlatEvent,
  type Sample,
  type Shape,
} from '../../../interfaces/ledger/updates.ts';
import { eachVariant, propertyOverVariants, readVariant, streamVariants, twoEntries } from '../../../interfaces/ledger/stream-variants.ts';

/** One or two of the sampled parties: small sets make leaks visible. (One when that is all there is:
 * fast-check refuses a maxLength beyond the array's length.) */
const partiesArb = (s: Sample) => fc.subarray(s.parties, { minLength: 1, maxLength: Math.min(2, s.parties.length) });

/** Stakeholders of a created event, as the event shows them: signatories and observers. */
const stakeholders = (ev: Json) => new Set([...strings(ev.signatories), ...strings(ev.observers)]);
const hasRequestingStakeholder = (ev: Json, parties: readonly string[]) => {
  const sh = stakeholders(ev);
  return parties.some((p) => sh.has(p));
};
const isCreated = (e: FlatEvent) => e.kind === 'CreatedEvent' || e.kind === 'JsAssignmentEvent';

async function readTransactions(
  ctx: CheckContext,
  s: Sample,
  parties: string[],
  shape: Shape,
  withReassignments = false,
  cumulative?: Json[],
): Promise<{ x: Citable; events: FlatEvent[] }> {
  const { x, els } = await readWindow(
    ctx,
    sampleWindow(s),
    updateFormat(parties, withReassignments ? ['transactions', 'reassignments'] : ['transactions'], shape, cumulative && { cumulative }),
  );
  return { x, events: eventsOf(els) };
}

/** The transaction events judged; fails on one of a kind the shape does not allow. */
function expectEventKinds(ctx: CheckContext, x: Citable, events: FlatEvent[], allowed: string[], shapeName: string, prefix = ''): number {
  const judged = events.filter((e) => e.from === 'Transaction');
  for (const e of judged) {
    if (!allowed.includes(e.kind))
      ctx.expect(x).fail(`${prefix}a ${shapeName} transaction carries a ${e.kind}; only ${allowed.join(' and ')} belong there`, e.pointer);
  }
  return judged.length;
}

/**
 * A property whose reads held nothing to judge proved nothing: with one party, or a pick of one or two of
 * several, the parties read as may have no events in the sampled window.
 */
function expectJudged(ctx: CheckContext, judged: number, what: string): void {
  if (judged === 0) ctx.skip(`the reads of the sampled window as the ledger parties held no ${what} to judge`);
}

/** Templates of the created events the sampled (wildcard) read showed to a requesting stakeholder. */
export function sampledTemplates(s: Sample): string[] {
  const seen = eventsOf(s.elements).filter(
    (e) => e.kind === 'CreatedEvent' && typeof e.ev.templateId === 'string' && hasRequestingStakeholder(e.ev, s.parties),
  );
  return [...new Set(seen.map((e) => e.ev.templateId as string))];
}

/**
 * The event kinds of a shape, in the variants of the read the property above did not take: several filter
 * entries, and filtersForAnyParty (the kinds of a shape do not depend on whom it reads as).
 */
async function expectKindsInVariants(ctx: CheckContext, s: Sample, shape: Shape, allowed: string[], shapeName: string): Promise<number> {
  let judged = 0;
  await eachVariant(streamVariants(s).slice(1), async (v) => {
    const { x, els } = await readVariant(ctx, v, sampleWindow(s), ['transactions'], { shape });
    judged += expectEventKinds(ctx, x, eventsOf(els), allowed, shapeName, v.prefix);
  });
  return judged;
}

/** Why a rule judged against the requesting parties does not apply to filtersForAnyParty. */
const ANY_PARTY_UNKNOWN =
  'filtersForAnyParty requests every party hosted on the participant, which no answer names: whether a stakeholder or witness is among them cannot be told from the answer';

export const FILTER_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], webSocketTwins: UPDATES_CHANNEL },
  [
    rule({
      id: 'LEDGER-UPDATES-ACS-DELTA-EVENT-KINDS',
      cites: ['R.ledger.24', 'R.ledger.36', 'A.updates.1', 'X.events.3'],
      needs: ['ledgerParties'],
      tags: ['acs-delta'],
      variants: {
        'transaction-shape': {
          'ledger-effects': "the rule of the ACS-delta shape (R.ledger.24); the ledger-effects shape's kinds are LEDGER-UPDATES-LEDGER-EFFECTS-EVENT-KINDS",
        },
      },
      async check(ctx) {
        const s = await sampleStream(ctx);
        let judged = 0;
        await ctx.property(
          partiesArb(s),
          async (parties) => {
            const { x, events } = await readTransactions(ctx, s, parties, ACS_DELTA);
            judged += expectEventKinds(ctx, x, events, ['CreatedEvent', 'ArchivedEvent'], 'ACS-delta');
          },
          { runs: Math.min(ctx.runs, 4) },
        );
        judged += await expectKindsInVariants(ctx, s, ACS_DELTA, ['CreatedEvent', 'ArchivedEvent'], 'ACS-delta');
        expectJudged(ctx, judged, 'transaction event');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER',
      cites: ['S.service.4', 'S.service.5', 'R.ledger.24', 'R.ledger.31', 'R.ledger.36', 'A.updates.1', 'X.events.3'],
      needs: ['ledgerParties'],
      tags: ['acs-delta'],
      variants: {
        'transaction-shape': {
          'ledger-effects': "the rule of the ACS-delta shape (R.ledger.24); the ledger-effects shape's is LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS",
        },
        parties: { 'any-party': ANY_PARTY_UNKNOWN },
      },
      async check(ctx) {
        const s = await sampleStream(ctx);
        const two = twoEntries(s);
        let judged = 0;
        let n = 0;
        await ctx.property(partiesArb(s), async (parties) => {
          // Every other read with two filter entries (a wildcard and a template): they select what the wildcard does.
          const { x, events } = await readTransactions(ctx, s, parties, ACS_DELTA, true, n++ % 2 ? two : undefined);
          for (const e of events.filter(isCreated)) {
            if (!Array.isArray(e.ev.signatories)) continue; // nothing to judge it by
            judged++;
            if (!hasRequestingStakeholder(e.ev, parties)) {
              ctx
                .expect(x)
                .fail(
                  `read as ${parties.join(', ')}: a created event of contract ${e.ev.contractId} whose stakeholders (signatories and observers) include no requesting party`,
                  e.pointer,
                );
            }
          }
        });
        expectJudged(ctx, judged, 'created event showing its signatories');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-LEDGER-EFFECTS-EVENT-KINDS',
      cites: ['R.ledger.23', 'R.ledger.35', 'A.updates.1', 'X.events.4'],
      needs: ['ledgerParties'],
      tags: ['ledger-effects'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        let judged = 0;
        await ctx.property(
          partiesArb(s),
          async (parties) => {
            const { x, events } = await readTransactions(ctx, s, parties, LEDGER_EFFECTS);
            judged += expectEventKinds(ctx, x, events, ['CreatedEvent', 'ExercisedEvent'], 'ledger-effects');
          },
          { runs: Math.min(ctx.runs, 4) },
        );
        judged += await expectKindsInVariants(ctx, s, LEDGER_EFFECTS, ['CreatedEvent', 'ExercisedEvent'], 'ledger-effects');
        expectJudged(ctx, judged, 'transaction event');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-LEDGER-EFFECTS-WITNESS',
      cites: ['S.service.4', 'S.service.6', 'R.ledger.23', 'R.ledger.35', 'A.updates.1', 'X.events.4'],
      needs: ['ledgerParties'],
      tags: ['ledger-effects'],
      variants: { parties: { 'any-party': ANY_PARTY_UNKNOWN } },
      async check(ctx) {
        // Two things answers prove without knowing the history:
        // 1. a created event is witnessed by its stakeholders, and by every party that witnesses an exercise it
        //    descends from (node ids nodeId+1..lastDescendantNodeId), such an exercise being in the answer too;
        //    a created event with neither was witnessed by no requesting party. (Exercised events are not
        //    judged this way: their signatories and observers are not shown.)
        // 2. an event whose witnessParties name a requesting party p is witnessed by p, so p's own
        //    ledger-effects read of the same window holds it (same update offset and node id).
        const s = await sampleStream(ctx);
        // Single parties first (their answers are also the reference for 2), then every ordered pair (few: at
        // most 5 parties are read as). With one party there is no pair, and 2 has nothing to compare; 1 judges.
        const own = new Map<string, Set<string>>();
        let judged = 0;
        const eventKey = (e: FlatEvent) => `${e.record.offset}#${e.ev.nodeId}`;
        const pairs = s.parties.flatMap((p) => s.parties.filter((q) => q !== p).map((q) => [p, q]));
        // The pairs read with two filter entries (a wildcard and a template), which select what the wildcard does.
        const two = twoEntries(s);
        for (const parties of [...s.parties.map((p) => [p]), ...pairs]) {
          const { x, events } = await readTransactions(ctx, s, parties, LEDGER_EFFECTS, false, parties.length > 1 ? two : undefined);
          if (parties.length === 1) own.set(parties[0]!, new Set(events.filter((e) => e.from === 'Transaction').map(eventKey)));
          const exercisesByElement = new Map<number, Array<{ from: number; to: number }>>();
          for (const e of events) {
            if (e.kind === 'ExercisedEvent' && Number.isInteger(e.ev.nodeId) && Number.isInteger(e.ev.lastDescendantNodeId)) {
              const list = exercisesByElement.get(e.index) ?? [];
              list.push({ from: e.ev.nodeId, to: e.ev.lastDescendantNodeId });
              exercisesByElement.set(e.index, list);
            }
          }
          for (const e of events.filter((ev) => ev.kind === 'CreatedEvent')) {
            if (!Array.isArray(e.ev.signatories) || !Number.isInteger(e.ev.nodeId)) continue;
            judged++;
            if (hasRequestingStakeholder(e.ev, parties)) continue;
            const underWitnessedExercise = (exercisesByElement.get(e.index) ?? []).some((r) => r.from < e.ev.nodeId && e.ev.nodeId <= r.to);
            if (!underWitnessedExercise) {
              ctx
                .expect(x)
                .fail(
                  `read as ${parties.join(', ')}: created event ${e.ev.nodeId} (contract ${e.ev.contractId}) has no requesting stakeholder and descends from no exercise in the answer, so no requesting party witnesses it`,
                  e.pointer,
                );
            }
          }
          if (parties.length < 2) continue;
          for (const e of events.filter((ev) => ev.from === 'Transaction' && Number.isInteger(ev.ev.nodeId))) {
            for (const p of strings(e.ev.witnessParties).filter((w) => parties.includes(w))) {
              judged++;
              if (!own.get(p)!.has(eventKey(e))) {
                ctx
                  .expect(x)
                  .fail(
                    `read as ${parties.join(', ')}: the event at offset ${e.record.offset} node ${e.ev.nodeId} names ${p} as a witness, but ${p}'s own ledger-effects read of the same window does not hold it, so ${p} does not witness it`,
                    e.pointer,
                  );
              }
            }
          }
        }
        expectJudged(ctx, judged, 'ledger-effects event (a created event showing signatories and node id, or a witness to compare)');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-WITNESS-PARTIES',
      cites: ['R.ledger.23', 'R.ledger.24', 'R.ledger.35', 'R.ledger.36'],
      needs: ['ledgerParties'],
      tags: ['acs-delta', 'ledger-effects'],
      variants: { parties: { 'any-party': ANY_PARTY_UNKNOWN } },
      async check(ctx) {
        const s = await sampleStream(ctx);
        const two = twoEntries(s);
        let judged = 0;
        let n = 0;
        await ctx.property(fc.tuple(partiesArb(s), fc.constantFrom<Shape>(ACS_DELTA, LEDGER_EFFECTS)), async ([parties, shape]) => {
          // Every other read with two filter entries (a wildcard and a template): they select what the wildcard does.
          const { x, events } = await readTransactions(ctx, s, parties, shape, true, n++ % 2 ? two : undefined);
          judged += events.length;
          for (const e of events) {
            const outside = strings(e.ev.witnessParties).filter((p) => !parties.includes(p));
            if (outside.length)
              ctx
                .expect(x)
                .fail(
                  `read as ${parties.join(', ')} (${shape}): witnessParties name ${outside.join(', ')}, which were not requested`,
                  `${e.pointer}/witnessParties`,
                );
          }
        });
        expectJudged(ctx, judged, 'event');
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-TEMPLATE-FILTER',
      cites: ['S.service.4', 'R.ledger.24', 'R.ledger.36'],
      needs: ['ledgerParties'],
      tags: ['filters'],
      variants: {
        cumulative: {
          'several-entries': 'the rule of one TemplateFilter entry; what several entries select together is LEDGER-UPDATES-CUMULATIVE-UNION and -FLAGS',
        },
      },
      async check(ctx) {
        const s = await sampleStream(ctx);
        const templates = sampledTemplates(s);
        if (templates.length === 0) ctx.skip('the sampled stream has no created event of a ledger party to take a template id from');
        await propertyOverVariants(ctx, streamVariants(s), fc.constantFrom(...templates), async (v, templateId) => {
          const { x, els } = await readVariant(ctx, v, sampleWindow(s), ['transactions'], { cumulative: [templateEntry(templateId)] });
          // Created events without a requesting stakeholder are LEDGER-UPDATES-ACS-DELTA-STAKEHOLDER's to judge
          // (with filtersForAnyParty every party requests, so every event is judged).
          const requesting = v.who === 'any' ? undefined : v.who;
          const judged = eventsOf(els).filter(
            (e) => !requesting || !isCreated(e) || !Array.isArray(e.ev.signatories) || hasRequestingStakeholder(e.ev, requesting),
          );
          for (const e of judged) {
            if (e.ev.templateId !== templateId)
              ctx.expect(x).fail(`${v.prefix}a TemplateFilter for ${templateId} returned an event of template ${e.ev.templateId}`, `${e.pointer}/templateId`);
          }
          // The wildcard read of the sampled parties showed events of this template in the same window: the
          // filter must keep them (judged where the parties are the sample's; one of them alone may see none).
          if (v.prefix === '' && !judged.some((e) => e.ev.templateId === templateId))
            ctx.expect(x).fail(`a TemplateFilter for ${templateId} returned none of the events of that template that a wildcard read of the same window shows`);
        });
      },
    }),
  ],
);
