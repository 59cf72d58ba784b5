// What the run's answers show as a whole, projected from the answer log once every check has run: per
// operation the first break (for its generic answer requirement), per interface the nulls sent for optional
// properties and the plain-text 404s of served operations (for the SHOULD requirements that report them),
// what was counted, and what the target's release line made not applicable. A pure function of the log and
// the run's order: the same answers give the same notes whatever order concurrent checks finished in.
import type { InterfaceName } from '../../common/vocabulary.ts';
import type { ExchangeSummary } from '../transport/http.ts';
import type { Observation } from './answer-log.ts';

/** One thing the answers showed, with the first such answer as evidence. */
export interface AnswerNote {
  operationId: string;
  /** The requirement (or run step) whose check received the answer. */
  receivedBy: string;
  message: string;
  /** The first such answer, and where in its body (evidence of the requirement that reports it). */
  evidence: { exchange: ExchangeSummary; pointer?: string };
  /** How many answers showed it (the evidence is the first). */
  count: number;
}

/** The order "first" follows: the requirements in a serial run's order, and who asked for each shared read. */
export interface RunOrder {
  ids: readonly string[];
  /** Who asked for a shared read, each with the step it asked at (see RunCache.askedBy). */
  askedBy(key: string): ReadonlyMap<string, number>;
}

/**
 * Where an answer stands in a serial run: its receiver's place in the run (run steps before the
 * requirements: -1), then its place among the receiver's steps (for a shared read: the step that asked for
 * it, then its place among the read's requests).
 */
type Rank = readonly [number, number, number];
const before = (a: Rank, b: Rank) => a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])));

/** What one receiver's answers showed of one thing: its first such answer as evidence, and how many. */
interface Sighting {
  first: Observation;
  message: string;
  pointer?: string;
  count: number;
}

const key = (iface: InterfaceName, operationId: string) => `${iface} ${operationId}`;

export interface AnswerProjection {
  /** The first break of the document among the answers checks received for the operation. */
  breakOf(iface: InterfaceName, operationId: string): AnswerNote | undefined;
  /** Operations of the interface that answered with null for an optional property, one note each. */
  nullsFor(iface: InterfaceName): readonly AnswerNote[];
  /** Plain-text 404s of operations that are served (an operation that is not served is unsupported instead). */
  plainText404For(iface: InterfaceName): readonly AnswerNote[];
  /** How many JSON bodies of the interface's answers were validated against their schemas. */
  bodiesJudgedFor(iface: InterfaceName): number;
  /** How many 404 answers of the interface's served operations were judged. */
  notFoundJudgedFor(iface: InterfaceName): number;
  /** Required properties the interface's answers lacked where its release line predates them. */
  notApplicableFor(iface: InterfaceName): string[];
  /** The first answer of the operation that broke a relation its document states to the request (generators/relations.ts). */
  relationBreakOf(iface: InterfaceName, operationId: string): AnswerNote | undefined;
  /** How many times a relation of the operation applied to an answer (both of its sides present). */
  relationsJudgedFor(iface: InterfaceName, operationId: string): number;
  /** Whether an answer of the run showed the operation served (any answer but a 405, a 501 or a plain-text 404). */
  servedShown(iface: InterfaceName, operationId: string): boolean;
}

export function projectAnswers(observations: readonly Observation[], order: RunOrder): AnswerProjection {
  const breaks = new Map<string, Map<string, Sighting>>();
  const nulls = new Map<string, Map<string, Sighting>>();
  const plain404 = new Map<string, Map<string, Sighting>>();
  /** Operations that gave an answer other than 404, 405 or 501 (or a JSON 404): they are served. */
  const served = new Set<string>();
  const bodies = new Map<InterfaceName, number>();
  const notFound = new Map<string, number>();
  const notApplicable = new Map<InterfaceName, Set<string>>();
  const relationBreaks = new Map<string, Map<string, Sighting>>();
  const relationsApplied = new Map<string, number>();

  // Per receiver, the answer it received first (fewest requests before it) is the evidence; every one counts.
  const note = (map: Map<string, Map<string, Sighting>>, k: string, o: Observation, message: string, pointer?: string) => {
    const sightings = map.get(k) ?? new Map<string, Sighting>();
    map.set(k, sightings);
    const receiver = o.shared === undefined ? o.receivedBy : `shared ${o.shared}`;
    const known = sightings.get(receiver);
    if (known && known.first.sent <= o.sent) known.count++;
    else sightings.set(receiver, { first: o, message, pointer, count: (known?.count ?? 0) + 1 });
  };

  for (const o of observations) {
    const k = key(o.iface, o.operationId);
    const j = o.judgement;
    if (j.bodyJudged) bodies.set(o.iface, (bodies.get(o.iface) ?? 0) + 1);
    if (o.status === 404) notFound.set(k, (notFound.get(k) ?? 0) + 1);
    if (![404, 405, 501].includes(o.status) || (o.status === 404 && !j.plainText404)) served.add(k);
    if (o.isBreak) note(breaks, k, o, j.problems[0]!, j.pointer);
    if (j.plainText404) note(plain404, k, o, 'a 404 whose body is not the documented JSON');
    if (j.nullForOptional.length > 0) {
      const more = j.nullForOptional.length > 3 ? ` and ${j.nullForOptional.length - 3} more` : '';
      note(nulls, k, o, `null for ${j.nullForOptional.slice(0, 3).join(', ')}${more}`, j.nullForOptional[0]);
    }
    if (o.relations) {
      relationsApplied.set(k, (relationsApplied.get(k) ?? 0) + o.relations.applied);
      const [broken, ...more] = o.relations.breaks;
      if (broken) note(relationBreaks, k, o, `${broken.message}${more.length ? ` (and ${more.length} more in the same answer)` : ''}`, broken.pointer);
    }
    if (j.notApplicable.length > 0) {
      const set = notApplicable.get(o.iface) ?? new Set<string>();
      for (const p of j.notApplicable) set.add(p);
      notApplicable.set(o.iface, set);
    }
  }

  const places = new Map(order.ids.map((id, i) => [id, i]));
  const place = (id: string) => places.get(id) ?? -1;
  /** Who a sighting counts as received by (a shared read: the first in the run's order that asked for it), and its rank. */
  const resolve = (o: Observation): { receivedBy: string; rank: Rank } => {
    if (o.shared === undefined) return { receivedBy: o.receivedBy, rank: [place(o.receivedBy), o.sent, 0] };
    const [first] = [...order.askedBy(o.shared)].sort(([a], [b]) => place(a) - place(b));
    return first ? { receivedBy: first[0], rank: [place(first[0]), first[1], o.sent] } : { receivedBy: o.receivedBy, rank: [-1, 0, o.sent] };
  };
  const first = (sightings: ReadonlyMap<string, Sighting> | undefined): (AnswerNote & { rank: Rank }) | undefined => {
    let best: (AnswerNote & { rank: Rank }) | undefined;
    let count = 0;
    for (const s of sightings?.values() ?? []) {
      count += s.count;
      const { receivedBy, rank } = resolve(s.first);
      if (!best || before(rank, best.rank))
        best = {
          operationId: s.first.operationId,
          receivedBy,
          message: s.message,
          evidence: { exchange: s.first.evidence!, pointer: s.pointer },
          count: 0,
          rank,
        };
    }
    return best && { ...best, count };
  };
  const strip = ({ rank: _, ...note }: AnswerNote & { rank: Rank }): AnswerNote => note;
  const ordered = (all: Iterable<ReadonlyMap<string, Sighting>>): AnswerNote[] =>
    [...all]
      .map((s) => first(s)!)
      .sort((a, b) => (before(a.rank, b.rank) ? -1 : before(b.rank, a.rank) ? 1 : 0))
      .map(strip);
  const ofInterface = (map: Map<string, Map<string, Sighting>>, iface: InterfaceName, servedOnly: boolean) =>
    [...map.entries()].filter(([k]) => k.startsWith(`${iface} `) && (!servedOnly || served.has(k))).map(([, s]) => s);

  return {
    breakOf(iface, operationId) {
      const note = first(breaks.get(key(iface, operationId)));
      return note && strip(note);
    },
    servedShown: (iface, operationId) => served.has(key(iface, operationId)),
    nullsFor: (iface) => ordered(ofInterface(nulls, iface, false)),
    plainText404For: (iface) => ordered(ofInterface(plain404, iface, true)),
    bodiesJudgedFor: (iface) => bodies.get(iface) ?? 0,
    notFoundJudgedFor(iface) {
      let n = 0;
      for (const [k, count] of notFound) if (k.startsWith(`${iface} `) && served.has(k)) n += count;
      return n;
    },
    notApplicableFor: (iface) => [...(notApplicable.get(iface) ?? [])].sort(),
    relationBreakOf(iface, operationId) {
      const note = first(relationBreaks.get(key(iface, operationId)));
      return note && strip(note);
    },
    relationsJudgedFor: (iface, operationId) => relationsApplied.get(key(iface, operationId)) ?? 0,
  };
}
