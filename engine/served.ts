// Whether an answer shows that the target does not serve an operation at all (an older release, a node that
// leaves it out, a proxy in front): then a check that needs the operation reports `unsupported`, not a failure.
// 501 says so outright. A 404 says so unless it is a documented answer of the operation: a by-id
// lookup answers a documented 404 for an unknown id, while the HTTP layer in front of a node's handlers
// answers its own (text/plain "The requested resource could not be found." on real nodes). A 405 likewise:
// an HTTP layer's "method not allowed" is no operation there, but a 405 in the operation's documented error
// shape (the ledger's `default` JsCantonError) is the node's own refusal of a method the description names on
// that path: a node without the endpoint answers 404, so such a refusal is judged, not excused.
import { judgeResponse, responseProblems, type CompiledSpec, type OperationSpec } from '../generators/index.ts';
import type { Exchange } from './transport/http.ts';

/** Statuses that may mean "no such operation here". */
export const NOT_SERVED_STATUSES: ReadonlySet<number> = new Set([404, 405, 501]);

/**
 * Why `x` shows that the target does not serve `op` ("answered 405"), or undefined when it does not show it
 * (any other answer, or no answer at all).
 */
export function notServed(spec: CompiledSpec, op: OperationSpec, x: Exchange): string | undefined {
  if (x.status === 501) return `answered ${x.status}`;
  if (x.status === 405) return documentedAnswer(spec, op, x) ? undefined : `answered ${x.status}`;
  if (x.status !== 404) return undefined;
  // Judged under the deviation policy: a documented 404 that sends null for an optional property is still
  // the handler's answer; a plain-text one is the HTTP layer's.
  const answer = { status: x.status, contentType: x.headers['content-type'], text: x.text };
  const j = judgeResponse(spec, op.id, answer);
  // A 404 the document does not list is tolerated as a refusal once the operation shows it is served, but is
  // no proof of that: a router answers it for an unknown path too.
  const problem = j.plainText404 || j.undocumentedRefusal ? responseProblems(spec, op.id, answer)[0] : j.problems[0];
  return problem ? `answered 404, not a documented answer (${problem})` : undefined;
}

/** Whether `x` is an answer the operation documents by its status (or `default`), in a body that conforms. */
function documentedAnswer(spec: CompiledSpec, op: OperationSpec, x: Exchange): boolean {
  const j = judgeResponse(spec, op.id, { status: x.status, contentType: x.headers['content-type'], text: x.text });
  return j.statusDocumented && j.bodyJudged && j.problems.length === 0 && !j.plainText404;
}

/**
 * Whether an answer that shows `op` unserved (notServed) cannot be the operation's own: a 405, or a 404 of an
 * operation that documents none. A 404 of one that documents it may be its own "not found" in another body
 * (real nodes' handlers answer plain text too), and a 501 is a node's choice not to implement it.
 */
export const certainlyAbsent = (op: OperationSpec, x: Pick<Exchange, 'status'>) =>
  x.status === 405 || (x.status === 404 && !op.responses.some((r) => r.status === '404' || r.status === '4XX'));

/** The reason an unsupported result gives: which operation, and the answer that showed it. */
export const unsupportedReason = (op: OperationSpec, why: string, what = 'a valid request') =>
  `the target does not serve ${op.id} (${op.method.toUpperCase()} ${op.fullPath}): ${what} was ${why}`;
