// What a comparison reads: the same requests for both nodes, planned from what discovery found on the first
// (A). A paged read is walked on each node by that node's own answers (page tokens and offsets are the node's
// own), and the pages' items are compared as one list.
import { isObject, type Json } from '../../common/json.ts';
import type { Fixtures } from '../../engine/fixtures.ts';
import type { Query } from '../../engine/transport/http.ts';

export interface Paging {
  /** The array of each page whose items are compared, concatenated ('' for an answer that is the array). */
  items: string;
  /** The next request (body and query) after a page, or undefined when the walk ends. */
  next(page: Json, request: { body?: Json; query?: Query }): { body?: Json; query?: Query } | undefined;
}

export interface Read {
  interface: 'scan' | 'ledger';
  /** WEBSOCKET: the request is the first message of the channel at `path`, the messages its answer (bounded by the ledger end). */
  method: 'GET' | 'POST' | 'WEBSOCKET';
  path: string;
  query?: Query;
  body?: Json;
  /** What it reads, for the report. */
  what: string;
  /** The path with its ids as placeholders, where it names one: reads of one route refused alike share a cause. */
  route?: string;
  paging?: Paging;
  /** The description fixes the order of events_by_id's keys here (V2 sorts them): their order is compared. */
  orderedEventIds?: boolean;
  /** Reads each node's own ledger end first and bounds the stream with it (offsets are never shared). */
  upToLedgerEnd?: boolean;
}

/** Largest number of ids of one kind read one by one. */
export const MAX_IDS = 4;
const PAGE = 100;

const tokenPaging = (items: string, field = 'after'): Paging => ({
  items,
  next: (page, r) => (isObject(page) && page.next_page_token != null ? { body: { ...(r.body as object), [field]: page.next_page_token } } : undefined),
});

/** The scan history's lists page by the last item's migration id and record time (the same on every node). */
const historyPaging = (items: string, pageSize: number): Paging => ({
  items,
  next: (page, r) => {
    const list = isObject(page) ? page[items] : undefined;
    if (!Array.isArray(list) || list.length < pageSize) return undefined;
    const last = list.at(-1) as { migration_id?: number; record_time?: string; update?: { migration_id?: number; record_time?: string } };
    const at = last.update ?? last;
    if (at.migration_id === undefined || at.record_time === undefined) return undefined;
    return { body: { ...(r.body as object), after: { after_migration_id: at.migration_id, after_record_time: at.record_time } } };
  },
});

/** The ledger stream pages by the last element's offset, each node in its own numbering. */
const ledgerPaging: Paging = {
  items: '',
  next: (page, r) => {
    if (!Array.isArray(page) || page.length < PAGE) return undefined;
    const offset = elementOffset(page.at(-1));
    return offset === undefined ? undefined : { body: { ...(r.body as object), beginExclusive: offset }, query: r.query };
  },
};

export function elementOffset(element: Json): number | undefined {
  const update = isObject(element) && isObject(element.update) ? element.update : undefined;
  const kind = update && Object.values(update)[0];
  const offset = isObject(kind) && isObject(kind.value) ? kind.value.offset : undefined;
  return typeof offset === 'number' ? offset : undefined;
}

const ids = (list: readonly string[] | undefined) => (list ?? []).slice(0, MAX_IDS);

export function scanReads(f: Fixtures): Read[] {
  const reads: Read[] = [{ interface: 'scan', method: 'GET', path: '/v0/migrations/last', what: 'the current migration' }];
  const snapshot =
    f.migrationId !== undefined && f.snapshotRecordTime !== undefined ? { migration_id: f.migrationId, record_time: f.snapshotRecordTime } : undefined;
  if (snapshot) {
    reads.push({
      interface: 'scan',
      method: 'POST',
      path: '/v0/state/acs',
      body: { ...snapshot, page_size: PAGE },
      what: 'the ACS snapshot',
      paging: tokenPaging('created_events'),
    });
    if (f.holdingOwners?.length) {
      for (const version of ['v0', 'v1']) {
        const body = { ...snapshot, owner_party_ids: f.holdingOwners, page_size: PAGE };
        reads.push({
          interface: 'scan',
          method: 'POST',
          path: `/${version}/holdings/state`,
          body,
          what: `the owners' holdings (${version})`,
          paging: tokenPaging('created_events'),
        });
      }
    }
  }
  for (const id of [...ids(f.transactionUpdateIds), ...ids(f.reassignmentUpdateIds)]) {
    const path = encodeURIComponent(id);
    reads.push(
      { interface: 'scan', method: 'GET', path: `/v0/updates/${path}`, route: '/v0/updates/{update_id}', what: 'an update (v0, compact)' },
      {
        interface: 'scan',
        method: 'GET',
        path: `/v0/updates/${path}`,
        route: '/v0/updates/{update_id}',
        query: { lossless: 'true' },
        what: 'an update (v0, lossless)',
      },
      { interface: 'scan', method: 'GET', path: `/v2/updates/${path}`, route: '/v2/updates/{update_id}', what: 'an update (v2)', orderedEventIds: true },
      {
        interface: 'scan',
        method: 'GET',
        path: `/v0/events/${path}`,
        route: '/v0/events/{update_id}',
        query: { daml_value_encoding: 'compact_json' },
        what: 'an event (compact)',
      },
      {
        interface: 'scan',
        method: 'GET',
        path: `/v0/events/${path}`,
        route: '/v0/events/{update_id}',
        query: { daml_value_encoding: 'protobuf_json' },
        what: 'an event (protobuf)',
      },
    );
  }
  reads.push(
    {
      interface: 'scan',
      method: 'POST',
      path: '/v2/updates',
      body: { page_size: PAGE },
      what: 'the update history (v2)',
      paging: historyPaging('transactions', PAGE),
      orderedEventIds: true,
    },
    { interface: 'scan', method: 'POST', path: '/v0/events', body: { page_size: PAGE }, what: 'the event history', paging: historyPaging('events', PAGE) },
    { interface: 'scan', method: 'GET', path: '/v0/ans-entries', query: { page_size: 1000 }, what: 'the name service entries' },
    { interface: 'scan', method: 'GET', path: '/v0/dso', what: 'the DSO' },
  );
  if (f.validatorIds?.length) {
    reads.push({
      interface: 'scan',
      method: 'GET',
      path: '/v0/validators/validator-faucets',
      query: { validator_ids: ids(f.validatorIds) },
      what: 'the validator faucets',
    });
  }
  if (f.domainId) {
    for (const member of ids(f.memberIds)) {
      const path = `/v0/domains/${encodeURIComponent(f.domainId)}/members/${encodeURIComponent(member)}/traffic-status`;
      const route = '/v0/domains/{domain_id}/members/{member_id}/traffic-status';
      reads.push({ interface: 'scan', method: 'GET', path, route, what: "a member's traffic status" });
    }
  }
  if (f.bulkRange) {
    const body = { start_record_time: f.bulkRange.start, end_record_time: f.bulkRange.end, page_size: PAGE };
    reads.push({
      interface: 'scan',
      method: 'POST',
      path: '/v0/history/bulk/updates',
      body,
      what: 'the bulk history objects',
      paging: tokenPaging('object_refs', 'next_page_token'),
    });
  }
  return reads;
}

export function ledgerReads(f: Fixtures): Read[] {
  const parties = f.ledgerParties ?? [];
  const filters = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] };
  const eventFormat = parties.length
    ? { filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])), verbose: true }
    : { filtersForAnyParty: filters, verbose: true };
  return (['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const).flatMap((shape) => {
    const body = { beginExclusive: 0, updateFormat: { includeTransactions: { eventFormat, transactionShape: shape }, includeReassignments: eventFormat } };
    const name = shape === 'TRANSACTION_SHAPE_ACS_DELTA' ? 'ACS delta' : 'ledger effects';
    return [
      {
        interface: 'ledger' as const,
        method: 'POST' as const,
        path: '/v2/updates',
        query: { limit: PAGE },
        body,
        what: `the update stream (${name})`,
        paging: ledgerPaging,
        upToLedgerEnd: true,
      },
      // The same read over the WebSocket channel: no list limit, no pages.
      {
        interface: 'ledger' as const,
        method: 'WEBSOCKET' as const,
        path: '/v2/updates',
        body,
        what: `the update stream over WebSocket (${name})`,
        upToLedgerEnd: true,
      },
    ];
  });
}
