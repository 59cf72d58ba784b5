// The one assertion object of every interface: what a check expects of one answer. Each broken expectation
// fails the check with that exchange (and, where given, the JSON pointer of the offending value) as its
// evidence, so no check builds an {exchange, pointer} pair by hand.
import type { Json } from '../common/json.ts';
import { isObject } from '../common/json.ts';
import { isSummary, type ExchangeSummary } from './transport/evidence.ts';
import { bodyTooDeep, describeAnswer, tooDeep, tooLarge, type Exchange } from './transport/http.ts';

export interface AnswerExpectation {
  /** Fails unless the answer has this status (or one of these). */
  status(status: number | readonly number[]): AnswerExpectation;
  /** Fails unless the answer's media type (its content type without parameters) is this one. */
  contentType(mediaType: string): AnswerExpectation;
  /** The parsed JSON body; fails on no answer, a cut or too deeply nested body, or one that is not JSON. */
  json<T = Json>(): T;
  /** The JSON body, which must be an object. */
  object(): Record<string, Json>;
  /** The JSON body, which must be an array. */
  array(): Json[];
  /**
   * The body of an error answer, which must be a JSON object with a string `field` (`shape` names the
   * interface's error body in the message, e.g. "the wallet's error body is {error: string}").
   */
  errorBody(field: string, shape: string): Record<string, Json>;
  /** Not judged unless the status is one of these: `what` was answered otherwise (that answer is the cause). */
  skipUnless(statuses: readonly number[], what: string): AnswerExpectation;
  /** A broken rule: this answer is the evidence, `pointer` the offending value in its body. */
  fail(message: string, pointer?: string): never;
  /** Not judged, for `reason`: this answer made it so. */
  skip(reason: string): never;
}

/** How a check ends: the context's fail and skip (evidence attached by the context). */
export interface Verdicts {
  fail(message: string, evidence: { exchange: Exchange | ExchangeSummary; pointer?: string }): never;
  skip(reason: string, evidence: { exchange?: Exchange }): never;
}

/**
 * `why`: what the request asked, named in every message (e.g. "the previous reward weight of sv1"). `cited`:
 * the answer, or (from a read of any transport) its evidence only, which a check can fail or skip with but
 * not look into. `handed`: the answer's body as the answer log parsed it (AnswerLog.takeParsed), if it did.
 */
export function expectAnswer(cited: Exchange | ExchangeSummary, end: Verdicts, why?: string, handed?: { value: unknown }): AnswerExpectation {
  const asked = why ? ` (${why})` : '';
  const fail = (message: string, pointer?: string): never => end.fail(message, pointer === undefined ? { exchange: cited } : { exchange: cited, pointer });
  if (isSummary(cited)) {
    const whole = (): never => {
      // A mistake of the suite, so the requirement ends in `error`.
      throw new Error('an expectation that looks into the answer was asked of its evidence only');
    };
    return {
      status: whole,
      contentType: whole,
      json: whole,
      object: whole,
      array: whole,
      errorBody: whole,
      skipUnless: whole,
      fail,
      skip: (reason) => end.skip(reason, {}),
    };
  }
  const x = cited;
  const answered = () => {
    if (x.status === 0) fail(`no answer: ${x.error}`);
  };
  const json = <T>(): T => {
    answered();
    // The start of a cut body may well parse ("{}" then megabytes of spaces): it is judged too large instead.
    if (x.truncated) fail(tooLarge(x));
    if (bodyTooDeep(x)) fail(tooDeep(x));
    // The value parsed for the answer's judgement, taken by the first read; later reads parse their own copy.
    const taken = handed?.value;
    handed = undefined;
    if (taken !== undefined) return taken as T;
    try {
      return JSON.parse(x.text) as T;
    } catch {
      const type = x.headers['content-type'];
      return fail(`response body is not JSON (status ${x.status}${x.text.length === 0 ? ', empty body' : ''}${type ? `, content type ${type}` : ''})`);
    }
  };
  const self: AnswerExpectation = {
    status(status) {
      const allowed: readonly number[] = typeof status === 'number' ? [status] : status;
      answered();
      if (!allowed.includes(x.status))
        fail(`expected status ${allowed.join(' or ')}${asked}, got ${x.status >= 300 && x.status < 400 ? describeAnswer(x) : x.status}`);
      return self;
    },
    contentType(mediaType) {
      answered();
      const given = x.headers['content-type'];
      const type = given?.split(';')[0]?.trim().toLowerCase();
      if (type !== mediaType.toLowerCase())
        fail(`expected content type ${mediaType}${asked}, got ${given === undefined ? 'none' : given} (status ${x.status})`);
      return self;
    },
    json,
    object() {
      const body = json<Json>();
      if (!isObject(body)) fail(why ? `expected a JSON object${asked}` : `the ${x.status} answer is not a JSON object`);
      return body;
    },
    array() {
      const body = json<Json>();
      if (!Array.isArray(body)) fail(why ? `expected a JSON array${asked}` : `the ${x.status} answer is not a JSON array`);
      return body;
    },
    errorBody(field, shape) {
      answered();
      if (x.truncated) fail(tooLarge(x));
      let body: unknown;
      try {
        body = JSON.parse(x.text);
      } catch {
        fail(`error answer ${x.status} has a body that is not JSON; ${shape}`);
      }
      if (!isObject(body)) return fail(`error answer ${x.status} is not a JSON object; ${shape}`);
      const value = body[field];
      if (typeof value !== 'string')
        fail(`error answer ${x.status} has ${value === undefined ? 'no' : `a non-string (${typeof value})`} "${field}" field; ${shape}`, `/${field}`);
      return body;
    },
    skipUnless(statuses, what) {
      if (!statuses.includes(x.status)) end.skip(`${what} was answered with ${describeAnswer(x)}`, { exchange: x });
      return self;
    },
    fail,
    skip: (reason) => end.skip(reason, { exchange: x }),
  };
  return self;
}
