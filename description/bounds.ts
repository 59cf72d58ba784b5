// The numeric bounds, limits and page sizes the description states, each stated once with the sentences it
// comes from: what is bounded, and for each side of the bound (at it, one below, one above) the answer the
// description gives and the requirements that send that probe, or why the side is open ("not shown": no
// status is invented). The paged operations, with the requirements whose walks end on a partial and on an
// exactly full last page. test/suites/bounds.test.ts holds the description's Limits, the documents' request
// bounds and next_page_token answers to this table, and the table to the requirement records.
import type { InterfaceName } from '../common/vocabulary.ts';

export type Side = 'below' | 'at' | 'above';

/** A side the suite probes: the request, the answer the description gives, the requirements that send it. */
export interface ProbedSide {
  probe: string;
  expect: string;
  by: readonly string[];
}

/** A side the description leaves open: why nothing is expected there. */
export interface OpenSide {
  open: string;
}

/** A keyword of a built-in document's request schema that states the bound (`body.` or `query.` and the field). */
export interface SpecBound {
  operation: string;
  field: string;
  keyword: 'minimum' | 'maximum' | 'minItems' | 'maxItems';
}

export interface StatedBound {
  id: string;
  interface: InterfaceName;
  operations: readonly string[];
  /** What is bounded and by what. */
  what: string;
  cites: readonly string[];
  /** The document's keywords stating it, where the built-in documents state it. */
  spec?: readonly SpecBound[];
  sides: Readonly<Record<Side, ProbedSide | OpenSide>>;
}

export interface PagedOperation {
  interface: InterfaceName;
  operation: string;
  cites: readonly string[];
  /** Requirements whose walks choose a page size from the discovered total so the last page is partial / exactly full. */
  partial: readonly string[];
  exactlyFull: readonly string[];
}

const LIST_LIMIT = 'the node list limit L (fixtures.ledgerListLimit: a setting no answer tells)';

export const STATED_BOUNDS: readonly StatedBound[] = [
  {
    id: 'ledger-begin-exclusive-non-negative',
    interface: 'ledger',
    operations: ['getUpdates'],
    what: '`beginExclusive` of GetUpdatesRequest, at least 0',
    cites: ['R.ledger.2', 'R.ledger.3', 'R.ledger.4'],
    spec: [{ operation: 'getUpdates', field: 'body.beginExclusive', keyword: 'minimum' }],
    sides: {
      below: { probe: 'beginExclusive -1', expect: '400 (an invalid body)', by: ['LEDGER-UPDATES-INVALID-REQUEST-400'] },
      at: { probe: 'beginExclusive 0', expect: '200 from the start of the ledger', by: ['LEDGER-UPDATES-BEGIN-ZERO-START'] },
      above: { probe: 'beginExclusive 1 and offsets of the stream', expect: '200 with offsets strictly greater', by: ['LEDGER-UPDATES-BEGIN-EXCLUSIVE'] },
    },
  },
  {
    id: 'ledger-begin-exclusive-pruning-offset',
    interface: 'ledger',
    operations: ['getUpdates'],
    what: '`beginExclusive` of a pruned participant, at least its pruning offset P',
    cites: ['R.ledger.5'],
    sides: {
      below: { probe: 'beginExclusive P-1', expect: 'refused (4xx)', by: ['LEDGER-UPDATES-PRUNED-BEGIN'] },
      at: { probe: 'beginExclusive P', expect: '200 (or 413 beyond the list limit)', by: ['LEDGER-UPDATES-PRUNED-BEGIN'] },
      above: { probe: 'beginExclusive P+1', expect: '200 (or 413 beyond the list limit)', by: ['LEDGER-UPDATES-PRUNED-BEGIN'] },
    },
  },
  {
    id: 'ledger-list-limit',
    interface: 'ledger',
    operations: ['getUpdates'],
    what: `the result count of a read, by ${LIST_LIMIT}`,
    cites: ['A.updates.10', 'X.errors.2', 'X.limits.1'],
    sides: {
      below: { probe: 'a window of L-1 elements', expect: '200', by: ['LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'] },
      at: { probe: 'a window of exactly L elements', expect: '200 (413 only when the count exceeds L)', by: ['LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'] },
      above: { probe: 'a window of L+1 elements', expect: '413', by: ['LEDGER-UPDATES-LIST-LIMIT-AT-BOUND'] },
    },
  },
  {
    id: 'ledger-limit-parameter',
    interface: 'ledger',
    operations: ['getUpdates'],
    what: `the \`limit\` query parameter, against ${LIST_LIMIT}`,
    cites: ['A.updates.3', 'X.limits.2'],
    sides: {
      below: { probe: 'limit=L-1', expect: 'honoured: 200 with at most L-1 elements', by: ['LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT'] },
      at: { probe: 'limit=L', expect: 'honoured: 200 with at most L elements, never 413', by: ['LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT'] },
      above: { probe: 'limit=L+1', expect: 'ignored: the whole result, 413 when it exceeds L', by: ['LEDGER-UPDATES-LIMIT-AT-LIST-LIMIT'] },
    },
  },
  {
    id: 'ledger-limit-count',
    interface: 'ledger',
    operations: ['getUpdates'],
    what: 'the elements of an answer, at most `limit` (a window of N elements read with limits around N)',
    cites: ['A.updates.2'],
    sides: {
      below: { probe: 'limit=N-1 on a window of N elements', expect: 'at most N-1 elements', by: ['LEDGER-UPDATES-LIMIT'] },
      at: { probe: 'limit=N', expect: 'at most N elements', by: ['LEDGER-UPDATES-LIMIT'] },
      above: { probe: 'limit=N+1', expect: 'at most N+1 elements (the window holds N)', by: ['LEDGER-UPDATES-LIMIT'] },
    },
  },
  {
    id: 'scan-bulk-page-size-minimum',
    interface: 'scan',
    operations: ['listBulkHistoryUpdates'],
    what: '`page_size` of the bulk updates listing, at least 1',
    cites: ['C.bulk-updates.5', 'X.limits.4'],
    spec: [{ operation: 'listBulkHistoryUpdates', field: 'body.page_size', keyword: 'minimum' }],
    sides: {
      below: { probe: 'page_size 0', expect: '400', by: ['SCAN-BULK-PAGE-SIZE-400'] },
      at: { probe: 'page_size 1', expect: 'answered (200, or 501 where not implemented)', by: ['SCAN-BULK-PAGE-SIZE-400'] },
      above: { probe: 'page_size 2', expect: 'answered', by: ['SCAN-BULK-PAGE-SIZE-400'] },
    },
  },
  {
    id: 'scan-bulk-page-size-maximum',
    interface: 'scan',
    operations: ['listBulkHistoryUpdates'],
    what: '`page_size` of the bulk updates listing, at most 1000',
    cites: ['C.bulk-updates.5', 'X.limits.4'],
    spec: [{ operation: 'listBulkHistoryUpdates', field: 'body.page_size', keyword: 'maximum' }],
    sides: {
      below: { probe: 'page_size 999', expect: 'answered', by: ['SCAN-BULK-PAGE-SIZE-400'] },
      at: { probe: 'page_size 1000', expect: 'answered', by: ['SCAN-BULK-PAGE-SIZE-400'] },
      above: { probe: 'page_size 1001', expect: '400', by: ['SCAN-BULK-PAGE-SIZE-400'] },
    },
  },
  {
    id: 'scan-holdings-owners-minimum',
    interface: 'scan',
    operations: ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'],
    what: '`owner_party_ids` of the holdings state request, at least 1 item',
    cites: ['C.holdings-v1.10', 'X.limits.5'],
    spec: ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'].map((operation) => ({
      operation,
      field: 'body.owner_party_ids',
      keyword: 'minItems' as const,
    })),
    sides: {
      below: { probe: 'no owner', expect: '400', by: ['SCAN-HOLDINGS-EMPTY-OWNERS-400'] },
      at: { probe: 'one owner', expect: '200', by: ['SCAN-HOLDINGS-EMPTY-OWNERS-400'] },
      above: { probe: 'two owners', expect: '200', by: ['SCAN-HOLDINGS-EMPTY-OWNERS-400'] },
    },
  },
  {
    id: 'scan-holdings-page-size',
    interface: 'scan',
    operations: ['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'],
    what: 'the created events of a holdings page, at most `page_size` (the set of N holdings walked with page sizes around N)',
    cites: ['C.holdings-v1.9', 'C.holdings-v1.13'],
    sides: {
      below: { probe: 'page_size N-1', expect: 'pages of at most N-1 events, then the rest', by: ['SCAN-HOLDINGS-PAGING-LAST-PAGE'] },
      at: { probe: 'page_size N', expect: 'one full page; a token after it opens an empty page', by: ['SCAN-HOLDINGS-PAGING-LAST-PAGE'] },
      above: { probe: 'page_size N+1', expect: 'one partial page without a token', by: ['SCAN-HOLDINGS-PAGING-LAST-PAGE'] },
    },
  },
  {
    id: 'scan-ans-page-size',
    interface: 'scan',
    operations: ['listAnsEntries'],
    what: 'the entries of an ANS listing, at most `page_size` (the N listed entries read with page sizes around N)',
    cites: ['C.ans.4'],
    sides: {
      below: { probe: 'page_size N-1', expect: 'at most N-1 entries', by: ['SCAN-ANS-PAGE-SIZE'] },
      at: { probe: 'page_size N', expect: 'at most N entries', by: ['SCAN-ANS-PAGE-SIZE'] },
      above: { probe: 'page_size N+1', expect: 'at most N+1 entries', by: ['SCAN-ANS-PAGE-SIZE'] },
    },
  },
];

/** Sentences of the Limits section that state no numeric bound, each with why. */
export const LIMITS_WITHOUT_BOUND: Readonly<Record<string, string>> = {
  'X.limits.3': 'a time after which an open-ended read completes: LEDGER-UPDATES-IDLE-TIMEOUT-COMPLETES judges it, there is no count to probe',
  'X.limits.6': 'a unit (bytes), no bound',
  'X.limits.7': 'a unit (microseconds), no bound',
};

export const PAGED_OPERATIONS: readonly PagedOperation[] = [
  ...(['getHoldingsStateV0', 'getHoldingsStateV1', 'getHoldingsStateV2'] as const).map((operation) => ({
    interface: 'scan' as const,
    operation,
    cites: ['C.holdings-v1.14'],
    partial: ['SCAN-HOLDINGS-PAGING-LAST-PAGE'],
    exactlyFull: ['SCAN-HOLDINGS-PAGING-LAST-PAGE'],
  })),
  {
    interface: 'scan',
    operation: 'listBulkHistoryUpdates',
    cites: ['C.bulk-updates.7'],
    partial: ['SCAN-BULK-PAGING-COMPLETE'],
    exactlyFull: ['SCAN-BULK-PAGING-COMPLETE'],
  },
];

export const isProbed = (s: ProbedSide | OpenSide): s is ProbedSide => 'by' in s;
