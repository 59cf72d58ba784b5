// Reads a `POST /v2/updates` request (body and query) into a checked StreamRequest, applying the default
// mapping of the deprecated `filter`/`verbose` fields, and the active contracts' request of the WebSocket
// channel. Any problem is an InvalidStreamRequest whose message becomes the plain-text 400 body (on a
// WebSocket channel, the cause of an INVALID_ARGUMENT error message).
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';

export class InvalidStreamRequest extends Error {}

/** One party's (or any party's) cumulative filters, compiled. */
export interface CompiledFilters {
  /** A wildcard entry exists (or no concrete entry at all: the implicit wildcard). */
  wildcard: boolean;
  wildcardBlob: boolean;
  /** The wildcard is the implicit one of Filters without any concrete entry. */
  implicit?: boolean;
  /** templateId as requested -> includeCreatedEventBlob. */
  templates: Map<string, boolean>;
  /** interfaceId -> includeCreatedEventBlob. */
  interfaces: Map<string, boolean>;
}

export interface EventFormatSpec {
  byParty: Map<string, CompiledFilters>;
  anyParty?: CompiledFilters;
  verbose: boolean;
}

export type Shape = 'acs-delta' | 'ledger-effects';

export interface TopologySpec {
  /** 'all': every party's participant-authorization events; otherwise only these parties'. */
  parties: 'all' | ReadonlySet<string>;
}

export interface StreamRequest {
  beginExclusive: number;
  endInclusive?: number;
  descending: boolean;
  transactions?: { format: EventFormatSpec; shape: Shape };
  reassignments?: EventFormatSpec;
  topology?: TopologySpec;
}

export interface StreamQuery {
  /** A valid limit no bigger than the list limit; undefined when absent or ignored. */
  limit?: number;
  idleTimeoutMs?: number;
}

const INT64_MAX = 9223372036854775807n;

function fail(message: string): never {
  throw new InvalidStreamRequest(message);
}

function int64(v: unknown, field: string, nonNegative: boolean): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) fail(`Invalid value for: body (${field} must be an int64 integer, got ${JSON.stringify(v)})`);
  if (nonNegative && v < 0) fail(`Invalid value for: body (${field} must be non-negative, got ${v})`);
  if (Math.abs(v) > Number(INT64_MAX)) fail(`Invalid value for: body (${field} is out of the int64 range)`);
  return v;
}

function optionalBoolean(v: unknown, field: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') fail(`Invalid value for: body (${field} must be a boolean, got ${JSON.stringify(v)})`);
  return v;
}

function object(v: unknown, field: string): JsonObject {
  if (!isObject(v)) fail(`Invalid value for: body (${field} must be a JSON object)`);
  return v;
}

function blobFlag(v: JsonObject, field: string): boolean {
  return optionalBoolean(v.includeCreatedEventBlob, `${field}.includeCreatedEventBlob`) ?? false;
}

export function compileFilters(raw: unknown, field: string): CompiledFilters {
  const f = object(raw, field);
  const out: CompiledFilters = { wildcard: false, wildcardBlob: false, templates: new Map(), interfaces: new Map() };
  let concrete = 0;
  if (f.cumulative !== undefined) {
    if (!Array.isArray(f.cumulative)) fail(`Invalid value for: body (${field}.cumulative must be an array)`);
    f.cumulative.forEach((entry, i) => {
      const at = `${field}.cumulative[${i}]`;
      const raw = object(entry, at).identifierFilter;
      // The official document leaves identifierFilter optional: an entry without one defines no filter, like Empty.
      if (raw === undefined) return;
      const idf = object(raw, `${at}.identifierFilter`);
      const keys = Object.keys(idf);
      if (keys.length !== 1) fail(`Invalid value for: body (${at}.identifierFilter must have exactly one key, got ${keys.length})`);
      const key = keys[0]!;
      if (key === 'Empty') return; // defines no filter
      const value = object(object(idf[key], `${at}.identifierFilter.${key}`).value, `${at}.identifierFilter.${key}.value`);
      const vAt = `${at}.identifierFilter.${key}.value`;
      concrete++;
      if (key === 'WildcardFilter') {
        out.wildcard = true;
        out.wildcardBlob ||= blobFlag(value, vAt);
      } else if (key === 'TemplateFilter') {
        if (typeof value.templateId !== 'string' || value.templateId === '') fail(`Invalid value for: body (${vAt}.templateId must be a non-empty string)`);
        out.templates.set(value.templateId, (out.templates.get(value.templateId) ?? false) || blobFlag(value, vAt));
      } else if (key === 'InterfaceFilter') {
        if (typeof value.interfaceId !== 'string' || value.interfaceId === '') fail(`Invalid value for: body (${vAt}.interfaceId must be a non-empty string)`);
        optionalBoolean(value.includeInterfaceView, `${vAt}.includeInterfaceView`);
        out.interfaces.set(value.interfaceId, (out.interfaces.get(value.interfaceId) ?? false) || blobFlag(value, vAt));
      } else {
        fail(`Invalid value for: body (${at}.identifierFilter has unknown kind '${key}')`);
      }
    });
  }
  // No concrete entry: a single wildcard without created-event blob.
  if (concrete === 0) out.wildcard = out.implicit = true;
  return out;
}

/** Daml-LF party strings: 1 to 255 of these characters (a Canton party id adds `::` and a fingerprint). */
const PARTY_ID = /^[A-Za-z0-9:_\- ]{1,255}$/;

function partyMap(raw: unknown, field: string, checkKeys: boolean): Map<string, CompiledFilters> {
  const m = new Map<string, CompiledFilters>();
  if (raw === undefined) return m;
  for (const [party, filters] of Object.entries(object(raw, field))) {
    if (checkKeys && (party.trim() === '' || !PARTY_ID.test(party)))
      fail(`Invalid value for: body (${field} keys must be valid party ids, got ${JSON.stringify(party)})`);
    m.set(party, compileFilters(filters, `${field}[${party}]`));
  }
  return m;
}

/** EventFormat or the deprecated TransactionFilter (same party fields). */
function eventFormat(raw: unknown, field: string, verbose?: boolean, checkKeys = true): EventFormatSpec {
  const f = object(raw, field);
  return {
    byParty: partyMap(f.filtersByParty, `${field}.filtersByParty`, checkKeys),
    anyParty: f.filtersForAnyParty === undefined ? undefined : compileFilters(f.filtersForAnyParty, `${field}.filtersForAnyParty`),
    verbose: verbose ?? optionalBoolean(f.verbose, `${field}.verbose`) ?? false,
  };
}

/** An EventFormat given to another endpoint (events by contract id). */
export function parseEventFormat(raw: unknown, field: string): EventFormatSpec {
  return eventFormat(raw, field);
}

/** A TransactionFormat given to another endpoint (the transaction a submission answers with). */
export function parseTransactionFormat(raw: unknown, field: string): { format: EventFormatSpec; shape: Shape } {
  const tf = object(raw, field);
  if (tf.eventFormat === undefined) fail(`Invalid value for: body (${field}.eventFormat is required)`);
  const shape = typeof tf.transactionShape === 'string' ? SHAPES[tf.transactionShape] : undefined;
  if (!shape) fail(`Invalid value for: body (unknown ${field}.transactionShape ${JSON.stringify(tf.transactionShape)})`);
  return { format: eventFormat(tf.eventFormat, `${field}.eventFormat`), shape };
}

const SHAPES: Record<string, Shape> = {
  // The description lists UNSPECIFIED among the allowed values; it reads as the documented default shape.
  TRANSACTION_SHAPE_UNSPECIFIED: 'acs-delta',
  TRANSACTION_SHAPE_ACS_DELTA: 'acs-delta',
  TRANSACTION_SHAPE_LEDGER_EFFECTS: 'ledger-effects',
};

function topologyFormat(raw: unknown, field: string): TopologySpec | undefined {
  const t = object(raw, field);
  if (t.includeParticipantAuthorizationEvents === undefined) return undefined;
  const pa = object(t.includeParticipantAuthorizationEvents, `${field}.includeParticipantAuthorizationEvents`);
  if (pa.parties === undefined) return { parties: 'all' };
  if (!Array.isArray(pa.parties) || pa.parties.some((p) => typeof p !== 'string')) {
    fail(`Invalid value for: body (${field}.includeParticipantAuthorizationEvents.parties must be an array of party ids)`);
  }
  return { parties: pa.parties.length === 0 ? 'all' : new Set(pa.parties as string[]) };
}

export function parseStreamRequest(ctx: NodeContext, body: unknown): StreamRequest {
  if (body === undefined) fail('Invalid value for: body (a GetUpdatesRequest JSON object is required)');
  // A body of another content type arrives as bytes (a Buffer), which is no JSON object either.
  if (!isObject(body) || Buffer.isBuffer(body)) fail('Invalid value for: body (expected a JSON object)');
  if (body.beginExclusive === undefined) fail('Invalid value for: body (missing required field beginExclusive)');
  // ledger-negative-begin-as-zero: a negative beginExclusive is read as 0 (the start of the ledger) instead of refused.
  const begin = ctx.faults.has('ledger-negative-begin-as-zero') && typeof body.beginExclusive === 'number' && body.beginExclusive < 0 ? 0 : body.beginExclusive;
  const req: StreamRequest = { beginExclusive: int64(begin, 'beginExclusive', true), descending: false };
  if (body.endInclusive !== undefined) req.endInclusive = int64(body.endInclusive, 'endInclusive', false);
  req.descending = optionalBoolean(body.descendingOrder, 'descendingOrder') ?? false;
  if (req.descending && req.endInclusive === undefined && !ctx.faults.has('ledger-descending-without-end-accepted')) {
    fail('Invalid value for: body (descendingOrder requires endInclusive: an open-ended stream cannot be read backwards)');
  }

  // Each fault lets one deprecated field stand next to updateFormat.
  const legacy =
    (body.filter !== undefined && !ctx.faults.has('ledger-filter-and-format-accepted')) ||
    (body.verbose !== undefined && !ctx.faults.has('ledger-verbose-and-format-accepted'));
  const verbose = optionalBoolean(body.verbose, 'verbose');
  const checkKeys = !ctx.faults.has('ledger-party-key-unchecked');
  if (body.updateFormat !== undefined) {
    if (legacy) {
      fail('Invalid value for: body (filter and verbose must be unset when updateFormat is defined)');
    }
    const uf = object(body.updateFormat, 'updateFormat');
    if (uf.includeTransactions !== undefined) {
      const tf = object(uf.includeTransactions, 'updateFormat.includeTransactions');
      if (tf.eventFormat === undefined) fail('Invalid value for: body (updateFormat.includeTransactions.eventFormat is required)');
      if (tf.transactionShape === undefined) fail('Invalid value for: body (updateFormat.includeTransactions.transactionShape is required)');
      const shape = typeof tf.transactionShape === 'string' ? SHAPES[tf.transactionShape] : undefined;
      if (!shape)
        fail(`Invalid value for: body (unknown transactionShape ${JSON.stringify(tf.transactionShape)}; expected one of ${Object.keys(SHAPES).join(', ')})`);
      req.transactions = { format: eventFormat(tf.eventFormat, 'updateFormat.includeTransactions.eventFormat', undefined, checkKeys), shape };
    }
    if (uf.includeReassignments !== undefined)
      req.reassignments = eventFormat(uf.includeReassignments, 'updateFormat.includeReassignments', undefined, checkKeys);
    if (uf.includeTopologyEvents !== undefined) req.topology = topologyFormat(uf.includeTopologyEvents, 'updateFormat.includeTopologyEvents');
    return req;
  }
  if (body.filter === undefined) {
    // Design choice: a request that selects nothing at all is refused rather than answered with checkpoints only.
    fail('Invalid value for: body (nothing requested: set updateFormat, or the deprecated filter)');
  }
  // Documented default mapping of the deprecated fields.
  const format = eventFormat(body.filter, 'filter', verbose ?? false, checkKeys);
  req.transactions = { format, shape: 'acs-delta' };
  req.reassignments = format;
  // Participant-authorization events of the parties named in the filter (all of them under filtersForAnyParty).
  if (ctx.faults.has('ledger-legacy-filter-no-topology')) return req;
  if (format.anyParty) req.topology = { parties: 'all' };
  else if (format.byParty.size > 0) req.topology = { parties: new Set(format.byParty.keys()) };
  return req;
}

/** A GetActiveContractsRequest: the offset of the snapshot and the parties' filters. */
export interface ActiveContractsRequest {
  activeAtOffset: number;
  format: EventFormatSpec;
}

/** A GetActiveContractsRequest: its eventFormat, or (the documented default mapping) the deprecated filter and verbose. */
export function parseActiveContractsRequest(ctx: NodeContext, body: unknown): ActiveContractsRequest {
  if (!isObject(body)) fail('Invalid value for: body (expected a GetActiveContractsRequest JSON object)');
  if (body.activeAtOffset === undefined) fail('Invalid value for: body (missing required field activeAtOffset)');
  const activeAtOffset = int64(body.activeAtOffset, 'activeAtOffset', true);
  const checkKeys = !ctx.faults.has('ledger-party-key-unchecked');
  if (body.eventFormat !== undefined) {
    if (body.filter !== undefined || body.verbose !== undefined) fail('Invalid value for: body (filter and verbose must be unset when eventFormat is defined)');
    return { activeAtOffset, format: eventFormat(body.eventFormat, 'eventFormat', undefined, checkKeys) };
  }
  if (body.filter === undefined) fail('Invalid value for: body (nothing requested: set eventFormat, or the deprecated filter)');
  return { activeAtOffset, format: eventFormat(body.filter, 'filter', optionalBoolean(body.verbose, 'verbose') ?? false, checkKeys) };
}

export function queryInt(raw: unknown, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? fail(`Invalid value for: query parameter ${name} (given more than once)`) : String(raw);
  if (!/^\d+$/.test(text)) fail(`Invalid value for: query parameter ${name} (expected a non-negative integer, but got: ${JSON.stringify(text)})`);
  if (BigInt(text) > INT64_MAX) fail(`Invalid value for: query parameter ${name} (out of the int64 range: ${text})`);
  return Number(text);
}

function tryOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

export function parseStreamQuery(ctx: NodeContext, query: unknown): StreamQuery {
  const q = isObject(query) ? query : {};
  let limit: number | undefined;
  try {
    limit = queryInt(q.limit, 'limit');
  } catch (e) {
    if (!ctx.faults.has('ledger-invalid-limit-accepted')) throw e;
  }
  // A limit bigger than the server's list limit is ignored: the server setting applies (limit-above-list-limit-honoured:
  // not; limit-at-list-limit-ignored: a limit equal to it is ignored too).
  const ignoredFrom = ctx.settings.listLimit + (ctx.faults.has('ledger-limit-at-list-limit-ignored') ? 0 : 1);
  if (limit !== undefined && limit >= ignoredFrom && !ctx.faults.has('ledger-limit-above-list-limit-honoured')) limit = undefined;
  if (ctx.faults.has('ledger-limit-ignored')) limit = undefined;
  // limit-plus-one: one element more than the limit is returned.
  if (limit !== undefined && ctx.faults.has('ledger-limit-plus-one')) limit += 1;
  // ledger-idle-timeout-unchecked: an invalid stream_idle_timeout_ms reads as none.
  const idle = () => queryInt(q.stream_idle_timeout_ms, 'stream_idle_timeout_ms');
  return { limit, idleTimeoutMs: ctx.faults.has('ledger-idle-timeout-unchecked') ? tryOrUndefined(idle) : idle() };
}

/** Parties an event format names, and whether it asks for any party. */
export function namedParties(f: EventFormatSpec | undefined): { parties: string[]; anyParty: boolean } {
  return { parties: f ? [...f.byParty.keys()] : [], anyParty: f?.anyParty !== undefined };
}
