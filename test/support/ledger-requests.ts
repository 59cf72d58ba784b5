// Requests to the reference node's ledger update stream and reads of its answers, with the world facts they
// are judged against: shared by the ledger interface's tests and the ledger faults' probes.
import type { RunningReferenceNode } from '../../reference-node/index.ts';
import type { TransactionUpdate } from '../../reference-node/world/model.ts';
import type { World } from '../../reference-node/world/world.ts';
import { call, type ObservedResponse } from './response-conformance.ts';
import type { Json as AnyJson } from '../../common/json.ts';

export type Json = Record<string, AnyJson>;
export type Response = ObservedResponse & { json(): AnyJson };

export const ANY: Json = { filtersForAnyParty: {} };
export const byParty = (parties: string[], filters: Json = {}): Json => ({ filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])) });
export const txFormat = (eventFormat: Json, shape = 'TRANSACTION_SHAPE_ACS_DELTA'): Json => ({ includeTransactions: { eventFormat, transactionShape: shape } });
export const everything = (eventFormat: Json, shape = 'TRANSACTION_SHAPE_ACS_DELTA'): Json => ({
  ...txFormat(eventFormat, shape),
  includeReassignments: eventFormat,
  includeTopologyEvents: { includeParticipantAuthorizationEvents: {} },
});
export const templateFilter = (templateId: string, includeCreatedEventBlob = false): Json => ({
  cumulative: [{ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob } } } }],
});
export const wildcardWithBlob: Json = { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }] };

export interface StreamOptions {
  query?: string;
  /** Bearer token; null sends none; default the admin's. */
  token?: string | null;
  headers?: Record<string, string>;
}

export async function stream(node: RunningReferenceNode, body: unknown, o: StreamOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
  const token = o.token === undefined ? node.credentials.ledgerAdminToken : o.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return call(`${node.urls.ledger}/v2/updates${o.query ? `?${o.query}` : ''}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const kindOf = (e: Json): string => Object.keys(e.update)[0]!;
export const recordOf = (e: Json): Json => (Object.values(e.update)[0] as Json).value;
export const offsetsOf = (els: Json[]): number[] => els.map((e) => recordOf(e).offset as number);
export const transactions = (els: Json[]): Json[] => els.filter((e) => kindOf(e) === 'Transaction').map(recordOf);
export const flatEvents = (els: Json[]) =>
  transactions(els).flatMap((tx) => (tx.events as Json[]).map((ev) => ({ tx, kind: Object.keys(ev)[0]!, ev: Object.values(ev)[0] as Json })));
export const isIncreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);
export const isDecreasing = (xs: number[]) => xs.every((x, i) => i === 0 || x < xs[i - 1]!);

export const partyOf = (w: World, hint: string) => w.parties.find((p) => p.hint === hint)!.id;
export const hostedHere = (w: World) => w.parties.filter((p) => p.hostedOn.includes(w.ledgerParticipant.id)).map((p) => p.id);
export const indexOfOffset = (offset: number) => offset / 2 - 1;
/** The update at a stream offset: an update of the history (even) or the ledger-only one after it (odd). */
export const updateAt = (w: World, offset: number) => (offset % 2 === 0 ? w.getUpdate(indexOfOffset(offset)) : w.ledgerOnly.get(indexOfOffset(offset - 1))!);
export const txAt = (w: World, offset: number) => updateAt(w, offset) as TransactionUpdate;

/** End offset of the base segment: every shape of update occurs before it. */
export const BASE_END = 2 * 240;
