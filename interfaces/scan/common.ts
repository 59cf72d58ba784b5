// Small helpers shared by the scan requirement files: timestamp parsing, and the ContractWithState record
// several endpoints answer with.
import { isObject, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import type { CheckContext } from '../../engine/model.ts';
import { timeNanos } from '../../common/iso-time.ts';

export const enc = encodeURIComponent;

/** The traffic status of one member on one synchronizer (the wallet's purchase check reads it too). */
export const trafficStatusPath = (domain: string, member: string) => `/v0/domains/${enc(domain)}/members/${enc(member)}/traffic-status`;

/** GET /v1/domains/{domain_id}/parties/{party_id}/participant-id: the participants hosting a party. */
export const participantIdPath = (domain: string, party: string) => `/v1/domains/${enc(domain)}/parties/${enc(party)}/participant-id`;

export { timeNanos };

/** Microseconds after a timestamp, written with microsecond digits in UTC. */
export function plusMicros(text: string, micros: number): string | undefined {
  const ns = timeNanos(text);
  if (ns === undefined) return undefined;
  const total = ns / 1000n + BigInt(micros);
  const millis = total / 1000n;
  const rest = total - millis * 1000n;
  return new Date(Number(millis)).toISOString().replace('Z', `${String(rest).padStart(3, '0')}Z`);
}

/** A well-formed id that no node knows: the fixture id with its last character changed. */
export function unknownVariant(id: string): string {
  const last = id.at(-1) ?? '0';
  const swap = /[0-9]/.test(last) ? (last === '0' ? '1' : '0') : /[a-f]/.test(last) ? (last === 'a' ? 'b' : 'a') : last === 'x' ? 'y' : 'x';
  return id.slice(0, -1) + swap;
}

/** Problems of a ContractWithState: contract {template_id, contract_id, created_event_blob, created_at, payload}, domain_id optional. */
export function contractWithStateProblems(c: Json): string[] {
  if (!isObject(c) || !isObject(c.contract)) return ['contract is not an object'];
  const k = c.contract;
  const out = ['template_id', 'contract_id', 'created_event_blob', 'created_at']
    .filter((f) => typeof k[f] !== 'string')
    .map((f) => `contract.${f} is not a string`);
  if (typeof k.created_at === 'string' && timeNanos(k.created_at) === undefined) out.push('contract.created_at is not a timestamp');
  if (!isObject(k.payload)) out.push('contract.payload is not an object');
  if (c.domain_id !== undefined && typeof c.domain_id !== 'string') out.push('domain_id is present but not a string');
  return out;
}

/** The JSON object a positive request is answered with (ctx.accepted: a refusal fails, an unserved operation is unsupported). */
export function acceptedObject(ctx: CheckContext, x: Exchange, what: string): Record<string, Json> {
  const body = ctx.accepted(x, what);
  if (!isObject(body)) ctx.expect(x).fail(`expected a JSON object (${what})`);
  return body;
}

export interface Accepted<K> {
  key: K;
  x: Exchange;
  body: Record<string, Json>;
}

/**
 * Lookups by ids the target itself showed (discovery) or the fixture file names. A 404 is tolerated for some
 * of them, since the target's data may have moved on since it showed them (an archived contract, a member
 * without traffic yet), but not for all: a target that knows none of them refuses the lookup (or does not
 * serve it, where its 404 is no documented answer). Every other answer must be accepted (ctx.accepted).
 */
export async function acceptedLookups<K>(
  ctx: CheckContext,
  keys: readonly K[],
  ask: (key: K) => Promise<Exchange>,
  what: (key: K) => string,
): Promise<Array<Accepted<K>>> {
  const found: Array<Accepted<K>> = [];
  let unknown: { key: K; x: Exchange } | undefined;
  for (const key of keys) {
    const x = await ask(key);
    if (x.status === 404) {
      unknown ??= { key, x };
      continue;
    }
    found.push({ key, x, body: acceptedObject(ctx, x, what(key)) });
  }
  if (found.length === 0 && unknown)
    acceptedObject(ctx, unknown.x, `${what(unknown.key)}; ${keys.length === 1 ? 'the only one' : `none of the ${keys.length}`} looked up was found`);
  return found;
}
