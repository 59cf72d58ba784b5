// Judges one HTTP response against the document: status documented, content type documented, body valid.
// `responseProblems` is the strict reading; `judgeResponse` applies the deviation policy on top of it: what
// production nodes send where it bends the letter (null for an optional property, a plain-text 404 from an
// HTTP layer, properties a later release line added, a refusal of an operation whose document lists no client
// error, an error in the shape of the operation's `default` answer where its status names another media type)
// is named apart and never counts as a break.
import { parseJson, resolvePointer } from '../common/json.ts';
import type { CompiledSpec } from './compile-spec.ts';
import { findMediaType, findResponse, type OperationSpec } from './operation-catalog.ts';
import { formatIssues, type SchemaValidators, type ValidationIssue, type ValidationResult } from './schema-validators.ts';

export interface ObservedResponse {
  status: number;
  contentType: string | undefined;
  text: string;
  /** The body's JSON value (undefined: no JSON), where the caller reads it too: the text is parsed once. */
  parsed?: () => unknown;
}

/** Problems with the response ([] when it conforms to the document). */
export function responseProblems(spec: CompiledSpec, operationId: string, res: ObservedResponse): string[] {
  return judgeResponse(spec, operationId, res, { strict: true }).problems;
}

export interface AnswerPolicy {
  /** The letter of the document only: nothing tolerated. */
  strict?: boolean;
  /** Properties the target's release line predates: their absence is not applicable, not a break. */
  notRequired?: readonly string[];
}

export interface ResponseJudgement {
  /** Breaks of the document ([] when it conforms under the policy). */
  problems: string[];
  /** JSON pointer of the first break in the body, when it is one. */
  pointer?: string;
  /** Where the body sends null for a property its schema leaves optional (tolerated, reported apart). */
  nullForOptional: string[];
  /** Required properties that were missing and that the policy's release line predates. */
  notApplicable: string[];
  /** A 404 whose body is not the documented JSON: an HTTP layer's answer (tolerated, reported apart). */
  plainText404: boolean;
  /** False when the status is not documented for the operation. */
  statusDocumented: boolean;
  /**
   * An undocumented 400, or another 4xx of an operation whose document lists none (OpenAPI does not ask a
   * document to list every error): tolerated, the refusal is the node's to choose. A plain-text 404 is left to
   * the rules of 404s.
   */
  undocumentedRefusal: boolean;
  /** An error whose status names another media type, sent in the shape of the operation's `default` answer. */
  errorInDefaultShape: boolean;
  /** True when a JSON body was validated against its schema (whatever the outcome). */
  bodyJudged: boolean;
}

export const NOTHING_JUDGED: Readonly<ResponseJudgement> = {
  problems: [],
  nullForOptional: [],
  notApplicable: [],
  plainText404: false,
  statusDocumented: true,
  undocumentedRefusal: false,
  errorInDefaultShape: false,
  bodyJudged: false,
};
const clean = (): ResponseJudgement => ({ ...NOTHING_JUDGED });

export function judgeResponse(spec: CompiledSpec, operationId: string, res: ObservedResponse, policy: AnswerPolicy = {}): ResponseJudgement {
  const verdict = clean();
  const op = spec.catalog.byId.get(operationId);
  if (!op) return { ...verdict, problems: [`no operation ${operationId} in ${spec.loaded.name}`] };
  const documented = findResponse(op, res.status);
  if (!documented && !policy.strict && refusalLeftOpen(op, res)) return { ...verdict, statusDocumented: false, undocumentedRefusal: true };
  if (!documented)
    return {
      ...verdict,
      statusDocumented: false,
      problems: [`status ${res.status} is not documented for ${operationId} (documented: ${op.responses.map((r) => r.status).join(', ')})`],
    };
  if (documented.content.length === 0) return verdict;
  const media = findMediaType(documented, res.contentType);
  const plain404 = () => !policy.strict && res.status === 404 && documented.content.every((m) => /json/i.test(m.contentType));
  if (!media) {
    if (plain404()) return { ...verdict, plainText404: true };
    if (!policy.strict && res.status >= 400 && inDefaultShape(spec, op, res)) return { ...verdict, errorInDefaultShape: true, bodyJudged: true };
    return {
      ...verdict,
      problems: [
        `content type ${res.contentType ?? '(none)'} is not documented for ${operationId} ${documented.status} (documented: ${documented.content.map((m) => m.contentType).join(', ')})`,
      ],
    };
  }
  if (!media.schemaPointer || !/json/i.test(media.contentType)) return verdict;
  const body = res.parsed ? res.parsed() : parseJson(res.text);
  if (body === undefined) {
    if (plain404()) return { ...verdict, plainText404: true };
    return { ...verdict, problems: [`body of ${operationId} ${res.status} is not JSON: ${JSON.stringify(res.text.slice(0, 120))}`] };
  }
  verdict.bodyJudged = true;
  return { ...verdict, ...judgeValue(spec.validators, media.schemaPointer, body, policy, `body of ${operationId} ${res.status}`) };
}

export interface ValueJudgement {
  /** Breaks of the schema ([] when the value conforms under the policy). */
  problems: string[];
  /** JSON pointer of the first break, when there is one. */
  pointer?: string;
  /** Where the value has null for a property its schema leaves optional (tolerated, reported apart). */
  nullForOptional: string[];
  /** Required properties that were missing and that the policy's release line predates. */
  notApplicable: string[];
}

/**
 * One JSON value (an answer's body, a WebSocket message) against the schema at `schemaPointer`, under the
 * deviation policy; `what` names the value in the problem ("body of getUpdates 200").
 */
export function judgeValue(validators: SchemaValidators, schemaPointer: string, body: unknown, policy: AnswerPolicy, what: string): ValueJudgement {
  const verdict: ValueJudgement = { problems: [], nullForOptional: [], notApplicable: [] };
  const broken = (r: ValidationResult): ValueJudgement => ({
    ...verdict,
    problems: [`${what} violates the schema: ${formatIssues(r)}`],
    pointer: r.issues[0]?.pointer,
  });
  const strict = validators.validate(schemaPointer, body);
  if (strict.valid) return verdict;
  if (policy.strict) return broken(strict);
  // The release line first: what it predates is not applicable; what remains is judged on.
  const notRequired = policy.notRequired ?? [];
  // The unreduced issues, as before union errors were reduced: the tolerated lists read every branch.
  const all = (r: ValidationResult) => r.unreduced ?? r.issues;
  const missing = all(strict).filter((i) => i.keyword === 'required' && notRequired.some((p) => i.message.endsWith(`'${p}'`)));
  const lined = notRequired.length ? validators.variant({ notRequired }).validate(schemaPointer, body) : strict;
  const notApplicable = [...new Set(missing.map((i) => /'([^']+)'$/.exec(i.message)![1]!))];
  if (lined.valid) return { ...verdict, notApplicable };
  const tolerant = validators.variant({ notRequired, nullForOptional: true }).validate(schemaPointer, body);
  // Named by the letter of the document, leaving out the nulls beside the break (they are not the break).
  if (!tolerant.valid) {
    const notNull = (i: ValidationIssue) => resolvePointer(body, i.pointer) !== null;
    const issues = lined.issues.filter(notNull);
    const unreduced = lined.unreduced?.filter(notNull);
    return { ...broken(issues.length ? { valid: false, issues, unreduced } : tolerant), notApplicable };
  }
  const nulls = [
    ...new Set(
      all(lined)
        .map((i) => i.pointer)
        .filter((p) => resolvePointer(body, p) === null),
    ),
  ];
  return { ...verdict, notApplicable, nullForOptional: nulls };
}

const isClientError = (status: string) => /^4(\d\d|XX)$/i.test(status);

/** Whether an undocumented answer is a refusal the document leaves open (see `undocumentedRefusal`). */
export function refusalLeftOpen(op: OperationSpec, res: ObservedResponse): boolean {
  if (res.status < 400 || res.status >= 500) return false;
  // 400 is any HTTP server's answer to input it cannot read, listed or not; another 4xx is the node's choice
  // only where the document lists none.
  if (res.status !== 400 && op.responses.some((r) => isClientError(r.status))) return false;
  if (res.status !== 404) return true;
  // A 404 in JSON is the handler's ("no such round"); in plain text it may be an HTTP layer's (not served).
  try {
    JSON.parse(res.text);
    return /json/i.test(res.contentType ?? '');
  } catch {
    return false;
  }
}

/** Whether an error answer is the operation's documented `default` answer, media type and body. */
function inDefaultShape(spec: CompiledSpec, op: OperationSpec, res: ObservedResponse): boolean {
  const fallback = op.responses.find((r) => r.status === 'default');
  const media = fallback && findMediaType(fallback, res.contentType);
  if (!media?.schemaPointer || !/json/i.test(media.contentType)) return false;
  try {
    return spec.validators.validate(media.schemaPointer, JSON.parse(res.text)).valid;
  } catch {
    return false;
  }
}
