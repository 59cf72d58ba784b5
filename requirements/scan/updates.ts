// Update history by id on the update paths: GET /v0/updates/{id} (deprecated; UpdateHistoryTransaction, with
// offset) and GET /v2/updates/{id} (its successor; UpdateHistoryTransactionV2: no offset, events_by_id sorted),
// each judged on its own: event trees, record times, the external hash (tree-rules.ts), offsets and the
// lossless encoding. Fixture transaction ids are looked up; ids the scan does not know are left out. (The same
// rules on the `update` of GET /v0/events, and what only that endpoint promises, are in events.ts.)
import type { Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { timeNanos } from '../../interfaces/scan/common.ts';
import { encodingCheck, fetchUpdates, LOSSLESS_V0_ONLY, lookupCheck, OP, otherVersionApart, updateOf } from './history.ts';
import { keysSortedRequirement, TREE_RULES, treeRequirement } from './tree-rules.ts';
import { sameContentVerboseAs } from './value-encodings.ts';

export const UPDATE_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  rule({
    id: 'SCAN-UPDATES-BY-ID',
    // A 404 is judged against the event history's answer for the same id (lookupCheck).
    operations: [OP.v0, OP.events],
    cites: ['C.updates-v0.4'],
    needs: ['transactionUpdateIds'],
    tags: ['history'],
    // What /v0/events answers is SCAN-EVENTS-BY-ID's (in each record type and encoding).
    variants: {
      'record-type':
        'asks /v0/events only whether an id this path answers 404 is known there (a verdict-only id); this path itself is asked ids of both record types',
      'value-encoding': 'asks /v0/events only whether an id this path answers 404 is known there, which no encoding changes',
      ...otherVersionApart('v0'),
    },
    confirms: OP.v0,
    check: lookupCheck('v0'),
  }),
  { id: 'SCAN-UPDATES-TREE-ROOTS-KNOWN', ...treeRequirement(TREE_RULES.rootsKnown, 'v0') },
  { id: 'SCAN-UPDATES-TREE-CHILDREN-KNOWN', ...treeRequirement(TREE_RULES.childrenKnown, 'v0') },
  { id: 'SCAN-UPDATES-TREE-ALL-REACHABLE', ...treeRequirement(TREE_RULES.allReachable, 'v0') },
  { id: 'SCAN-UPDATES-CREATED-EVENT-ID', ...treeRequirement(TREE_RULES.createdEventId, 'v0') },
  { id: 'SCAN-UPDATES-RECORD-TIME-MICROS', ...treeRequirement(TREE_RULES.recordTimeMicros, 'v0') },
  { id: 'SCAN-UPDATES-EXTERNAL-HASH-OMITTED', ...treeRequirement(TREE_RULES.externalHashOmitted, 'v0') },
  rule({
    id: 'SCAN-UPDATES-OFFSETS-INCREASING',
    operations: [OP.v0],
    cites: ['R.scan.12'],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'offsets'],
    variants: { version: { [OP.v2]: 'UpdateHistoryTransactionV2 (what /v2/updates answers) has no offset' } },
    async check(ctx) {
      // Order of the history on one synchronizer within one migration is the order of record times; offsets of
      // different synchronizers or migrations are not compared.
      // Transactions and reassignments: both are updates of the history, with offsets.
      const ids = [...ctx.fixtures.transactionUpdateIds, ...(ctx.fixtures.reassignmentUpdateIds ?? [])];
      const txs = (await fetchUpdates(ctx, ids, 'v0'))
        .flatMap((u) => {
          const tx = updateOf(u.body, 'v0');
          return tx ? [{ ...u, tx }] : [];
        })
        .map((t) => ({ ...t, at: timeNanos(t.tx.record_time), group: `${t.tx.migration_id}|${t.tx.synchronizer_id}` }))
        .filter((t) => t.at !== undefined && typeof t.tx.offset === 'string')
        .sort((a, b) => (a.at! < b.at! ? -1 : a.at! > b.at! ? 1 : 0));
      // Nothing compared is nothing judged: fewer than two updates with a record time and an offset is no pass.
      if (txs.length < 2) ctx.skip(`fewer than two of the ${ids.length} updates looked up were answered with a record_time and an offset to compare`);
      for (const [k, later] of txs.entries()) {
        for (const earlier of txs.slice(0, k)) {
          if (earlier.group !== later.group || earlier.at === later.at) continue;
          if (!(later.tx.offset > earlier.tx.offset)) {
            ctx
              .expect(later.exchange)
              .fail(
                `update ${later.id} (record_time ${later.tx.record_time}) has offset ${later.tx.offset}, not lexicographically greater than offset ${earlier.tx.offset} of the earlier update ${earlier.id} (record_time ${earlier.tx.record_time})`,
                '/offset',
              );
          }
        }
      }
    },
  }),
  rule({
    id: 'SCAN-UPDATES-LOSSLESS-VARIANTS',
    operations: [OP.v0],
    cites: ['C.updates-v0.3'],
    needs: ['transactionUpdateIds'],
    tags: ['history', 'encodings'],
    variants: LOSSLESS_V0_ONLY,
    // Asking for the lossless encoding must change how the Daml values are written (typed, "hard to process"),
    // not what they hold: the same comparison as compact_json against protobuf_json of the events endpoint.
    check: encodingCheck('v0', 'lossless', ['false', 'true'], sameContentVerboseAs('lossless=false')),
  }),
  // The current path: the V2 record (no offset, so no offset rule; its parameters are not shown, so no encoding rule).
  rule({
    id: 'SCAN-UPDATES-V2-BY-ID',
    operations: [OP.v2, OP.events],
    cites: ['C.updates-v0.6', 'X.versioning.6'],
    needs: ['transactionUpdateIds'],
    tags: ['history'],
    // What /v0/events answers is SCAN-EVENTS-BY-ID's (in each record type and encoding).
    variants: {
      'record-type':
        'asks /v0/events only whether an id this path answers 404 is known there (a verdict-only id); this path itself is asked ids of both record types',
      'value-encoding': 'asks /v0/events only whether an id this path answers 404 is known there, which no encoding changes',
      ...otherVersionApart('v2'),
    },
    confirms: OP.v2,
    check: lookupCheck('v2'),
  }),
  { id: 'SCAN-UPDATES-V2-TREE-ROOTS-KNOWN', ...treeRequirement(TREE_RULES.rootsKnown, 'v2') },
  { id: 'SCAN-UPDATES-V2-TREE-CHILDREN-KNOWN', ...treeRequirement(TREE_RULES.childrenKnown, 'v2') },
  { id: 'SCAN-UPDATES-V2-TREE-ALL-REACHABLE', ...treeRequirement(TREE_RULES.allReachable, 'v2') },
  { id: 'SCAN-UPDATES-V2-CREATED-EVENT-ID', ...treeRequirement(TREE_RULES.createdEventId, 'v2') },
  { id: 'SCAN-UPDATES-V2-KEYS-SORTED', ...keysSortedRequirement('v2') },
  { id: 'SCAN-UPDATES-V2-RECORD-TIME-MICROS', ...treeRequirement(TREE_RULES.recordTimeMicros, 'v2') },
  { id: 'SCAN-UPDATES-V2-EXTERNAL-HASH-OMITTED', ...treeRequirement(TREE_RULES.externalHashOmitted, 'v2') },
]);
