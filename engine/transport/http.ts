// The one way checks talk to a target: every request has a timeout, every body read has a size bound,
// network failures come back as data (status 0) rather than exceptions, and every exchange can be
// summarised as evidence with secrets redacted and a curl line that reproduces it.
import { request, type Dispatcher } from 'undici';

/** An exchange as evidence keeps it: the request, an excerpt of the answer and the curl line that reproduces it. */
export interface ExchangeSummary {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; bodyExcerpt: string; bodyBytes: number };
  error?: string;
  curl: string;
  durationMs: number;
}

export interface Credentials {
  bearer?: string;
  /** API key of the ledger's apiKeyAuth scheme, sent in Sec-WebSocket-Protocol. */
  apiKey?: string;
}

/**
 * Names of the environment variables that hold the configured credentials. Evidence and curl lines show
 * `$NAME` in their place, so a curl line runs as pasted once the variable is exported and never carries
 * the secret itself.
 */
export interface CredentialVariables {
  bearer?: string;
  apiKey?: string;
}

export interface ClientConfig {
  /** Scheme, host, port and any base path, without the interface prefix. */
  origin: string;
  /** Interface prefix ("/api/scan", "/api/validator" or "" for the ledger). */
  prefix: string;
  credentials: Credentials;
  /** Where evidence says the credentials come from (absent: shown as ***). */
  credentialVariables?: CredentialVariables;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Shared request budget of the run, and its pace (minimum milliseconds between requests). */
  budget: { remaining: number; intervalMs?: number; nextAt?: number };
  /** Every answered request of the run (method, path without query, status), for the coverage table. */
  seen?: Array<{ method: string; path: string; status: number }>;
  /** Requests in flight to this interface at most (unset: no bound); the timeout starts once one is sent. */
  maxInFlight?: number;
}

export type Query = Record<string, string | number | boolean | Array<string | number> | undefined>;

export interface RequestOptions {
  query?: Query;
  /** JSON body (serialised), or `rawBody` sent as is. */
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /**
   * 'default' sends the configured credentials, 'none' sends none, or an explicit bearer token. An explicit
   * token is shown in evidence as sent (a forged or broken token is no secret and only reproduces as sent),
   * unless `variable` names the environment variable that holds it (a real token of another user).
   */
  auth?: 'default' | 'none' | { bearer: string; variable?: string };
  contentType?: string;
  /** Not a check's request (e.g. the reachability probe): not counted against the run's budget. */
  unbudgeted?: boolean;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The request headers as evidence shows them: configured secrets as `$VARIABLE` references, or ***. */
  shownHeaders?: Record<string, string>;
  requestBody?: string;
  /** 0 when no HTTP answer arrived (see `error`). */
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  /**
   * True when the body exceeded the size bound: then `bytes` and `text` hold only its first EXCERPT_BYTES
   * (evidence), never the rest, and the body must be judged too large rather than parsed.
   */
  truncated: boolean;
  /** Body bytes received (for a truncated body: at least this many, or its declared content-length). */
  received: number;
  error?: string;
  /** Why no answer came, as a code: TIMEOUT, BODY_TIMEOUT, or the network error's (ECONNREFUSED, ECONNRESET...). */
  errorCode?: string;
  durationMs: number;
}

const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'sec-websocket-protocol', 'cookie', 'x-api-key']);

/** Bytes of a body kept as evidence (and all that is kept of a body beyond the bound). */
export const EXCERPT_BYTES = 2048;

export class BudgetExhausted extends Error {}

/**
 * The HTTP client refused to send a request the suite built (a header value it cannot carry, a URL it
 * cannot parse): the suite's own problem, never an answer of the target, so it is thrown, not returned as
 * an exchange without an answer (which the checks would judge as the node's silence).
 */
export class RequestNotSent extends Error {}

/** Error codes of a request refused before it left the process (undici's and Node's argument checks). */
function notSent(code: string | undefined): boolean {
  return code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED' || (code?.startsWith('ERR_INVALID') ?? false);
}

/**
 * Timeouts in a row after which a client stops sending: a target that answers nothing would otherwise cost
 * every remaining request its full timeout (10 s x thousands). What is not sent fails as unanswered.
 */
export const STALLED_AFTER = 8;

export class Client {
  /** Requests in a row that got no answer within the timeout. */
  private timeoutsInARow = 0;
  /** Whether any request got an answer yet. */
  private answered = false;
  /** The end of the last request sent one at a time, before the first answer (see request). */
  private oneAtATime: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** Requests waiting for one in flight to end (maxInFlight), first come first served. */
  private readonly waiting: Array<() => void> = [];

  constructor(readonly config: ClientConfig) {}

  get base(): string {
    return this.config.origin + this.config.prefix;
  }

  /**
   * The same client (budget, pace, stall count and all) telling `onAnswer` of every exchange it makes, with
   * the path as sent (relative to the interface prefix, without the query) and how many requests the view
   * sent before it (the order they were sent in, whatever order they are answered in), or the count `step`
   * gives when the caller counts its steps itself.
   */
  observed(onAnswer: (x: Exchange, path: string, sent: number) => void, step?: () => number): Client {
    const view = Object.create(this) as Client;
    let sent = 0;
    view.request = async (method, path, options) => {
      const n = step ? step() : sent++;
      const x = await this.request(method, path, options);
      onAnswer(x, path, n);
      return x;
    };
    return view;
  }

  get(path: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('POST', path, body === undefined ? options : { ...options, body });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    if (!options.unbudgeted) {
      if (this.config.budget.remaining <= 0) throw new BudgetExhausted("the run's request budget (--max-requests) is used up");
      this.config.budget.remaining--;
    }
    // Until the target has answered, requests go one at a time: concurrent checks would otherwise each spend a
    // timeout on a target that answers nothing before it counts as stalled. (Not after a later timeout: one
    // slow answer would then hold up every check behind it.)
    let release = () => {};
    if (!this.answered) {
      const previous = this.oneAtATime;
      this.oneAtATime = new Promise((r) => (release = r));
      await previous;
    }
    const done = await this.slot();
    try {
      return await this.send(method, path, options);
    } finally {
      done();
      release();
    }
  }

  /** Waits until fewer than maxInFlight requests are in flight; what ends this one. */
  private async slot(): Promise<() => void> {
    const max = this.config.maxInFlight;
    if (!max) return () => {};
    while (this.inFlight >= max) await new Promise<void>((r) => this.waiting.push(r));
    this.inFlight++;
    return () => {
      this.inFlight--;
      this.waiting.shift()?.();
    };
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<Exchange> {
    await pace(this.config.budget);
    const url = this.base + path + queryString(options.query);
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*', ...options.headers };
    const shown: Record<string, string> = {};
    const reference = (variable: string | undefined) => (variable ? `$${variable}` : '***');
    const auth = options.auth ?? 'default';
    const { credentials, credentialVariables: vars = {} } = this.config;
    if (auth === 'default') {
      if (credentials.bearer) {
        headers.authorization = `Bearer ${credentials.bearer}`;
        shown.authorization = `Bearer ${reference(vars.bearer)}`;
      } else if (credentials.apiKey) {
        headers['sec-websocket-protocol'] = `jwt.token.${credentials.apiKey}`;
        shown['sec-websocket-protocol'] = `jwt.token.${reference(vars.apiKey)}`;
      }
    } else if (auth !== 'none') {
      headers.authorization = `Bearer ${auth.bearer}`;
      shown.authorization = auth.variable ? `Bearer $${auth.variable}` : headers.authorization;
    }
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = options.contentType ?? 'application/json';

    const started = performance.now();
    const shownHeaders = { ...redactHeaders(headers), ...shown };
    const base = {
      method,
      url,
      requestHeaders: headers,
      shownHeaders,
      requestBody: typeof body === 'string' ? body : body ? `<${body.length} bytes>` : undefined,
    };
    const millis = () => Math.round(performance.now() - started);
    const unanswered = { status: 0, headers: {}, bytes: Buffer.alloc(0), text: '', truncated: false, received: 0 };
    if (this.timeoutsInARow >= STALLED_AFTER) {
      const error = `not sent: the last ${STALLED_AFTER} requests to ${this.base} got no answer within ${this.config.timeoutMs} ms, so the target counts as stalled for the rest of the run`;
      return { ...base, ...unanswered, error, errorCode: 'STALLED', durationMs: 0 };
    }
    let status: number | undefined;
    const signal = AbortSignal.timeout(this.config.timeoutMs);
    try {
      // undici's request rather than fetch: the same client under fetch's WHATWG layer, which costs about a
      // third more per exchange (bench: suite overhead). It follows no redirect unless told to.
      const res = await request(url, { method: method as Dispatcher.HttpMethod, headers, body, signal });
      status = res.statusCode;
      const read = await readBounded(res, this.config.maxBodyBytes);
      this.timeoutsInARow = 0;
      this.answered = true;
      this.config.seen?.push({ method, path: new URL(url).pathname, status: res.statusCode });
      return { ...base, status: res.statusCode, headers: flatHeaders(res.headers), ...read, text: read.bytes.toString('utf8'), durationMs: millis() };
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string; message?: string } };
      const timedOut = signal.aborted;
      const code = err.code ?? err.cause?.code;
      if (!timedOut && status === undefined && notSent(code))
        throw new RequestNotSent(`the suite could not send ${method} ${this.config.prefix}${path}: ${err.message} (${code})`);
      // Headers arrived but the body stalled: say so, the status alone would read as an answer.
      const reason = timedOut
        ? status !== undefined
          ? `timed out after ${this.config.timeoutMs} ms reading the body of the ${status} answer (it never completed)`
          : `timed out after ${this.config.timeoutMs} ms`
        : `${err.message}${code && !err.message.includes(code) ? ` (${code})` : !code && err.cause?.message ? ` (${err.cause.message})` : ''}${status !== undefined ? ` while reading the body of the ${status} answer` : ''}`;
      const errorCode = timedOut ? (status !== undefined ? 'BODY_TIMEOUT' : 'TIMEOUT') : code;
      this.timeoutsInARow = timedOut ? this.timeoutsInARow + 1 : 0;
      return { ...base, ...unanswered, error: reason, errorCode, durationMs: millis() };
    }
  }
}

/** Header values as one string each (repeated headers joined as HTTP allows). */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Spaces requests at the run's rate; the slot is taken before waiting, so concurrent callers queue up. */
async function pace(budget: ClientConfig['budget']): Promise<void> {
  if (!budget.intervalMs) return;
  const now = Date.now();
  const at = Math.max(now, budget.nextAt ?? 0);
  budget.nextAt = at + budget.intervalMs;
  if (at > now) await new Promise((r) => setTimeout(r, at - now));
}

/**
 * Reads a body up to `max` bytes. A larger one (declared or found while reading) is cut: only its first
 * EXCERPT_BYTES are kept, so a huge answer costs at most `max` bytes while it is read and nothing after.
 */
async function readBounded(res: Dispatcher.ResponseData, max: number): Promise<{ bytes: Buffer; truncated: boolean; received: number }> {
  const declared = Number(res.headers['content-length'] ?? NaN);
  const limit = declared > max ? EXCERPT_BYTES : max;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.byteLength;
    if (size > limit) {
      res.body.destroy();
      return { bytes: Buffer.concat(chunks, Math.min(size, EXCERPT_BYTES)), truncated: true, received: Math.max(size, declared || 0) };
    }
  }
  if (declared > max) return { bytes: Buffer.concat(chunks, Math.min(size, EXCERPT_BYTES)), truncated: true, received: Math.max(size, declared) };
  return { bytes: Buffer.concat(chunks), truncated: false, received: size };
}

export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(item))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [
      k,
      SECRET_HEADERS.has(k.toLowerCase()) ? (k.toLowerCase() === 'authorization' ? v.replace(/^(\S+\s+).*$/, '$1***') : '***') : v,
    ]),
  );
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A reference to a credential variable, which the shell must expand: `$CN_CONFORMANCE_LEDGER_TOKEN`. */
const VARIABLE_REFERENCE = /\$[A-Z][A-Z0-9_]*$/;

/** Double quotes where the shell must expand a variable reference (the rest of such a value is plain text). */
const headerArgument = (text: string) => (VARIABLE_REFERENCE.test(text) && !/["\\`]/.test(text) ? `"${text}"` : shellQuote(text));

export function curlLine(x: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'shownHeaders'>): string {
  const parts = ['curl', '-sS', '-X', x.method, shellQuote(x.url)];
  for (const [k, v] of Object.entries(x.shownHeaders ?? redactHeaders(x.requestHeaders))) if (k !== 'accept') parts.push('-H', headerArgument(`${k}: ${v}`));
  if (x.requestBody !== undefined) parts.push('--data-raw', shellQuote(x.requestBody.length > 4000 ? excerpt(x.requestBody, 4000) + '...' : x.requestBody));
  return parts.join(' ');
}

/**
 * A copy of the start of a string. A plain slice may share the whole string's memory (V8 keeps slices as
 * views of their parent), so evidence kept until the report would pin every body it quotes.
 */
export function excerpt(text: string, max: number): string {
  return Buffer.from(text.slice(0, max), 'utf8').toString('utf8');
}

/**
 * Nesting of JSON values a body may have. The documents' records nest a few dozen levels at most; far deeper
 * text still parses, but every recursive walk of the value (JSON.stringify, schema validation) would overflow
 * the stack, so such a body is judged by its depth instead.
 */
export const MAX_JSON_DEPTH = 512;

/** True when the JSON text nests arrays and objects deeper than MAX_JSON_DEPTH (strings are skipped). */
export function nestedTooDeep(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export const tooDeep = (x: Exchange) => `the body of the ${x.status} answer nests JSON values more than ${MAX_JSON_DEPTH} levels deep`;

/** Why a body cut at the bound is not judged: its size. */
export const tooLarge = (x: Exchange) => `the body of the ${x.status} answer is larger than the bound of the run (at least ${x.received} bytes)`;

/** The answer in a few words, for reasons: a status with the body's start, a redirect with its target, or why none came. */
export function describeAnswer(x: Exchange): string {
  if (x.status === 0) return `no answer: ${x.error}`;
  if (x.status >= 300 && x.status < 400) return `a ${x.status} redirect to ${x.headers.location ?? '(no location)'} (redirects are not followed)`;
  if (x.truncated) return tooLarge(x);
  return `status ${x.status} ${excerpt(x.text, 200)}`.trimEnd();
}

export function summarise(x: Exchange): ExchangeSummary {
  return {
    request: {
      method: x.method,
      url: x.url,
      headers: x.shownHeaders ?? redactHeaders(x.requestHeaders),
      body: x.requestBody === undefined ? undefined : excerpt(x.requestBody, EXCERPT_BYTES),
    },
    response: x.status === 0 ? undefined : { status: x.status, headers: x.headers, bodyExcerpt: excerpt(x.text, EXCERPT_BYTES), bodyBytes: x.received },
    error: x.error,
    curl: curlLine(x),
    durationMs: x.durationMs,
  };
}
