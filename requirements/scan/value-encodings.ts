// compact_json against protobuf_json (and lossless=false against lossless=true of /v0/updates) for one
// transaction: the same content in another encoding. The verbose format is not shown, so content is
// compared where any lossless encoding keeps it: the events' fields that
// are no Daml value, and the texts inside the values (parties, ids, texts, constructor names), each as often
// as compact_json holds it. Numbers, dates and times are left out (a typed encoding may write them otherwise).
// A protobuf_json answer whose values are all written exactly as compact_json writes them carries no type
// information: compact JSON writes parties, texts, numbers and ids alike as bare strings.
import { isDeepStrictEqual } from 'node:util';
import { isObject, pointer, type Json } from '../../common/json.ts';
import type { EncodingComparison } from './history.ts';

const VALUE_FIELDS = ['create_arguments', 'choice_argument', 'exercise_result'];
/** Event fields that are no Daml value. */
export const PLAIN_FIELDS = ['event_type', 'contract_id', 'template_id', 'package_name', 'choice', 'consuming', 'acting_parties', 'signatories', 'observers'];

const UNKEPT = /^(-?\d+(\.\d+)?|\d{4}-\d{2}-\d{2}.*)$/;

/** The strings inside a value (not object keys), counted. */
function texts(value: Json, keep: (s: string) => boolean, out = new Map<string, number>()): Map<string, number> {
  if (typeof value === 'string') {
    if (keep(value)) out.set(value, (out.get(value) ?? 0) + 1);
  } else if (Array.isArray(value)) for (const v of value) texts(v, keep, out);
  else if (isObject(value)) for (const v of Object.values(value)) texts(v, keep, out);
  return out;
}

const hasScalar = (value: Json): boolean =>
  value !== null && (typeof value !== 'object' || (Array.isArray(value) ? value : Object.values(value)).some(hasScalar));

/**
 * The events of a record, each with its path: a transaction's tree, or the created event an assignment carries
 * (the encoding is asked of every value, whatever the record type).
 */
function events(r: Record<string, Json>): Record<string, { e: Json; at: string[] }> {
  if (isObject(r.events_by_id)) return Object.fromEntries(Object.entries(r.events_by_id).map(([k, e]) => [k, { e, at: ['events_by_id', k] }]));
  const created = isObject(r.event) ? r.event.created_event : undefined;
  return isObject(created) ? { created_event: { e: created, at: ['event', 'created_event'] } } : {};
}

/** The comparison of a verbose, lossless encoding against the compact one, named as the endpoint asks for it. */
export const sameContentVerboseAs =
  (compactName: string): EncodingComparison =>
  (compact, verbose) => {
    // Counted per event type and value field (a created event's arguments, an exercised event's argument and
    // result): the encoding is asked of every value, so a rendering verbose for one kind and compact for another fails.
    const kinds = new Map<string, { values: number; alike: number; at: string[]; field: string }>();
    const verboseEvents = events(verbose);
    for (const [key, { e: c, at }] of Object.entries(events(compact))) {
      const v = verboseEvents[key]?.e;
      if (!isObject(c) || !isObject(v)) continue;
      const plain = PLAIN_FIELDS.find((f) => c[f] !== undefined && !isDeepStrictEqual(c[f], v[f]));
      if (plain)
        return {
          message: `event ${key} has ${plain} ${JSON.stringify(v[plain])}, not ${JSON.stringify(c[plain])}: not the same content`,
          pointer: pointer(...at, plain),
        };
      for (const f of VALUE_FIELDS) {
        if (!hasScalar(c[f]) || v[f] === undefined) continue;
        const kind = `${at[0] === 'event' ? "an assignment's " : ''}${typeof c.event_type === 'string' ? c.event_type : 'event'} ${f}`;
        const count = kinds.get(kind) ?? { values: 0, alike: 0, at, field: f };
        kinds.set(kind, count);
        count.values++;
        if (isDeepStrictEqual(c[f], v[f])) count.alike++;
        const have = texts(v[f], () => true);
        for (const [text, n] of texts(c[f], (s) => !UNKEPT.test(s))) {
          if ((have.get(text) ?? 0) < n)
            return {
              message: `${f} of event ${key} holds ${JSON.stringify(text)} ${n} time(s) in ${compactName}, ${have.get(text) ?? 0} time(s) here: not the same content`,
              pointer: pointer(...at, f),
            };
        }
      }
    }
    const same = [...kinds].find(([, k]) => k.alike === k.values);
    return same
      ? {
          message: `every ${same[0]} of the transaction (${same[1].values}) is written exactly as ${compactName} writes it: no verbose encoding carrying type information`,
          pointer: pointer(...same[1].at, same[1].field),
        }
      : undefined;
  };

export const sameContentVerbose = sameContentVerboseAs('compact_json');
