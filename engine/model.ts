// The requirement record: one rule of the description, stated once. The runner, the report, the fault
// catalog's expectations and the docs are all derived from these records.
import type fc from 'fast-check';
import type { Json } from '../common/json.ts';
import type { GenericCheck, InterfaceName, RequirementKind } from '../common/vocabulary.ts';
import type { AnswerPolicy, CompiledChannels, CompiledSpec } from '../generators/index.ts';
import type { AnswerProjection } from './answers/answer-projection.ts';
import type { Fixtures, FixtureName } from './fixtures.ts';
import type { ExchangeSummary } from './transport/evidence.ts';
import type { Client, Exchange } from './transport/http.ts';
import type { AnswerExpectation } from './expect-answer.ts';

export type { ExchangeSummary };

/**
 * An exchange a check can cite as evidence, whatever carried it: as its transport returned it (summarised
 * only once cited: most answers never are) or summarised already (as the answer log keeps them). A second
 * transport adds its exchange here, and its summary to ExchangeSummary.
 */
export type Citable = Exchange | ExchangeSummary;

export type { GenericCheck, InterfaceName, RequirementKind };
export type Level = 'MUST' | 'SHOULD';

export interface Requirement {
  /** Stable id, e.g. SCAN-HOLDINGS-PAGING-COMPLETE. Never reused for another rule. */
  id: string;
  /** rule: a record of the description; generic: derived from an OpenAPI document (see `probe`). */
  kind: RequirementKind;
  /** MUST for what the description states as a rule, SHOULD for advice. */
  level: Level;
  interface: InterfaceName;
  /** operationIds of the documents the check calls. */
  operations: string[];
  /**
   * The numbers of the description's sentences it enforces (description/, e.g. "C.holdings-v1.3"): the
   * traceability table's links. A generic requirement cites those its probe judges of a built-in operation.
   */
  cites: string[];
  /** Section of the description: for a rule, the headings of the sentences it cites; for a generic one, its operation's. */
  section: string;
  /** What it enforces: for a rule, the texts of the sentences it cites; for a generic one, what its probe judges. */
  sentence: string;
  /** True when the check changes the target's state (runs only with mutations allowed). */
  mutates: boolean;
  /**
   * Whether the check needs the target to itself. Unset: when it changes the target (`mutates`). True for one
   * that changes nothing but times answers or reads state concurrent reads would move; false for one that may
   * write yet changes nothing on a conformant target (requests the target must refuse).
   */
  exclusive?: boolean;
  /** Fixtures the check needs; any missing -> skipped with the reason. */
  needs: FixtureName[];
  tags?: string[];
  /** Which of the document-derived checks a generic requirement is; absent for rules. */
  probe?: GenericCheck;
  /**
   * 'review': runs after every other requirement of the run, from what the run's checks received (the answer
   * log); absent: in the order given.
   */
  phase?: 'review';
  /**
   * Runs once every requirement has run, on a requirement that passed (or was skipped for budget or data):
   * judges what the other checks received (the answer log); a failure here is the requirement's result.
   */
  reviewAnswers?(ctx: CheckContext): void;
  /**
   * The operation (operationId of the built-in document) this requirement is the positive requirement of: it
   * sends the operation a request a conformant node must accept, built from discovered or self-created data
   * (never random), and a refusal fails it. Its pass confirms the operation (reporting/coverage.ts): one record
   * per operation of the built-in documents.
   */
  confirms?: string;
  /**
   * The variants (x-cn-variants of its operations' documents) the rule does not apply to, and why: an axis
   * whose every value is left out (`{ 'record-type': 'why' }`), or single values (`{ 'record-type': {
   * reassignment: 'why' } }`). Every other value of an axis of an operation it calls is one its check must
   * exercise (test/suites/detection.test.ts observes which it did, on its clean run). The axis `version` names
   * the versions of a path (x-cn-version-of) the rule leaves out, by operationId.
   */
  variants?: Readonly<Record<string, string | Readonly<Record<string, string>>>>;
  /**
   * The WebSocket channels (paths, e.g. /v2/updates) the check reads: a run told not to open them
   * (--skip-websocket) does not judge it.
   */
  channels?: string[];
  /**
   * 'websocket': the update stream reads of its check go over the ledger's WebSocket channel, not HTTP (a
   * twin of the HTTP rule `twinOf`: the same check, judging the other transport; see engine/requirement.ts).
   */
  transport?: 'websocket';
  /** The rule whose check a WebSocket twin runs (its id without the -WS suffix). */
  twinOf?: string;
  /** The file that defines the record, relative to the repository root (e.g. requirements/scan/ans.ts). */
  definedIn: string;
  check(ctx: CheckContext): Promise<void>;
}

/** Evidence of a failed check: enough to reproduce it by hand. */
export interface Evidence {
  exchange?: ExchangeSummary;
  /** JSON pointer of the offending value in the response body. */
  pointer?: string;
  /** fast-check seed and path of a failing property, with the counterexample. */
  property?: { seed: number; path?: string; counterexample: string; runs: number };
}

/** Thrown by ctx.fail(): the target broke the rule. */
export class CheckFailure extends Error {
  constructor(
    message: string,
    readonly evidence: Evidence = {},
  ) {
    super(message);
    this.name = 'CheckFailure';
  }
}

/**
 * The answer that made a check skip: one the check needed and the target refused or answered unusably. The
 * operation it called (absent when no loaded document has it) and its status (0: no answer) tell the run
 * whether a failed requirement of the same operation explains the skip (see engine/dependent-skips.ts).
 */
export interface SkipCause {
  operation?: string;
  status: number;
  exchange: ExchangeSummary;
}

/** Thrown by ctx.skip(): the rule could not be checked on this target, for a stated reason. */
export class CheckSkipped extends Error {
  constructor(
    readonly reason: string,
    readonly answer?: SkipCause,
  ) {
    super(reason);
    this.name = 'CheckSkipped';
  }
}

/**
 * A mistake of the suite found while a check runs (an operation no loaded document has): never a check
 * failure, so it ends as the requirement's `error`, not as the target's failure.
 */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}

/**
 * Thrown by ctx.unsupported(): the target does not serve the operation the rule needs (404, 405 or 501 to a
 * valid request). Not a failure and not a skip for want of data: the operation is absent, and the verdict
 * cannot say the rule holds.
 */
export class CheckUnsupported extends Error {
  constructor(
    readonly reason: string,
    readonly evidence: Evidence = {},
    /** The operation not served (operationId), when the exchange that showed it called one of the documents. */
    readonly operation?: string,
    /** The answer cannot be the operation's own (engine/served.ts certainlyAbsent): no handler is there. */
    readonly certain = false,
  ) {
    super(reason);
    this.name = 'CheckUnsupported';
  }
}

/**
 * Thrown by ctx.notApplicable(): the rule does not apply to the release the node states (an operation the
 * description dates after it). Not a failure and not missing data: nothing of that release was left unjudged.
 */
export class CheckNotApplicable extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'CheckNotApplicable';
  }
}

/** A release a node states, and the request that asked it. */
export interface StatedRelease {
  version: string;
  request: string;
}

/** The fixtures a check reads: those its record `needs` are present (the engine skips the check otherwise). */
export type FixturesWith<K extends FixtureName> = Fixtures & { readonly [P in K]-?: NonNullable<Fixtures[P]> };

/** `K`: the fixtures the check's record needs, which its `fixtures` then hold (see `rule` in ./requirement.ts). */
export interface CheckContext<K extends FixtureName = never> {
  readonly fixtures: FixturesWith<K>;
  /** Clients of the three interfaces (absent interfaces never reach a check: it is skipped first). */
  readonly ledger: Client;
  readonly wallet: Client;
  readonly scan: Client;
  spec(name: InterfaceName): CompiledSpec;
  /** The channel document (AsyncAPI) of an interface's WebSocket channels; a check without one loaded is skipped. */
  channelDocument(name: 'ledger'): CompiledChannels;
  /** The policy an interface's answers are judged under (the deviation policy at its node's release line). */
  answerPolicy(name: InterfaceName): AnswerPolicy;
  /** The environment variable holding `token` when it is one of the run's configured credentials. */
  credentialVariable(token: string): string | undefined;
  /** Which transport the check's reads of the update stream take: HTTP, or the WebSocket channel for a twin (Requirement.transport). */
  readonly transport: 'http' | 'websocket';
  /** Property-test settings of the run. */
  readonly seed: number;
  /** Names what the run creates on the target: tracking ids start `cnc-<run id>-`. */
  readonly runId: string;
  readonly runs: number;
  readonly allowMutations: boolean;
  /** Bounds of every page walk. */
  readonly maxPages: number;
  /**
   * What the checks of this run share (answers that never change, page walks): the value kept under `key`
   * (starting with the name of what keeps it), made by `make` on first use; its answers belong to no one
   * check alone. `forget` drops it (e.g. a read without an answer, which a later check asks again).
   */
  shared<T>(key: string, make: (forget: () => void) => T): T;
  /**
   * What the run's answers showed as a whole (see engine/answers/answer-projection.ts): for a review, once
   * every other check has run; any other check asking for it is a mistake of the suite.
   */
  readonly answers: AnswerProjection;

  /** A broken rule; the evidence is an exchange of this check or one the answer log kept (a summary). */
  fail(message: string, evidence?: { exchange?: Citable; pointer?: string }): never;
  /**
   * Not judged, for `reason`. `exchange`: the answer that made it so, when the target refused or answered
   * unusably a request the check needed (an error status, no answer, a body it cannot use); never for an
   * answer that is the target's right (a list limit's 413, the credentials' 401 or 403).
   */
  skip(reason: string, evidence?: { exchange?: Exchange }): never;
  /** The target does not serve the operation (see CheckUnsupported); the exchange that showed it is the evidence. */
  unsupported(reason: string, evidence?: { exchange?: Exchange }): never;
  /** The rule does not apply to the release the node states (see CheckNotApplicable). */
  notApplicable(reason: string): never;
  /** The release an interface's node states (GET /v2/version, GET /version), when it states one. */
  release(name: InterfaceName): StatedRelease | undefined;
  /** Why the operation is not of the release its node states (the description dates it later), or undefined. */
  notOfRelease(operationId: string): string | undefined;
  /**
   * Fails unless the response is documented for the operation and its body is valid against the schema, under
   * the deviation policy: what it tolerates (null for an optional property, a plain-text 404, properties the
   * target's release line predates) goes to the answer log, for the SHOULD requirements that report it.
   */
  conforms(operationId: string, exchange: Exchange, spec?: InterfaceName): void;
  /**
   * The answer to a positive request (`what` names what was asked, e.g. "the package GET /v2/packages lists
   * first"): an answer saying the operation is not served makes the check unsupported; a 401 or 403 skips it
   * (the run's credentials may not do this, which is no failure of the node); any other refusal fails it,
   * naming the operation; an accepted answer must be a documented 2xx with a valid body. Returns the JSON body
   * (undefined for a body that is not JSON, e.g. bytes).
   */
  accepted(exchange: Exchange, what: string): Json | undefined;
  /**
   * Names what the check created on the target and what became of it ("transaction 1220... of command
   * cnc-s1-...-x: an Iou created and archived in it"), for the report's account of what a run left behind.
   */
  created(what: string): void;
  /**
   * What the check expects of one answer (status, content type, JSON object or array, error body), each
   * broken expectation a failure with this exchange as evidence; `why` names what was asked in the messages.
   */
  expect(exchange: Citable, why?: string): AnswerExpectation;
  /**
   * Runs a fast-check property with the run's seed; a counterexample fails the check with seed and path.
   * `examples` are tried first, whatever the seed: the case that holds every kind the data showed (the whole
   * sampled window, say), which drawn cases reach only by chance.
   */
  property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, options?: { runs?: number; examples?: readonly T[] }): Promise<void>;
}
