// The CheckContext a requirement's check receives: clients, fixtures, specs and the assertion helpers
// that turn a broken rule into a CheckFailure with evidence.
import fc from 'fast-check';
import type { CompiledChannels, CompiledSpec, OperationSpec } from '../generators/index.ts';
import type { AnswerLog } from './answers/answer-log.ts';
import type { AnswerProjection } from './answers/answer-projection.ts';
import type { ExchangeRecord } from './exchange-record.ts';
import { missingFixtures, type FixtureName, type Fixtures } from './fixtures.ts';
import { sharedRead, sharing, type RunCache } from './run-cache.ts';
import { parseJson } from '../common/json.ts';
import { certainlyAbsent, notServed, unsupportedReason } from './served.ts';
import { expectAnswer } from './expect-answer.ts';
import { bodyTooDeep } from './transport/bounds.ts';
import { isSummary } from './transport/evidence.ts';
import { describeAnswer, summarise, tooDeep, tooLarge, type Client, type Exchange } from './transport/http.ts';
import { unservedByRelease, type StatedReleases } from './release-applicability.ts';
import {
  CheckFailure,
  CheckNotApplicable,
  CheckSkipped,
  CheckUnsupported,
  SuiteError,
  type CheckContext,
  type InterfaceName,
  type Requirement,
} from './model.ts';

export interface ContextParts {
  /** Requests answered during the run (for coverage); shared by all clients of the run. */
  seen?: Array<{ method: string; path: string; status: number }>;
  /** Every exchange of the run with who sent it, when the run keeps them (for a HAR file). */
  exchanges?: ExchangeRecord;
  /** The run's cache, shared by all its checks (see RunCache). */
  cache: RunCache;
  /** What every answer of the run showed, appended as judged (see AnswerLog). */
  answers: AnswerLog;
  fixtures: Fixtures;
  clients: Partial<Record<InterfaceName, Client>>;
  specs: Partial<Record<InterfaceName, CompiledSpec>>;
  seed: number;
  /** Names what the run creates on the target (tracking ids start `cnc-<run id>-`). */
  runId: string;
  runs: number;
  allowMutations: boolean;
  maxPages: number;
  /** The release each node states, read before the requirements (runner/node-versions.ts). */
  releases?: StatedReleases;
  /** Set when the run opens no WebSocket channel: why (e.g. "--skip-websocket: a gateway without upgrades"). */
  skipWebSocket?: string;
  /** The loaded channel documents (AsyncAPI) by interface: what the channels' messages are judged by. */
  channelDocuments?: Partial<Record<'ledger', CompiledChannels>>;
}

/**
 * The context as a check that needs these fixtures sees it, once they are all there (as the engine sees to
 * before it runs a check); a missing one throws, naming it.
 */
export function withFixtures<K extends FixtureName>(ctx: CheckContext, needs: readonly K[]): CheckContext<K> {
  const missing = missingFixtures(ctx.fixtures, needs);
  if (missing.length > 0) throw new SuiteError(`fixtures missing: ${missing.join(', ')}`);
  return ctx as CheckContext<K>;
}

/**
 * `requirement`: whose check the context serves. A rule's answers are judged by the answer log as they come
 * (a generic requirement judges its own answers, deliberately invalid requests included).
 */
export function makeCheckContext(
  parts: ContextParts,
  requirement?: Pick<Requirement, 'id' | 'kind' | 'transport'>,
  created: string[] = [],
  review?: AnswerProjection,
): CheckContext {
  const receivedBy = requirement?.id ?? 'a check';
  const views = new Map<InterfaceName, Client>();
  /** Each exchange's place among the check's steps (requests and shared reads asked for), for the answer log's order. */
  const places = new WeakMap<Exchange, number>();
  /** Each exchange's interface and path (relative to the interface prefix): which operation it called. */
  const calls = new WeakMap<Exchange, { iface: InterfaceName; path: string }>();
  let steps = 0;
  const step = () => steps++;
  /**
   * An answer showing an operation unserved that the release its node states does not have yet ends the
   * check there, whatever it would have made of the answer (a failed status, a skip for want of data): the
   * operation is absent by right, and the engine reports the requirement not applicable
   * (engine/release-applicability.ts). Observed first, so the answer log still has it.
   */
  const beyondRelease = (iface: InterfaceName, x: Exchange, path: string) => {
    const spec = parts.specs[iface];
    const op = spec && parts.answers.operationAt(iface, x.method, path);
    if (!op || unservedByRelease(op.id, parts.releases)?.applies !== false) return;
    const why = notServed(spec, op, x);
    if (why) throw new CheckUnsupported(unsupportedReason(op, why, 'a request'), { exchange: summarise(x) }, op.id);
  };
  const client = (name: InterfaceName): Client => {
    const c = parts.clients[name];
    if (!c) throw new CheckSkipped(`no ${name} URL given`);
    let view = views.get(name);
    if (!view)
      views.set(
        name,
        (view = c.observed((x, path, sent) => {
          places.set(x, sent);
          calls.set(x, { iface: name, path });
          const shared = sharedRead.getStore();
          if (shared) parts.answers.observeShared(name, shared, x, path);
          else if (requirement?.kind === 'rule') parts.answers.observe(name, receivedBy, x, path, sent);
          beyondRelease(name, x, path);
        }, step)),
      );
    return view;
  };
  /** The operation of the loaded documents an exchange called: by this check's clients, or a shared read's. */
  const operationOf = (x: Exchange) => {
    const call = calls.get(x);
    return call ? parts.answers.operationAt(call.iface, x.method, call.path) : operationAt(parts, x.method, x.url);
  };
  const ctx: CheckContext = {
    fixtures: parts.fixtures,
    get ledger() {
      return client('ledger');
    },
    get wallet() {
      return client('wallet');
    },
    get scan() {
      return client('scan');
    },
    spec(name) {
      const s = parts.specs[name];
      if (!s) throw new CheckSkipped(`no ${name} document loaded`);
      return s;
    },
    answerPolicy(name) {
      return parts.answers.policies[name] ?? {};
    },
    channelDocument(name) {
      const document = parts.channelDocuments?.[name];
      if (!document) throw new CheckSkipped(`no ${name} channel document loaded`);
      return document;
    },
    transport: requirement?.transport ?? 'http',
    seed: parts.seed,
    runId: parts.runId,
    runs: parts.runs,
    credentialVariable(token) {
      for (const c of Object.values(parts.clients)) {
        const { credentials, credentialVariables } = c.config;
        if (credentials.bearer === token && credentialVariables?.bearer) return credentialVariables.bearer;
      }
      return undefined;
    },
    allowMutations: parts.allowMutations,
    maxPages: parts.maxPages,
    shared: sharing(parts.cache, requirement && { id: receivedBy, step }),
    get answers() {
      if (!review) throw new SuiteError(`${receivedBy} asked for the run's answers before every check had run (only a review may)`);
      return review;
    },
    fail(message, evidence = {}): never {
      const x = evidence.exchange;
      throw new CheckFailure(message, { exchange: x ? (isSummary(x) ? x : summarise(x)) : undefined, pointer: evidence.pointer });
    },
    skip(reason, evidence = {}): never {
      const x = evidence.exchange;
      throw new CheckSkipped(reason, x && { operation: operationOf(x)?.id, status: x.status, exchange: summarise(x) });
    },
    unsupported(reason, evidence = {}): never {
      const x = evidence.exchange;
      const op = x && operationOf(x);
      throw new CheckUnsupported(reason, { exchange: x ? summarise(x) : undefined }, op?.id, !!op && certainlyAbsent(op, x!));
    },
    notApplicable(reason): never {
      throw new CheckNotApplicable(reason);
    },
    release(name) {
      return parts.releases?.[name];
    },
    notOfRelease(operationId) {
      const dated = unservedByRelease(operationId, parts.releases);
      return dated?.applies === false ? dated.reason : undefined;
    },
    conforms(operationId, x, spec) {
      if (x.status === 0) ctx.fail(`${operationId}: no answer: ${x.error}`, { exchange: x });
      if (x.truncated) ctx.fail(`${operationId}: ${tooLarge(x)}`, { exchange: x });
      if (bodyTooDeep(x)) ctx.fail(`${operationId}: ${tooDeep(x)}`, { exchange: x });
      const name = spec ?? specOf(parts.specs, operationId);
      ctx.spec(name);
      // The answer log would judge an unknown operation as a broken answer: the suite's mistake, not the target's.
      if (!parts.specs[name]!.catalog.byId.has(operationId)) throw new SuiteError(`operation ${operationId} is not in the loaded ${name} document`);
      const { problems } = parts.answers.judge(name, operationId, x, receivedBy, places.get(x));
      const redirect = x.status >= 300 && x.status < 400 ? ` (${describeAnswer(x)})` : '';
      if (problems.length > 0)
        ctx.fail(problems.join('; ') + redirect, { exchange: x, pointer: /^body .* violates the schema: (\S+)/.exec(problems[0]!)?.[1] });
    },
    accepted(x, what) {
      const call = calls.get(x);
      if (!call) throw new SuiteError(`accepted() was given an exchange the check's clients did not make (${x.method} ${x.url})`);
      const spec = parts.specs[call.iface];
      const op = operationOf(x);
      const named = op ? `${op.id} (${op.method.toUpperCase()} ${op.fullPath})` : `${x.method} ${call.path.split('?')[0]}`;
      if (x.status === 0) ctx.fail(`${named}: no answer to a valid request (${what}): ${x.error}`, { exchange: x });
      const why = spec && op ? notServed(spec, op, x) : undefined;
      if (why) ctx.unsupported(unsupportedReason(op!, why, `a valid request (${what})`), { exchange: x });
      // The run's credentials may lack the right (an admin's, another party's): not the node's failure.
      if (x.status === 401 || x.status === 403)
        ctx.skip(
          `${named} answered ${x.status} to a valid request (${what}): the run's credentials may not do this, so it was not judged; give a token with the rights for it`,
        );
      if (x.status < 200 || x.status >= 300) ctx.fail(`${named} refused a valid request (${what}): ${describeAnswer(x)}`, { exchange: x });
      if (op) ctx.conforms(op.id, x, call.iface);
      const handed = parts.answers.takeParsed(x);
      return handed ? handed.value : parseJson(x.text);
    },
    created(what) {
      created.push(what);
    },
    expect(x, why) {
      return expectAnswer(x, ctx, why, parts.answers.takeParsed(x));
    },
    async property(arbitrary, predicate, options = {}) {
      const runs = options.runs ?? parts.runs;
      const examples = (options.examples ?? []).map((e) => [e] as [typeof e]);
      const result = await fc.check(fc.asyncProperty(arbitrary, predicate), { seed: parts.seed, numRuns: runs, endOnFailure: true, examples });
      if (!result.failed) return;
      const error = result.errorInstance;
      // Running out of budget or data is not a counterexample, and an exception of the check itself (a bug
      // in the suite) is not one either: both go on as they are, only a broken rule becomes a failure.
      if (!(error instanceof CheckFailure)) throw error ?? new Error(`property failed without an exception (seed ${result.seed})`);
      throw new CheckFailure(error.message, {
        ...error.evidence,
        property: {
          seed: result.seed,
          path: result.counterexamplePath ?? undefined,
          counterexample: fc.stringify(result.counterexample).slice(0, 2000),
          runs: result.numRuns,
        },
      });
    },
  };
  return ctx;
}

function specOf(specs: ContextParts['specs'], operationId: string): InterfaceName {
  for (const [name, s] of Object.entries(specs)) if (s?.catalog.byId.has(operationId)) return name as InterfaceName;
  throw new SuiteError(`operation ${operationId} is in no loaded document`);
}

/**
 * The operation of the loaded documents a request of the run called, by its URL: for an exchange no client
 * of the asking check made (a shared read, a result's evidence). The longest base wins: interfaces may share
 * an origin.
 */
export function operationAt(parts: Pick<ContextParts, 'clients' | 'answers'>, method: string, url: string): OperationSpec | undefined {
  let best: { iface: InterfaceName; path: string; base: number } | undefined;
  for (const [iface, c] of Object.entries(parts.clients)) {
    const base = c?.base;
    if (base === undefined || !url.startsWith(base) || (best && best.base >= base.length)) continue;
    const path = url.slice(base.length).split('?')[0]!;
    if (path.startsWith('/')) best = { iface: iface as InterfaceName, path, base: base.length };
  }
  return best && parts.answers.operationAt(best.iface, method, best.path);
}

export type { Exchange };
