// Several cumulative filter entries in one Filters: each entry widens the result (two templates select what
// the two single-template reads select together), and the created-event-blob flags of the entries that
// match an event accumulate. Judged against reads of the same window, so no history knowledge is needed.
import { UPDATES_CHANNEL } from '../../../interfaces/ledger/update-channel.ts';
import fc from 'fast-check';
import type { Json } from '../../../common/json.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  ACS_DELTA,
  LEDGER_EFFECTS,
  OPERATION,
  anyPartyFormat,
  eventKey,
  eventsOf,
  readWindow,
  sampleStream,
  sampleWindow,
  templateEntry,
  updateFormat,
  wildcardEntry,
  type FlatEvent,
  type Part,
  type Sample,
  type Shape,
} from '../../../interfaces/ledger/updates.ts';
import { propertyOverVariants, readVariant, streamVariants } from '../../../interfaces/ledger/stream-variants.ts';
import { sampledTemplates } from './filters.ts';

const EVENT_PARTS: Part[] = ['transactions', 'reassignments'];

/** Templates the sampled window shows events of; at least `n` are needed. */
function templatesOf(ctx: CheckContext, s: Sample, n: number): string[] {
  const templates = sampledTemplates(s);
  if (templates.length < n) ctx.skip(`the sampled stream shows created events of ${templates.length} template(s) to the ledger parties; ${n} are needed`);
  return templates;
}

const isCreatedOf = (e: FlatEvent, templateId: string) => (e.kind === 'CreatedEvent' || e.kind === 'JsAssignmentEvent') && e.ev.templateId === templateId;
const hasBlob = (ev: Json) => typeof ev.createdEventBlob === 'string' && ev.createdEventBlob !== '';

/**
 * The requests a filter rule holds for, each a variant of the same read: the filters given to every sampled
 * party, to one party alone (the first two, each on its own), or to any party (filtersForAnyParty), in both
 * transaction shapes. "Each entry widens the result" names no party count nor shape, so none is left out.
 */
interface FilterVariant {
  label: string;
  format(cumulative: Json[]): Json;
}
function filterVariants(s: Sample): FilterVariant[] {
  const partySets = [s.parties, ...(s.parties.length > 1 ? s.parties.slice(0, 2).map((p) => [p]) : [])];
  return ([ACS_DELTA, LEDGER_EFFECTS] as Shape[]).flatMap((shape) => [
    ...partySets.map((parties) => ({
      label: `filtersByParty for ${parties.length === 1 ? parties[0] : `${parties.length} parties`}, ${shape}`,
      format: (cumulative: Json[]) => updateFormat(parties, EVENT_PARTS, shape, { cumulative }),
    })),
    {
      label: `filtersForAnyParty, ${shape}`,
      format: (cumulative: Json[]) => anyPartyFormat({ cumulative }, shape),
    },
  ]);
}

export const CUMULATIVE_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'ledger', operations: [OPERATION], webSocketTwins: UPDATES_CHANNEL },
  [
    rule({
      id: 'LEDGER-UPDATES-CUMULATIVE-UNION',
      cites: ['R.ledger.26'],
      needs: ['ledgerParties'],
      tags: ['filters'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        const templates = templatesOf(ctx, s, 2);
        const w = sampleWindow(s);
        const pairs = fc.tuple(fc.constantFrom(...templates), fc.constantFrom(...templates)).filter(([a, b]) => a !== b);
        const keysOf = async (v: FilterVariant, cumulative: Json[]) => new Set(eventsOf((await readWindow(ctx, w, v.format(cumulative))).els).map(eventKey));
        for (const v of filterVariants(s)) {
          await ctx.property(
            pairs,
            async ([a, b]) => {
              const references = await Promise.all([a, b].map(async (t) => ({ t, keys: await keysOf(v, [templateEntry(t)]) })));
              const both = await readWindow(ctx, w, v.format([templateEntry(a), templateEntry(b)]));
              // Only what is missing is judged: an event neither template selects is LEDGER-UPDATES-TEMPLATE-FILTER's.
              const held = new Set(eventsOf(both.els).map(eventKey));
              for (const r of references) {
                const missing = [...r.keys].filter((k) => !held.has(k));
                if (missing.length)
                  ctx
                    .expect(both.x)
                    .fail(
                      `${v.label}: the read with TemplateFilters for ${a} and ${b} lacks ${missing.length} event(s) the read with only ${r.t} holds (offset/kind/contract/node: ${missing.slice(0, 3).join(', ')})`,
                    );
              }
            },
            { runs: Math.min(ctx.runs, 2) },
          );
        }
      },
    }),
    rule({
      id: 'LEDGER-UPDATES-CUMULATIVE-FLAGS',
      cites: ['R.ledger.27'],
      needs: ['ledgerParties'],
      tags: ['filters'],
      async check(ctx) {
        const s = await sampleStream(ctx);
        const templates = templatesOf(ctx, s, 1);
        let judged = 0;
        // Both orders of the two entries: the flags accumulate whichever comes first; in each variant of whom
        // the read reads as and of the shape (the entries are the rule's own).
        await propertyOverVariants(
          ctx,
          streamVariants(s),
          fc.tuple(fc.constantFrom(...templates), fc.boolean()),
          async (v, [t, templateFirst]) => {
            const readWith = (cumulative: Json[]) => readVariant(ctx, v, sampleWindow(s), EVENT_PARTS, { cumulative });
            // The created events the template entry alone gives a blob: whether it selects (and blobs) them at
            // all is LEDGER-UPDATES-TEMPLATE-FILTER's question, so only those are judged.
            const alone = await readWith([templateEntry(t, true)]);
            const blobbed = new Set(
              eventsOf(alone.els)
                .filter((e) => isCreatedOf(e, t) && hasBlob(e.ev))
                .map(eventKey),
            );
            const entries = templateFirst ? [templateEntry(t, true), wildcardEntry(false)] : [wildcardEntry(false), templateEntry(t, true)];
            const { x, els } = await readWith(entries);
            const created = eventsOf(els).filter((e) => isCreatedOf(e, t) && blobbed.has(eventKey(e)));
            judged += created.length;
            for (const e of created) {
              if (!hasBlob(e.ev))
                ctx
                  .expect(x)
                  .fail(
                    `${v.prefix}a created event of ${t} lacks createdEventBlob, although its TemplateFilter asks for it (next to a wildcard that does not; the flags accumulate)`,
                    e.pointer,
                  );
            }
          },
          Math.min(ctx.runs, 4),
        );
        if (judged === 0) ctx.skip('no TemplateFilter asking for the blob gave a created event of the sampled window its createdEventBlob');
      },
    }),
  ],
);
