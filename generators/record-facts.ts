// Facts the description states about a RECORD, each stated once, by name. A document puts them on the
// record's schema (`x-cn-record-facts: [name, ...]`); the schema validators enforce them as a keyword, so
// every answer of every operation that carries the record (each endpoint and version, each element of a
// list, each page) is judged by the generic answer review, without a check per carrier. Only what the
// description states: "not shown" stays open, and no fact reads more than the one record it is on.
import { isObject, pointer, type JsonObject } from '../common/json.ts';
import { timeNanos } from '../common/iso-time.ts';

/** The keyword an `x-cn-record-facts` list becomes in the converted schema. */
export const RECORD_FACTS_KEYWORD = 'cnRecordFacts';
/** The extension that names the facts on a record schema. */
export const RECORD_FACTS_EXTENSION = 'x-cn-record-facts';

export interface FactProblem {
  message: string;
  /** Relative to the record. */
  pointer: string;
}

export interface RecordFact {
  /** The description's sentences that state it. */
  cites: readonly string[];
  /** The record schemas the description states it of (the document must mark each of them). */
  records: Readonly<Record<string, readonly string[]>>;
  /** The first problem of one record (any JSON value: a record of the wrong type is the schema's business). */
  problem(record: unknown): FactProblem | undefined;
}

const eventsOf = (tx: JsonObject): JsonObject => (isObject(tx.events_by_id) ? tx.events_by_id : {});
const childIds = (e: unknown): string[] =>
  isObject(e) && Array.isArray(e.child_event_ids) ? e.child_event_ids.filter((c: unknown): c is string => typeof c === 'string') : [];
const rootIds = (tx: JsonObject): unknown[] => (Array.isArray(tx.root_event_ids) ? tx.root_event_ids : []);

// ISO 8601 with at most microsecond digits. A node may trim trailing zeros (".5" for ".500000"), so six
// digits are not required; a finer or a non-ISO rendering breaks the rule.
const MICROS_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/i;

/** Party ids hosted on a participant: PAR, then a non-empty id, then a fingerprint without colons. */
const PARTICIPANT_ID = /^PAR::.+::[^:]+$/;

/** An ANS entry's url: empty, or an http/https URL (the record fact ans-url-http; the name-service rules use it too). */
export function urlAllowed(url: unknown): boolean {
  if (url === '') return true;
  if (typeof url !== 'string') return false;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A fact of a transaction tree: judged only on an object whose events_by_id is an object (else the schema fails it). */
const onTree =
  (problem: (tx: JsonObject) => FactProblem | undefined) =>
  (r: unknown): FactProblem | undefined =>
    isObject(r) && isObject(r.events_by_id) ? problem(r) : undefined;

const TRANSACTIONS = { scan: ['UpdateHistoryTransaction', 'UpdateHistoryTransactionV2'] } as const;

export const RECORD_FACTS = {
  'tree-roots-known': {
    cites: ['R.scan.13', 'X.events.5'],
    records: TRANSACTIONS,
    problem: onTree((tx) => {
      const roots = rootIds(tx);
      const k = roots.findIndex((r) => typeof r !== 'string' || !(r in eventsOf(tx)));
      return k < 0 ? undefined : { message: `root_event_ids[${k}] ${JSON.stringify(roots[k])} is not a key of events_by_id`, pointer: `/root_event_ids/${k}` };
    }),
  },
  'tree-children-known': {
    cites: ['R.scan.14', 'X.events.5'],
    records: TRANSACTIONS,
    problem: onTree((tx) => {
      for (const [key, e] of Object.entries(eventsOf(tx))) {
        const k = childIds(e).findIndex((c) => !(c in eventsOf(tx)));
        if (k >= 0)
          return {
            message: `event ${key} lists child ${childIds(e)[k]} that is not a key of events_by_id`,
            pointer: `${pointer('events_by_id', key, 'child_event_ids')}/${k}`,
          };
      }
      return undefined;
    }),
  },
  'tree-all-reachable': {
    cites: ['R.scan.14', 'X.events.5'],
    records: TRANSACTIONS,
    problem: onTree((tx) => {
      const seen = new Set<string>();
      const todo = rootIds(tx).filter((r): r is string => typeof r === 'string');
      while (todo.length > 0) {
        const id = todo.pop()!;
        if (seen.has(id) || !(id in eventsOf(tx))) continue;
        seen.add(id);
        todo.push(...childIds(eventsOf(tx)[id]));
      }
      const orphan = Object.keys(eventsOf(tx)).find((k) => !seen.has(k));
      return orphan === undefined
        ? undefined
        : {
            message: `event ${orphan} is a key of events_by_id but no root_event_ids or child_event_ids path leads to it`,
            pointer: pointer('events_by_id', orphan),
          };
    }),
  },
  'tree-created-event-id': {
    cites: ['R.scan.7'],
    records: TRANSACTIONS,
    problem: onTree((tx) => {
      for (const [key, e] of Object.entries(eventsOf(tx))) {
        // A created event is recognised by its create_arguments (event_type values are not enumerated).
        if (isObject(e) && 'create_arguments' in e && e.event_id !== key)
          return { message: `created event under key ${key} has event_id ${JSON.stringify(e.event_id)}`, pointer: pointer('events_by_id', key, 'event_id') };
      }
      return undefined;
    }),
  },
  'tree-event-types': {
    cites: ['X.events.6'],
    records: TRANSACTIONS,
    problem: onTree((tx) => {
      const key = Object.keys(eventsOf(tx)).find((k) => {
        const e = eventsOf(tx)[k];
        return isObject(e) && typeof e.event_type !== 'string';
      });
      return key === undefined ? undefined : { message: `event ${key} carries no event_type string`, pointer: pointer('events_by_id', key, 'event_type') };
    }),
  },
  'record-time-micros': {
    cites: ['R.scan.9'],
    records: TRANSACTIONS,
    problem: onTree((tx) => {
      const rt = tx.record_time;
      return typeof rt === 'string' && MICROS_ISO.test(rt) && timeNanos(rt) !== undefined
        ? undefined
        : { message: `record_time ${JSON.stringify(rt)} is not an ISO 8601 timestamp of at most microsecond resolution`, pointer: '/record_time' };
    }),
  },
  'effective-at-iso': {
    cites: ['R.scan.10'],
    records: TRANSACTIONS,
    // No resolution is named for it: any ISO 8601 precision passes.
    problem: onTree((tx) =>
      timeNanos(tx.effective_at) !== undefined
        ? undefined
        : { message: `effective_at ${JSON.stringify(tx.effective_at)} is not an ISO 8601 timestamp`, pointer: '/effective_at' },
    ),
  },
  'tree-created-at-effective': {
    cites: ['R.scan.5', 'R.scan.10'],
    records: TRANSACTIONS,
    // A created event of a transaction's tree was created by that transaction, so its created_at (the ledger
    // effective time of the creating transaction) is the record's effective_at, as an instant (the renderings
    // may differ in their digits).
    problem: onTree((tx) => {
      const effective = timeNanos(tx.effective_at);
      if (effective === undefined) return undefined;
      for (const [key, e] of Object.entries(eventsOf(tx))) {
        if (!isObject(e) || e.event_type !== 'created_event' || typeof e.created_at !== 'string') continue;
        const created = timeNanos(e.created_at);
        if (created !== undefined && created !== effective)
          return {
            message: `created event ${key} has created_at ${e.created_at}, but it was created by this transaction, whose effective_at is ${String(tx.effective_at)}`,
            pointer: pointer('events_by_id', key, 'created_at'),
          };
      }
      return undefined;
    }),
  },
  'external-hash-omitted': {
    cites: ['R.scan.16'],
    records: TRANSACTIONS,
    // Null is named here, though the answer policy tolerates null for other optional properties: the
    // description says this one is omitted from the JSON when null.
    problem: onTree((tx) =>
      'external_transaction_hash' in tx && typeof tx.external_transaction_hash !== 'string'
        ? {
            message: `external_transaction_hash is present as ${JSON.stringify(tx.external_transaction_hash)}; without a hash the field must be omitted`,
            pointer: '/external_transaction_hash',
          }
        : undefined,
    ),
  },
  'faucet-round-arithmetic': {
    cites: ['R.scan.37', 'R.scan.38'],
    records: { scan: ['ValidatorReceivedFaucets'] },
    problem(r) {
      if (!isObject(r)) return undefined;
      const { numRoundsCollected: c, numRoundsMissed: m, firstCollectedInRound: first, lastCollectedInRound: last } = r;
      // Beyond 2^53 the sum cannot be computed exactly; a field of the wrong type is the schema's to report.
      if (![c, m, first, last].every((v) => Number.isSafeInteger(v))) return undefined;
      const [cn, mn, fn, ln] = [c, m, first, last] as [number, number, number, number];
      // A validator that never collected (real nodes report all four counters 0) has no rounds to add up.
      if (cn === 0) return undefined;
      if (cn === 1 && fn !== ln)
        return {
          message: `numRoundsCollected is 1 (a single round), but firstCollectedInRound ${fn} is not lastCollectedInRound ${ln}`,
          pointer: '/lastCollectedInRound',
        };
      return cn + mn === ln - fn + 1
        ? undefined
        : {
            message: `numRoundsCollected ${cn} + numRoundsMissed ${mn} = ${cn + mn}, but lastCollectedInRound - firstCollectedInRound + 1 = ${ln - fn + 1}`,
            pointer: '',
          };
    },
  },
  'ans-url-http': {
    cites: ['R.scan.41'],
    records: { scan: ['AnsEntry'] },
    problem: (r) =>
      isObject(r) && 'url' in r && !urlAllowed(r.url)
        ? { message: `url ${JSON.stringify(r.url)} is neither empty nor an http/https URL`, pointer: '/url' }
        : undefined,
  },
  'participant-ids-form': {
    cites: ['C.participant-id.2'],
    records: { scan: ['PartyToParticipantV1Response'] },
    problem(r) {
      const ids = isObject(r) && Array.isArray(r.participant_ids) ? r.participant_ids : [];
      const k = ids.findIndex((id: unknown) => typeof id === 'string' && !PARTICIPANT_ID.test(id));
      return k < 0
        ? undefined
        : { message: `participant id ${JSON.stringify(ids[k])} is not of the form PAR::id::fingerprint`, pointer: `/participant_ids/${k}` };
    },
  },
} satisfies Record<string, RecordFact>;

export type RecordFactName = keyof typeof RECORD_FACTS;

export const isRecordFact = (name: unknown): name is RecordFactName => typeof name === 'string' && Object.hasOwn(RECORD_FACTS, name);

/** The problems of a record under the named facts (an unknown name is reported: a typo must not pass unseen). */
export function recordProblems(names: readonly unknown[], record: unknown): Array<FactProblem & { fact: string }> {
  const out: Array<FactProblem & { fact: string }> = [];
  for (const name of names) {
    if (!isRecordFact(name)) {
      out.push({ fact: String(name), message: `names the unknown record fact ${JSON.stringify(name)}`, pointer: '' });
      continue;
    }
    const p = RECORD_FACTS[name].problem(record);
    if (p) out.push({ ...p, fact: name });
  }
  return out;
}
