// What a node answered to a read whose answers are not compared field by field (another status than the
// other node's, or no answer): the exchange as the run's evidence keeps it (the body's start, and a curl line
// that reproduces the request as pasted, the token named by its variable), and why a node refused, in a line.
import { isObject, parseJson } from '../../common/json.ts';
import type { HttpExchangeSummary } from '../../engine/transport/evidence.ts';
import { describeAnswer, summarise, type Exchange } from '../../engine/transport/http.ts';

export interface NodeAnswer extends HttpExchangeSummary {
  /** A JsCantonError's code: refusals of one route with another code have another cause. */
  code?: string;
  /** Why the node refused, in one line: a JsCantonError's code and cause, an error message, a text body's start. */
  refusal?: string;
}

/** Characters of a refusal's line (the body's excerpt keeps more). */
const REFUSAL_CHARS = 300;

const oneLine = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > REFUSAL_CHARS ? `${line.slice(0, REFUSAL_CHARS)}…` : line;
};

/** A JSON error body's reason: JsCantonError (code and cause), scan's {error}, or a {message}. */
function reasonOf(body: unknown): { code?: string; refusal: string } | undefined {
  if (!isObject(body)) return undefined;
  if (typeof body.code === 'string') return { code: body.code, refusal: typeof body.cause === 'string' ? `${body.code}: ${body.cause}` : body.code };
  for (const field of ['error', 'message', 'cause']) if (typeof body[field] === 'string') return { refusal: body[field] as string };
  return undefined;
}

export function nodeAnswer(x: Exchange): NodeAnswer {
  const evidence = summarise(x);
  if (x.status >= 200 && x.status < 300) return evidence;
  if (x.status === 0 || x.status < 400 || x.truncated) return { ...evidence, refusal: oneLine(describeAnswer(x)) };
  const reason = reasonOf(parseJson(x.text));
  if (reason) return { ...evidence, ...(reason.code ? { code: reason.code } : {}), refusal: oneLine(reason.refusal) };
  return { ...evidence, refusal: oneLine(x.text) || '(empty body)' };
}
