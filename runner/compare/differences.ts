// How two nodes' answers to one read are compared, by the description's rules: offsets are a node's own
// numbering and never compared; page tokens and download URLs are opaque (the digests are what is compared);
// offset checkpoints mark a node's own stream positions; lists compare in order, except the party lists whose
// order no rule fixes; object keys compare as sets, except V2's events_by_id, whose order the description fixes.
import { isObject, pointer, type Json } from '../../common/json.ts';

/** One place two answers differ: both values, or the side where the value is absent. */
export interface Difference {
  pointer: string;
  a?: Json;
  b?: Json;
  /** Present only on one side, the keys of an ordered object in another order, or the answers' HTTP statuses. */
  kind: 'value' | 'only in A' | 'only in B' | 'key order' | 'status';
  /**
   * The contract the difference is in (A's contract id of the nearest record that has one): the same contract
   * shows at other pointers in other reads (pages, history, encodings), and its differences have one cause.
   */
  contract?: string;
}

/** The id of the contract a record is (scan spells it contract_id, the ledger contractId). */
export function contractOf(v: Json): string | undefined {
  const id = isObject(v) ? (v.contract_id ?? v.contractId) : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Fields a node numbers or names for itself. */
const NODE_OWN = new Set([
  'offset',
  'completionOffset',
  'activeAtOffset',
  'participantPrunedUpToInclusive',
  'allDivulgedContractsPrunedUpToInclusive',
  'next_page_token',
  'url',
]);
/** Lists of parties: sets, whatever order a node keeps them in. */
const UNORDERED = new Set(['signatories', 'observers', 'witnessParties', 'witness_parties', 'actingParties', 'acting_parties', 'stakeholders']);

/** The answer as compared: node-own fields dropped, party lists sorted, offset checkpoints left out. */
export function normalize(value: Json, key?: string): Json {
  if (Array.isArray(value)) {
    const kept = value.filter((v) => !(isObject(v) && isObject(v.update) && 'OffsetCheckpoint' in v.update)).map((v) => normalize(v));
    return key && UNORDERED.has(key) && kept.every((v) => typeof v === 'string') ? [...kept].sort() : kept;
  }
  if (!isObject(value)) return value;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) if (!NODE_OWN.has(k)) out[k] = normalize(v, k);
  return out;
}

/** Every difference between two normalized answers, at most `max` (then `truncated`). */
export function differences(a: Json, b: Json, options: { orderedEventIds?: boolean; max: number }): { list: Difference[]; truncated: boolean } {
  const list: Difference[] = [];
  let truncated = false;
  const add = (d: Difference) => {
    if (list.length < options.max) list.push(d);
    else truncated = true;
  };
  const walk = (x: Json, y: Json, at: string, key?: string, contract?: string) => {
    // A record present on one side only is about its own contract, if it is one.
    const only = (d: Difference, value: Json, around: string | undefined) => {
      const id = contractOf(value) ?? around;
      add(id ? { ...d, contract: id } : d);
    };
    if (Array.isArray(x) && Array.isArray(y)) {
      for (let i = 0; i < Math.max(x.length, y.length); i++) {
        if (i >= y.length) only({ pointer: `${at}/${i}`, a: x[i], kind: 'only in A' }, x[i], contract);
        else if (i >= x.length) only({ pointer: `${at}/${i}`, b: y[i], kind: 'only in B' }, y[i], contract);
        else walk(x[i], y[i], `${at}/${i}`, undefined, contract);
      }
      return;
    }
    if (isObject(x) && isObject(y)) {
      const inside = contractOf(x) ?? contract;
      if (key === 'events_by_id' && options.orderedEventIds) {
        const [kx, ky] = [Object.keys(x), Object.keys(y)];
        if (kx.length === ky.length && kx.join('\n') !== ky.join('\n') && [...kx].sort().join('\n') === [...ky].sort().join('\n'))
          add({ pointer: at, a: kx, b: ky, kind: 'key order', ...(inside ? { contract: inside } : {}) });
      }
      for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
        const p = at + pointer(k);
        if (!(k in y)) only({ pointer: p, a: x[k], kind: 'only in A' }, x[k], inside);
        else if (!(k in x)) only({ pointer: p, b: y[k], kind: 'only in B' }, y[k], inside);
        else walk(x[k], y[k], p, k, inside);
      }
      return;
    }
    if (x !== y) add({ pointer: at, a: x, b: y, kind: 'value', ...(contract ? { contract } : {}) });
  };
  walk(a, b, '');
  return { list, truncated };
}
