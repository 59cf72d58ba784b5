// Every answer a check receives is judged against its operation's response schema, as a validating proxy
// would, under the deviation policy (generators/judge-response.ts). The log keeps what the judgements show,
// not the answers: per operation the first break (for its generic answer requirement, which reviews the run
// at its end), per interface the first null sent for an optional property and the plain-text 404s (for the
// SHOULD requirements that report them), and what the target's release line made not applicable.
import { judgeResponse, NOTHING_JUDGED, type AnswerPolicy, type CompiledSpec, type ResponseJudgement } from '../../generators/index.ts';
import type { InterfaceName } from '../../common/vocabulary.ts';
import { nestedTooDeep, summarise, type Exchange, type ExchangeSummary } from '../http.ts';
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

export class AnswerLog {
  private readonly matchers = new Map<InterfaceName, OperationMatcher>();
  private readonly judged = new WeakMap<Exchange, ResponseJudgement>();
  private readonly breaks = new Map<string, AnswerNote>();
  private readonly nulls = new Map<InterfaceName, AnswerNote[]>();
  private readonly plain404 = new Map<string, AnswerNote>();
  /** Operations that gave an answer other than 404, 405 or 501: they are served. */
  private readonly served = new Set<string>();
  /** Per interface: JSON bodies validated, and 404 answers of served operations judged (JSON or not). */
  private readonly bodies = new Map<InterfaceName, number>();
  private readonly notFound = new Map<string, number>();
  private readonly notApplicable = new Map<InterfaceName, Set<string>>();

  constructor(
    private readonly specs: Partial<Record<InterfaceName, CompiledSpec>>,
    /** The policy each interface's answers are judged under (its release line), set before the checks run. */
    readonly policies: Partial<Record<InterfaceName, AnswerPolicy>> = {},
  ) {}

  /** An answer a check received on a call it made (path relative to the interface prefix). */
  observe(iface: InterfaceName, receivedBy: string, x: Exchange, path: string): void {
    const spec = this.specs[iface];
    if (!spec || x.status === 0 || x.truncated || this.judged.has(x)) return;
    let matcher = this.matchers.get(iface);
    if (!matcher) this.matchers.set(iface, (matcher = new OperationMatcher(spec)));
    const op = matcher.match(x.method, path);
    if (!op) return;
    const j = this.judge(iface, op.id, x, receivedBy);
    // A status the document does not list is the business of the check that asked for it (a rule names the
    // statuses it expects); an undocumented success is a break of the document whoever receives it.
    if (j.problems.length > 0 && (j.statusDocumented || (x.status >= 200 && x.status < 300)))
      this.note(this.breaks, key(iface, op.id), op.id, receivedBy, j.problems[0]!, x, j.pointer);
  }

  /** The judgement of an answer of `operationId` (made once per answer), with what it shows recorded. */
  judge(iface: InterfaceName, operationId: string, x: Exchange, receivedBy: string): ResponseJudgement {
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
    if (j.plainText404) this.note(this.plain404, key(iface, operationId), operationId, receivedBy, 'a 404 whose body is not the documented JSON', x);
    if (j.nullForOptional.length > 0) {
      const list = this.nulls.get(iface) ?? [];
      const message = `null for ${j.nullForOptional.slice(0, 3).join(', ')}${j.nullForOptional.length > 3 ? ` and ${j.nullForOptional.length - 3} more` : ''}`;
      const same = list.find((n) => n.operationId === operationId);
      if (same) same.count++;
      else list.push({ operationId, receivedBy, message, evidence: { exchange: summarise(x), pointer: j.nullForOptional[0] }, count: 1 });
      this.nulls.set(iface, list);
    }
    if (j.notApplicable.length > 0) {
      const set = this.notApplicable.get(iface) ?? new Set();
      for (const p of j.notApplicable) set.add(p);
      this.notApplicable.set(iface, set);
    }
    return j;
  }

  private note(map: Map<string, AnswerNote>, k: string, operationId: string, receivedBy: string, message: string, x: Exchange, pointer?: string) {
    const known = map.get(k);
    if (known) known.count++;
    else map.set(k, { operationId, receivedBy, message, evidence: { exchange: summarise(x), pointer }, count: 1 });
  }

  /** The first break of the document among the answers checks received for the operation. */
  breakOf(iface: InterfaceName, operationId: string): AnswerNote | undefined {
    return this.breaks.get(key(iface, operationId));
  }

  /** Operations of the interface that answered with null for an optional property, one note each. */
  nullsFor(iface: InterfaceName): readonly AnswerNote[] {
    return this.nulls.get(iface) ?? [];
  }

  /** Plain-text 404s of operations that are served (an operation that is not served is unsupported instead). */
  plainText404For(iface: InterfaceName): AnswerNote[] {
    return [...this.plain404.entries()].filter(([k]) => k.startsWith(`${iface} `) && this.served.has(k)).map(([, n]) => n);
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
