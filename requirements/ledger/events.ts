// POST /v2/events/events-by-contract-id gets the create event and the consuming exercise event of a contract:
// for a contract the update stream showed (fixtures.ledgerContract), read as the same party in the same
// format, the lookup must answer the creation the stream showed (contract, template, creation time, create
// argument, offset and node of the creating transaction) and, where the stream showed the archive, that archive.
// A second contract the stream showed is then looked up in the same format: each answer must be about the
// contract it asks for (the relation stated in the document, judged by GENERIC-LEDGER-GET-EVENTS-BY-CONTRACT-ID-RELATIONS).
import { firstDifference, isObject, parseJson, type Json } from '../../common/json.ts';
import { describeAnswer, type Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { byParties, eventsOf, postUpdates, updateFormat, type FlatEvent } from '../../interfaces/ledger/updates.ts';

const EVENTS_PATH = '/v2/events/events-by-contract-id';

/** The event of `kind` on the contract in the transaction at `offset`, read as `party` in the ACS-delta shape; undefined when not shown. */
async function streamed(
  ctx: CheckContext,
  party: string,
  offset: number,
  kind: 'CreatedEvent' | 'ArchivedEvent',
  contractId: string,
): Promise<FlatEvent | undefined> {
  const x = await postUpdates(ctx, { beginExclusive: offset - 1, endInclusive: offset, updateFormat: updateFormat([party], ['transactions']) });
  // The stream is not what this requirement judges: an answer it cannot use leaves nothing to compare.
  if (x.status !== 200)
    ctx.skip(`the update stream's read of offset ${offset} as ${party} was answered ${describeAnswer(x)}, so there is nothing to compare the lookup with`, {
      exchange: x,
    });
  const els: Json = parseJson(x.text);
  return Array.isArray(els) ? eventsOf(els).find((e) => e.from === 'Transaction' && e.kind === kind && e.ev.contractId === contractId) : undefined;
}

/** Two renderings of one instant (digits of the fraction may differ), or the same text. */
function sameInstant(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const micros = (t: string) => {
    const m = /^(.*T[\d:]+)(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(t);
    return m ? Date.parse(`${m[1]}${m[3]}`) * 1000 + Number((m[2] ?? '').padEnd(6, '0').slice(0, 6)) : Number.NaN;
  };
  return !Number.isNaN(micros(a)) && micros(a) === micros(b);
}

/** How far past the fixture's creation the stream is read for a second contract to look up. */
const SECOND_WITHIN = 50;

/**
 * Looks up another contract the stream showed created to `party` after the fixture's, in the format of the
 * first lookup: an answer cached by format alone would then be about the first contract. The answer is judged
 * by the document's relation (its events are the asked contract's), whatever this lookup gets back.
 */
async function lookUpAnother(ctx: CheckContext, party: string, offset: number, contractId: string, eventFormat: Json): Promise<void> {
  const x = await postUpdates(ctx, { beginExclusive: offset, endInclusive: offset + SECOND_WITHIN, updateFormat: updateFormat([party], ['transactions']) });
  const els: Json = x.status === 200 ? parseJson(x.text) : undefined;
  const other = Array.isArray(els) ? eventsOf(els).find((e) => e.kind === 'CreatedEvent' && e.ev.contractId !== contractId) : undefined;
  if (typeof other?.ev.contractId === 'string') await ctx.ledger.post(EVENTS_PATH, { contractId: other.ev.contractId, eventFormat });
}

function compare(ctx: CheckContext, x: Exchange, at: string, looked: Json, seen: FlatEvent, fields: Array<[string, Json]>, what: string): void {
  for (const [field, expected] of fields) {
    const got = looked?.[field];
    const same = field === 'createdAt' ? sameInstant(got, expected) : firstDifference(got, expected) === undefined;
    if (!same) {
      const inner = field === 'createdAt' ? '' : (firstDifference(got, expected) ?? '');
      ctx
        .expect(x)
        .fail(
          `the lookup's ${what} has ${field} ${JSON.stringify(got)?.slice(0, 200)}, where the update stream showed ${JSON.stringify(expected)?.slice(0, 200)} (offset ${seen.record.offset})`,
          `${at}/${field}${inner}`,
        );
    }
  }
}

export const EVENT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'ledger',
    operations: ['getUpdates', 'getEventsByContractId'],
    cites: ['A.overview.19'],
  },
  [
    rule({
      id: 'LEDGER-EVENTS-BY-CONTRACT-ID-AS-STREAMED',
      confirms: 'getEventsByContractId',
      // The stream is read in the lookup's own format, so that the two answers are alike to compare.
      variants: {
        'transaction-shape': {
          'ledger-effects':
            'the lookup answers created and archived events, the ACS-delta shape (an archive is an exercise in ledger effects): the stream is compared in that shape',
        },
        parties: "the stream is read as the party of the lookup's eventFormat (the contract's fixture party): the comparison holds between like reads",
        cumulative: "the stream is read with the lookup's one wildcard entry: the comparison holds between like reads",
      },
      needs: ['ledgerContract'],
      tags: ['events'],
      async check(ctx) {
        const { contractId, offset, party, archivedOffset } = ctx.fixtures.ledgerContract;
        const created = await streamed(ctx, party, offset, 'CreatedEvent', contractId);
        if (!created) return ctx.skip(`the update stream does not show contract ${contractId} created at offset ${offset} when read as ${party}`);
        const archived = archivedOffset === undefined ? undefined : await streamed(ctx, party, archivedOffset, 'ArchivedEvent', contractId);
        // The format the stream was read in: the same party, a wildcard, the same (default) verbosity.
        const eventFormat = byParties([party]);
        const x = await ctx.ledger.post(EVENTS_PATH, { contractId, eventFormat });
        const body = ctx.accepted(x, `the events of contract ${contractId}, which the update stream showed created at offset ${offset} to ${party}`);
        const createdEvent = isObject(body) && isObject(body.created) ? body.created.createdEvent : undefined;
        if (!isObject(createdEvent))
          ctx
            .expect(x)
            .fail(`the lookup answers no created event for contract ${contractId}, which the update stream showed created at offset ${offset}`, '/created');
        compare(
          ctx,
          x,
          '/created/createdEvent',
          createdEvent,
          created,
          [
            ['contractId', contractId],
            ['templateId', created.ev.templateId],
            ['createdAt', created.ev.createdAt],
            ['createArgument', created.ev.createArgument],
            // The creating transaction's offset and the node within it.
            ['offset', created.record.offset],
            ['nodeId', created.ev.nodeId],
          ],
          'created event',
        );
        await lookUpAnother(ctx, party, offset, contractId, eventFormat);
        if (!archived) return;
        const archivedEvent = isObject(body.archived) ? body.archived.archivedEvent : undefined;
        if (!isObject(archivedEvent))
          ctx
            .expect(x)
            .fail(
              `the lookup answers no archived event for contract ${contractId}, which the update stream showed archived at offset ${archivedOffset}`,
              '/archived',
            );
        compare(
          ctx,
          x,
          '/archived/archivedEvent',
          archivedEvent,
          archived,
          [
            ['contractId', contractId],
            ['templateId', archived.ev.templateId],
            ['offset', archived.record.offset],
          ],
          'archived event',
        );
      },
    }),
  ],
);
