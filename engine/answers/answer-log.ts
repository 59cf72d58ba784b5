// Every answer a check receives is judged against its operation's response schema, as a validating proxy
// would, under the deviation policy (generators/judge-response.ts). The log only appends what each judgement
// showed, with who received the answer and at which of its steps; what the run's answers show as a whole
// (the first break per operation, the nulls, the plain-text 404s, what was counted) is a projection of the
// log made once the checks have run (./answer-projection.ts), so it does not depend on the order concurrent
// checks finished in.
import {
  judgeRelations,
  judgeResponse,
  NOTHING_JUDGED,
  operationRelations,
  type AnswerPolicy,
  type CompiledSpec,
  type OperationSpec,
  type Relation,
  type ResponseJudgement,
} from '../../generators/index.ts';
import { classifyVariants, variantAxes, type VariantAxis } from '../../generators/variant-axes.ts';
import { parseJson } from '../../common/json.ts';
import type { InterfaceName } from '../../common/vocabulary.ts';
import { bodyTooDeep, nestedTooDeep, summarise, type Exchange, type ExchangeSummary } from '../transport/http.ts';
import { OperationMatcher } from './operation-matcher.ts';

/** What one judged answer showed, as the log keeps it. */
export interface Observation {
  iface: InterfaceName;
  operationId: string;
  /** The requirement (or run step) whose check received the answer; for a shared read, 'a shared read'. */
  receivedBy: string;
  /** The key of the shared read (see RunCache.memo) that made the request, if one did. */
  shared?: string;
  /** How many requests the receiver (or the shared read) made before this one. */
  sent: number;
  status: number;
  judgement: Pick<ResponseJudgement, 'problems' | 'pointer' | 'nullForOptional' | 'notApplicable' | 'plainText404' | 'bodyJudged'>;
  /** A break of the document received by a check (not one a check judged and failed on itself). */
  isBreak: boolean;
  /** The answer, kept where it shows what a review reports (a break, a null, a plain-text 404, a broken relation). */
  evidence?: ExchangeSummary;
  /** The value of each variant axis of the operation (x-cn-variants) the exchange shows (see variant-coverage.ts). */
  variants?: Record<string, string>;
  /** What the document's relations to the request (generators/relations.ts) showed of a successful answer. */
  relations?: { applied: number; breaks: Array<{ message: string; pointer: string }> };
}

export class AnswerLog {
  private readonly matchers = new Map<InterfaceName, OperationMatcher>();
  private readonly axes = new Map<string, VariantAxis[]>();
  private readonly judged = new WeakMap<Exchange, ResponseJudgement>();
  /** The JSON values parsed for judgements, until the check reading the answer takes its own (takeParsed). */
  private readonly parses = new WeakMap<Exchange, { value: unknown }>();
  private readonly entries: Observation[] = [];
  /** Answers of shared reads so far, by key (their order among the read's requests). */
  private readonly sharedSent = new Map<string, number>();
  /** Each operation's relations to its request, read off its document once. */
  private readonly relationsOf = new Map<string, readonly Relation[]>();

  constructor(
    private readonly specs: Partial<Record<InterfaceName, CompiledSpec>>,
    /** The policy each interface's answers are judged under (its release line). */
    readonly policies: Readonly<Partial<Record<InterfaceName, AnswerPolicy>>> = {},
  ) {}

  /** Everything judged so far, in the order it was judged. */
  observations(): readonly Observation[] {
    return this.entries;
  }

  /**
   * An answer a check received on a call it made (path relative to the interface prefix); `sent`: how many
   * requests the receiver made before this one.
   */
  observe(iface: InterfaceName, receivedBy: string, x: Exchange, path: string, sent = 0, shared?: string): void {
    if (x.status === 0 || x.truncated || this.judged.has(x)) return;
    const op = this.operationAt(iface, x.method, path);
    if (op) this.record(iface, op.id, x, { receivedBy, sent, shared }, true);
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

  /** The judgement of an answer of `operationId` that a check judges itself (made once per answer). */
  judge(iface: InterfaceName, operationId: string, x: Exchange, receivedBy: string, sent = 0): ResponseJudgement {
    return this.judged.get(x) ?? this.record(iface, operationId, x, { receivedBy, sent }, false);
  }

  private record(
    iface: InterfaceName,
    operationId: string,
    x: Exchange,
    by: Pick<Observation, 'receivedBy' | 'sent' | 'shared'>,
    received: boolean,
  ): ResponseJudgement {
    const spec = this.specs[iface]!;
    // The answer's JSON value, parsed once for the judgement, the relations and the variants, where one needs it.
    let parsed: { value: unknown } | undefined;
    const json = () => (parsed ??= { value: parseJson(x.text) }).value;
    // Bodies too large or too deep are judged by the check that receives them, never parsed here.
    const j = bodyTooDeep(x)
      ? { ...NOTHING_JUDGED }
      : judgeResponse(spec, operationId, { status: x.status, contentType: x.headers['content-type'], text: x.text, parsed: json }, this.policies[iface]);
    this.judged.set(x, j);
    // A status the document does not list is the business of the check that asked for it (a rule names the
    // statuses it expects); an undocumented success is a break of the document whoever receives it.
    const isBreak = received && j.problems.length > 0 && (j.statusDocumented || (x.status >= 200 && x.status < 300));
    const { problems, pointer, nullForOptional, notApplicable, plainText404, bodyJudged } = j;
    const relations = this.relations(iface, spec, operationId, x, json);
    this.entries.push({
      iface,
      operationId,
      ...by,
      status: x.status,
      judgement: { problems, pointer, nullForOptional, notApplicable, plainText404, bodyJudged },
      isBreak,
      evidence: isBreak || plainText404 || nullForOptional.length > 0 || (relations?.breaks.length ?? 0) > 0 ? summarise(x) : undefined,
      variants: this.variantsOf(spec, operationId, x, json),
      ...(relations ? { relations } : {}),
    });
    if (parsed) this.parses.set(x, parsed);
    return j;
  }

  /**
   * The JSON value of an answer as parsed for its judgement, handed once: to the check that reads the answer
   * next (no second parse of the same text), which may then change it freely. Undefined when none was parsed
   * or it was handed already: the caller parses the text itself.
   */
  takeParsed(x: Exchange | ExchangeSummary): { value: unknown } | undefined {
    const p = this.parses.get(x as Exchange);
    this.parses.delete(x as Exchange);
    return p;
  }

  /** The variants the exchange shows, for an operation that declares axes (parsed only then). */
  private variantsOf(spec: CompiledSpec, operationId: string, x: Exchange, body: () => unknown): Record<string, string> | undefined {
    const key = `${spec.catalog.document} ${operationId}`;
    let axes = this.axes.get(key);
    if (!axes) {
      const op = spec.catalog.byId.get(operationId);
      this.axes.set(key, (axes = op ? variantAxes(op) : []));
    }
    if (axes.length === 0) return undefined;
    const json = (text: string | undefined) => (text && !nestedTooDeep(text) ? (parseJson(text) ?? undefined) : undefined);
    const answer = bodyTooDeep(x) ? undefined : (body() ?? undefined);
    return classifyVariants(axes, { query: new URL(x.url, 'http://target').searchParams, body: json(x.requestBody), answer });
  }

  /** The relations of a successful JSON answer of an operation that states some (none otherwise). */
  private relations(iface: InterfaceName, spec: CompiledSpec, operationId: string, x: Exchange, json: () => unknown): Observation['relations'] {
    const op = spec.catalog.byId.get(operationId);
    if (!op || x.status < 200 || x.status >= 300 || bodyTooDeep(x)) return undefined;
    const k = `${iface} ${operationId}`;
    let relations = this.relationsOf.get(k);
    if (!relations) this.relationsOf.set(k, (relations = operationRelations(spec.loaded.document, op)));
    if (relations.length === 0) return undefined;
    const body = json();
    if (body === undefined) return undefined;
    // Path parameters are read off the path the check asked for, which a relocated request did not go to.
    const url = x.askedPath === undefined ? x.url : `http://target${op.serverPrefix}${x.askedPath}${new URL(x.url).search}`;
    const { applied, breaks } = judgeRelations(op, relations, { url, requestBody: x.requestBody, status: x.status, body });
    return { applied, breaks: breaks.map(({ message, pointer }) => ({ message, pointer })) };
  }
}
