// Rules of single request fields of the update stream: the deprecated `verbose` (refused next to
// updateFormat; when true, create arguments carry their record labels) and the party-id keys of
// filtersByParty.
import { isObject } from '../../../common/json.ts';
import { describeAnswer } from '../../../engine/transport/http.ts';
import type { Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  LEDGER_EFFECTS,
  OPERATION,
  byParties,
  eventsOf,
  openRead,
  postUpdates,
  readParties,
  sampleStream,
  sampleWindow,
  updateFormat,
} from '../../../interfaces/ledger/updates.ts';

/** Keys no party id can be: empty, and with characters outside those of a (Daml-LF) party string. */
const NOT_PARTY_IDS = ['', 'not a party!', 'no/such?party'];

export const REQUEST_FIELD_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger', operations: [OPERATION] }, [
  rule({
    id: 'LEDGER-UPDATES-VERBOSE-WITH-FORMAT-REJECTED',
    cites: ['R.ledger.15'],
    needs: ['ledgerParties'],
    tags: ['validation', 'legacy'],
    // The refusal is of the two fields together: what the updateFormat selects is never read.
    variants: {
      'transaction-shape': 'verbose next to updateFormat is refused for being there (R.ledger.15), before the shape selects any event',
      parties: 'verbose next to updateFormat is refused for being there (R.ledger.15), before the parties select any event',
      cumulative: 'verbose next to updateFormat is refused for being there (R.ledger.15), before the filter entries select any event',
    },
    async check(ctx) {
      const format = updateFormat(readParties(ctx));
      // "Defined" is either value: false is as much a definition as true.
      for (const verbose of [true, false]) {
        const x = await openRead(ctx, format, 1, undefined, { verbose });
        ctx.expect(x, `a request with verbose ${verbose} next to updateFormat is invalid`).status(400);
      }
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-PARTY-KEY-VALID',
    cites: ['R.ledger.20'],
    needs: ['ledgerParties'],
    tags: ['validation'],
    variants: {
      parties: { 'any-party': 'filtersForAnyParty has no party key that could be invalid' },
      cumulative: 'the key is judged, not the Filters under it: its cumulative entries select events of an accepted read',
    },
    async check(ctx) {
      // The status of the refusal is not stated: any 4xx refuses; a success or a server error does not. A bad
      // key alone, in the ACS-delta shape; and next to a real party's key, in the ledger-effects shape (one bad
      // key among good ones is as invalid, whatever the shape).
      const reads = [
        ...NOT_PARTY_IDS.map((key) => ({ key, format: updateFormat([key], ['transactions', 'reassignments']) })),
        {
          key: NOT_PARTY_IDS[1]!,
          format: updateFormat([...readParties(ctx).slice(0, 1), NOT_PARTY_IDS[1]!], ['transactions', 'reassignments'], LEDGER_EFFECTS),
        },
      ];
      for (const { key, format } of reads) {
        const x = await openRead(ctx, format, 1);
        if (x.status < 400 || x.status >= 500)
          ctx
            .expect(x)
            .fail(`a filtersByParty key ${JSON.stringify(key)}, which is no party id, was answered ${describeAnswer(x)} instead of being refused (4xx)`);
      }
    },
  }),
  rule({
    id: 'LEDGER-UPDATES-VERBOSE-LABELS',
    cites: ['R.ledger.14'],
    needs: ['ledgerParties'],
    tags: ['legacy'],
    // Its read is the legacy request (filter and verbose, no updateFormat): the sampled read only picks its window.
    variants: {
      'transaction-shape': 'the legacy request (filter + verbose) has no updateFormat, hence no transaction shape to choose',
      parties: 'the legacy request (filter + verbose) has no updateFormat; its filter keys the sampled parties',
      cumulative: 'the legacy request (filter + verbose) has no updateFormat; its labels are of create arguments, whatever filter selected them',
    },
    async check(ctx) {
      // Only the labels are judged: where a JSON answer would carry record and variant type ids is not shown.
      const s = await sampleStream(ctx);
      const w = sampleWindow(s);
      const x = await postUpdates(ctx, { ...w, filter: byParties(s.parties), verbose: true });
      // The field is described as removed in release 3.5.0: a node that refuses it has nothing to judge.
      if (x.status === 400) ctx.skip(`the node refuses the deprecated verbose field (${describeAnswer(x)})`);
      if (x.status === 413) ctx.skip(`the verbose read of (${w.beginExclusive}, ${w.endInclusive}] exceeds the node's list limit (413)`);
      ctx.expect(x).status(200);
      const els = ctx.expect(x).json();
      // A missing createArgument is LEDGER-UPDATES-RECORD-FIELDS' question.
      const created = (Array.isArray(els) ? eventsOf(els) : []).filter(
        (e) => (e.kind === 'CreatedEvent' || e.kind === 'JsAssignmentEvent') && e.ev.createArgument !== undefined && e.ev.createArgument !== null,
      );
      if (created.length === 0) ctx.skip('the verbose read of the sampled window holds no created event with a createArgument to judge');
      for (const e of created) {
        if (!isObject(e.ev.createArgument))
          ctx
            .expect(x)
            .fail(
              'in a read with verbose true, a created event carries a createArgument that is no record with field labels (no JSON object)',
              `${e.pointer}/createArgument`,
            );
      }
    },
  }),
]);
