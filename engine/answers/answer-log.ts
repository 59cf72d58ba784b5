// Every answer a check receives is judged against its operation's response schema, as a validating proxy
// would, under the deviation policy (generators/judge-response.ts). The log keeps what the judgements show,
// not the answers: per operation the first break (for its generic answer requirement, which reviews the run
// at its end), per interface the first null sent for an optional property and the plain-text 404s (for the
// SHOULD requirements that report them), and what the target's release line made not applicable.
import { judgeResponse, NOTHING_JUDGED, type AnswerPolicy, type CompiledSpec, type OperationSpec, type ResponseJudgement } from '../../generators/index.ts';
import type { InterfaceName } from '../../common/vocabulary.ts';
import { nestedTooDeep, summarise, type Exchange, type ExchangeSummary } from '../transport/http.ts';
import { OperationMatcher } from './operation-matcher.ts';

/** One thing an answer showed, with the answer as evidence. */
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

const key = (iface: InterfaceName, operationId: string) => `${iface} ${operationId}`;

/**
 * Where an answer stands in a serial run: its receiver's place in the run (run steps before the
 * requirements: -1), then its place among the receiver's steps (for a shared read: the step that asked for
 * it, then its place among the read's requests). "First" means first by this, so the
 * notes do not depend on the order concurrent checks finish in.
 */
type Rank = readonly [number, number, number];
const before = (a: Rank, b: Rank) => a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])));

/**
 * What one receiver's answers showed of one thing: the first such answer as evidence, and how many. The
 * receiver is a check, or a read the run's cache shares (`shared`: its key), which counts as received by the
 * first check in the run's order that asked for it, known only once they all have.
 */
interface Sighting {
  operationId: string;
  receivedBy: string;
  shared?: string;
  sent: number;
  message: string;
  evidence: AnswerNote['evidence'];
  count: number;
}

export class AnswerLog {
  private readonly matchers = new Map<InterfaceName, OperationMatcher>();
  private readonly judged = new WeakMap<Exchange, ResponseJudgement>();
  private readonly breaks = new Map<string, Map<string, Sighting>>();
  private readonly nulls = new Map<InterfaceName, Map<string, Map<string, Sighting>>>();
  private readonly plain404 = new Map<string, Map<string, Sighting>>();
  /** Operations that gave an answer other than 404, 405 or 501: they are served. */
  private readonly served = new Set<string>();
  /** Per interface: JSON bodies validated, and 404 answers of served operations judged (JSON or not). */
  private readonly bodies = new Map<InterfaceName, number>();
  private readonly notFound = new Map<string, number>();
  private readonly notApplicable = new Map<InterfaceName, Set<string>>();
  private readonly places = new Map<string, number>();
  /** Answers of shared reads so far, by key (their order among the read's requests). */
  private readonly sharedSent = new Map<string, number>();
  /** Who asked for a shared read (see RunCache.askedBy). */
  askedBy: (key: string) => ReadonlyMap<string, number> = () => new Map();

  constructor(
    private readonly specs: Partial<Record<InterfaceName, CompiledSpec>>,
    /** The policy each interface's answers are judged under (its release line), set before the checks run. */
    readonly policies: Partial<Record<InterfaceName, AnswerPolicy>> = {},
  ) {}

  /** The order of the run's requirements, by id (what "first" follows). */
  rankBy(ids: readonly string[]): void {
    ids.forEach((id, i) => this.places.set(id, i));
  }

  /**
   * An answer a check received on a call it made (path relative to the interface prefix); `sent`: how many
   * requests the receiver made before this one.
   */
  observe(iface: InterfaceName, receivedBy: string, x: Exchange, path: string, sent = 0, shared?: string): void {
    if (x.status === 0 || x.truncated || this.judged.has(x)) return;
    const op = this.operationAt(iface, x.method, path);
    if (!op) return;
    const j = this.judge(iface, op.id, x, receivedBy, sent, shared);
    // A status the document does not list is the business of the check that asked for it (a rule names the
    // statuses it expects); an undocumented success is a break of the document whoever receives it.
    if (j.problems.length > 0 && (j.statusDocumented || (x.status >= 200 && x.status < 300)))
      this.note(this.breaks, key(iface, op.id), { operationId: op.id, receivedBy, shared, sent, message: j.problems[0]! }, x, j.pointer);
  }

  /** The operation of the interface's loaded document that `method path` (relative to the interface prefix) calls. */
  operationAt(iface: InterfaceName, method: string, path: string): OperationSpec | undefined {
    const spec = this.specs[iface];
    if (!spec) return undefined;
    let matcher = this.matchers.get(iface);
    if (!matcher) this.matchers.set(iface, (matcher = new OperationMatcher(spec)));
    return matcher.match(method, path);
  }

  /** An answer of a read the run's cache shares, made under `key` (see RunCache.memo). */
  observeShared(iface: InterfaceName, key: string, x: Exchange, path: string): void {
    const sent = this.sharedSent.get(key) ?? 0;
    this.sharedSent.set(key, sent + 1);
    this.observe(iface, 'a shared read', x, path, sent, key);
  }

  /** The judgement of an answer of `operationId` (made once per answer), with what it shows recorded. */
  judge(iface: InterfaceName, operationId: string, x: Exchange, receivedBy: string, sent = 0, shared?: string): ResponseJudgement {
    const known = this.judged.get(x);
    if (known) return known;
    const spec = this.specs[iface]!;
    // Bodies too large or too deep are judged by the check that receives them, never parsed here.
    const j = nestedTooDeep(x.text)
      ? { ...NOTHING_JUDGED }
      : judgeResponse(spec, operationId, { status: x.status, contentType: x.headers['content-type'], text: x.text }, this.policies[iface]);
    this.judged.set(x, j);
    if (j.bodyJudged) this.bodies.set(iface, (this.bodies.get(iface) ?? 0) + 1);
    if (x.status === 404) this.notFound.set(key(iface, operationId), (this.notFound.get(key(iface, operationId)) ?? 0) + 1);
    if (![404, 405, 501].includes(x.status) || (x.status === 404 && !j.plainText404)) this.served.add(key(iface, operationId));
    const by = { operationId, receivedBy, shared, sent };
    if (j.plainText404) this.note(this.plain404, key(iface, operationId), { ...by, message: 'a 404 whose body is not the documented JSON' }, x);
    if (j.nullForOptional.length > 0) {
      const message = `null for ${j.nullForOptional.slice(0, 3).join(', ')}${j.nullForOptional.length > 3 ? ` and ${j.nullForOptional.length - 3} more` : ''}`;
      const nulls = this.nulls.get(iface) ?? new Map<string, Map<string, Sighting>>();
      this.note(nulls, operationId, { ...by, message }, x, j.nullForOptional[0]);
      this.nulls.set(iface, nulls);
    }
    if (j.notApplicable.length > 0) {
      const set = this.notApplicable.get(iface) ?? new Set();
      for (const p of j.notApplicable) set.add(p);
      this.notApplicable.set(iface, set);
    }
    return j;
  }

  /** Counts what the answer showed, per receiver; the receiver's first answer is its evidence. */
  private note(map: Map<string, Map<string, Sighting>>, k: string, seen: Omit<Sighting, 'evidence' | 'count'>, x: Exchange, pointer?: string) {
    const sightings = map.get(k) ?? new Map<string, Sighting>();
    map.set(k, sightings);
    const receiver = seen.shared === undefined ? seen.receivedBy : `shared ${seen.shared}`;
    const known = sightings.get(receiver);
    if (known && known.sent <= seen.sent) known.count++;
    else sightings.set(receiver, { ...seen, evidence: { exchange: summarise(x), pointer }, count: (known?.count ?? 0) + 1 });
  }

  /** Who a sighting counts as received by, and its rank (see Rank and Sighting). */
  private resolve(s: Sighting): { receivedBy: string; rank: Rank } {
    const place = (id: string) => this.places.get(id) ?? -1;
    if (s.shared === undefined) return { receivedBy: s.receivedBy, rank: [place(s.receivedBy), s.sent, 0] };
    const [first] = [...this.askedBy(s.shared)].sort(([a], [b]) => place(a) - place(b));
    return first ? { receivedBy: first[0], rank: [place(first[0]), first[1], s.sent] } : { receivedBy: s.receivedBy, rank: [-1, 0, s.sent] };
  }

  /** The note of what several receivers' answers showed: the first answer's evidence, every answer counted. */
  private first(sightings: ReadonlyMap<string, Sighting> | undefined): (AnswerNote & { rank: Rank }) | undefined {
    let best: (AnswerNote & { rank: Rank }) | undefined;
    let count = 0;
    for (const s of sightings?.values() ?? []) {
      count += s.count;
      const { receivedBy, rank } = this.resolve(s);
      if (!best || before(rank, best.rank)) best = { operationId: s.operationId, receivedBy, message: s.message, evidence: s.evidence, count: 0, rank };
    }
    return best && { ...best, count };
  }

  /** Notes in the order their evidence came in a serial run. */
  private ordered(all: Iterable<ReadonlyMap<string, Sighting>>): AnswerNote[] {
    return [...all]
      .map((s) => this.first(s)!)
      .sort((a, b) => (before(a.rank, b.rank) ? -1 : before(b.rank, a.rank) ? 1 : 0))
      .map(({ rank: _, ...note }) => note);
  }

  /** The first break of the document among the answers checks received for the operation. */
  breakOf(iface: InterfaceName, operationId: string): AnswerNote | undefined {
    const note = this.first(this.breaks.get(key(iface, operationId)));
    if (!note) return undefined;
    const { rank: _, ...rest } = note;
    return rest;
  }

  /** Operations of the interface that answered with null for an optional property, one note each. */
  nullsFor(iface: InterfaceName): readonly AnswerNote[] {
    return this.ordered(this.nulls.get(iface)?.values() ?? []);
  }

  /** Plain-text 404s of operations that are served (an operation that is not served is unsupported instead). */
  plainText404For(iface: InterfaceName): AnswerNote[] {
    return this.ordered([...this.plain404.entries()].filter(([k]) => k.startsWith(`${iface} `) && this.served.has(k)).map(([, n]) => n));
  }

  /** How many JSON bodies of the interface's answers were validated against their schemas. */
  bodiesJudgedFor(iface: InterfaceName): number {
    return this.bodies.get(iface) ?? 0;
  }

  /** How many 404 answers of the interface's served operations were judged. */
  notFoundJudgedFor(iface: InterfaceName): number {
    let n = 0;
    for (const [k, count] of this.notFound) if (k.startsWith(`${iface} `) && this.served.has(k)) n += count;
    return n;
  }

  /** Required properties the interface's answers lacked where its release line predates them. */
  notApplicableFor(iface: InterfaceName): string[] {
    return [...(this.notApplicable.get(iface) ?? [])].sort();
  }
}
