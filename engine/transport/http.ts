// The one way checks talk to a target over HTTP: every request has a timeout and waits its turn with the
// run's limits (limits.ts), every body read has a size bound (bounds.ts), network failures come back as data
// (status 0) rather than exceptions, and every exchange can be summarised as evidence with secrets redacted
// and a curl line that reproduces it (redaction.ts, evidence.ts).
import { request, type Dispatcher } from 'undici';
import { EXCERPT_BYTES, excerpt, MAX_JSON_DEPTH, nestedTooDeep, readBounded } from './bounds.ts';
import type { TlsSettings } from './dispatcher.ts';
import type { HttpExchangeSummary } from './evidence.ts';
import { type ChannelExchange, type ChannelOptions, readChannel } from './websocket.ts';
import { type Outcome, type RunLimits, STALLED_AFTER } from './limits.ts';
import type { BearerSource } from './oauth.ts';
import { type Auth, type Credentials, type CredentialVariables, credentialHeaders, curlLine, maskExtraHeaders, redactHeaders } from './redaction.ts';

// Names that lived here before the split, still importable from here: code written against the one-file
// client (the answer log, work on other branches) keeps compiling. New code imports them where they live.
export { BudgetExhausted, STALLED_AFTER } from './limits.ts';
export { bodyTooDeep, EXCERPT_BYTES, excerpt, MAX_JSON_DEPTH, nestedTooDeep } from './bounds.ts';
export { type Credentials, type CredentialVariables, curlLine, redactHeaders } from './redaction.ts';
export type { ExchangeSummary, HttpExchangeSummary } from './evidence.ts';

export interface ClientConfig {
  /** Scheme, host, port and any base path, without the interface prefix. */
  origin: string;
  /** Interface prefix ("/api/scan", "/api/validator" or "" for the ledger). */
  prefix: string;
  credentials: Credentials;
  /** Where evidence says the credentials come from (absent: shown as ***). */
  credentialVariables?: CredentialVariables;
  /** The bearer's source when it is fetched and renewed during the run (OAuth2): `credentials.bearer` reads its latest token. */
  bearerSource?: BearerSource;
  /** Headers the deployment needs on every request (names in lower case); evidence shows their values masked. */
  headers?: Record<string, string>;
  /** How requests reach the interface: its TLS settings and proxy (undici's global dispatcher when absent). */
  dispatcher?: Dispatcher;
  /** The interface's TLS settings, for the transports undici does not carry (WebSocket channels). */
  tls?: TlsSettings;
  timeoutMs: number;
  maxBodyBytes: number;
  /** The run's budget, pace and bounds per interface, shared with every other client and transport of the run. */
  limits: RunLimits;
  /** The interface's key in the limits (default: the base URL); another transport to the interface uses the same. */
  lane?: string;
  /** Every answered request of the run (method, path without query, status), for the coverage table. */
  seen?: Array<{ method: string; path: string; status: number }>;
  /** Told of every exchange the client made, answered or not, once it ended (the run's record, see engine/exchange-record.ts). */
  onExchange?: (x: Exchange) => void;
}

export type Query = Record<string, string | number | boolean | Array<string | number> | undefined>;

export interface RequestOptions {
  query?: Query;
  /** JSON body (serialised), or `rawBody` sent as is. */
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Which credentials to send (see Auth): the configured ones unless told. */
  auth?: Auth;
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
  /** Why no answer came, as a code: TIMEOUT, BODY_TIMEOUT, STALLED, or the network error's (ECONNREFUSED, ECONNRESET...). */
  errorCode?: string;
  durationMs: number;
  /** Whether the body nests JSON deeper than MAX_JSON_DEPTH: found once when it is read (see nestedTooDeep). */
  deep?: boolean;
  /** The path the check asked for, when it went out at another (an older release's path: Client.relocated). */
  askedPath?: string;
}

/**
 * The HTTP client refused to send a request the suite built (a header value it cannot carry, a URL it
 * cannot parse): the suite's own problem, never an answer of the target, so it is thrown, not returned as
 * an exchange without an answer (which the checks would judge as the node's silence).
 */
export class RequestNotSent extends Error {}

/**
 * No bearer token to send: the token source (an OAuth2 client-credentials grant) failed to renew it once the
 * one held expired. Neither the target's failure nor the suite's bug: the requirement is not judged.
 */
export class CredentialsUnavailable extends RequestNotSent {}

/** Error codes of a request refused before it left the process (undici's and Node's argument checks). */
function notSent(code: string | undefined): boolean {
  return code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED' || (code?.startsWith('ERR_INVALID') ?? false);
}

export class Client {
  constructor(readonly config: ClientConfig) {}

  get base(): string {
    return this.config.origin + this.config.prefix;
  }

  /** The interface's key in the run's limits. */
  get lane(): string {
    return this.config.lane ?? this.base;
  }

  /**
   * The same client (its limits and all) telling `onAnswer` of every exchange it makes, with the path as sent
   * (relative to the interface prefix, without the query) and how many requests the view sent before it (the
   * order they were sent in, whatever order they are answered in), or the count `step` gives when the caller
   * counts its steps itself.
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

  /**
   * The same client sending each path as `relocate` makes it (an operation a node of an older release serves
   * at another path); views made from it still see the path as asked, so its answers meet their operation.
   */
  relocated(relocate: (path: string) => string): Client {
    const view = Object.create(this) as Client;
    view.request = async (method, path, options) => {
      const sent = relocate(path);
      const x = await this.request(method, sent, options);
      if (sent !== path) x.askedPath = path.split('?')[0];
      return x;
    };
    return view;
  }

  /** Opens a WebSocket channel of the interface at `path`, sends the request and collects the stream (websocket.ts). */
  channel(path: string, options: ChannelOptions = {}): Promise<ChannelExchange> {
    return readChannel(this.config, path, options);
  }

  get(path: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('POST', path, body === undefined ? options : { ...options, body });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    const turn = await this.config.limits.turn(this.lane, options);
    let outcome: Outcome = 'not sent';
    try {
      const sent = await this.send(method, path, options, turn.stalled);
      outcome = sent.outcome;
      this.config.onExchange?.(sent.exchange);
      return sent.exchange;
    } finally {
      turn.end(outcome);
    }
  }

  /**
   * The credentials to send, with a renewed bearer when its source renews it: the configured one is asked
   * fresh, and a check's explicit token that the source issued earlier is replaced by the current one.
   */
  private async currentAuth(method: string, path: string, auth: Auth): Promise<Auth> {
    const source = this.config.bearerSource;
    if (!source || auth === 'none' || (auth !== 'default' && !source.issued(auth.bearer))) return auth;
    let token: string;
    try {
      token = await source.current();
    } catch (e) {
      throw new CredentialsUnavailable(`not judged: no bearer token for ${method} ${this.config.prefix}${path}, its renewal failed (${(e as Error).message})`);
    }
    return auth === 'default' ? auth : { ...auth, bearer: token };
  }

  private async send(method: string, path: string, options: RequestOptions, stalled: boolean): Promise<{ exchange: Exchange; outcome: Outcome }> {
    const url = this.base + path + queryString(options.query);
    const credentials = credentialHeaders(
      await this.currentAuth(method, path, options.auth ?? 'default'),
      this.config.credentials,
      this.config.credentialVariables,
    );
    // A check's own header wins over the configured one of the same name (in any case), and the credentials over both.
    const own = new Set(Object.keys(options.headers ?? {}).map((k) => k.toLowerCase()));
    const extra = Object.fromEntries(Object.entries(this.config.headers ?? {}).filter(([k]) => !own.has(k.toLowerCase())));
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*', ...extra, ...options.headers, ...credentials.sent };
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = options.contentType ?? 'application/json';

    const started = performance.now();
    const shownHeaders = { ...maskExtraHeaders(redactHeaders(headers), extra), ...credentials.shown };
    const base = {
      method,
      url,
      requestHeaders: headers,
      shownHeaders,
      requestBody: typeof body === 'string' ? body : body ? `<${body.length} bytes>` : undefined,
    };
    const millis = () => Math.round(performance.now() - started);
    const unanswered = { status: 0, headers: {}, bytes: Buffer.alloc(0), text: '', truncated: false, received: 0 };
    if (stalled) {
      const error = `not sent: the last ${STALLED_AFTER} requests to ${this.base} got no answer within ${this.config.timeoutMs} ms, so the target counts as stalled for the rest of the run`;
      return { exchange: { ...base, ...unanswered, error, errorCode: 'STALLED', durationMs: 0 }, outcome: 'not sent' };
    }
    let status: number | undefined;
    const signal = AbortSignal.timeout(this.config.timeoutMs);
    try {
      // undici's request rather than fetch: the same client under fetch's WHATWG layer, which costs about a
      // third more per exchange (bench: suite overhead). It follows no redirect unless told to.
      const res = await request(url, { method: method as Dispatcher.HttpMethod, headers, body, signal, dispatcher: this.config.dispatcher });
      status = res.statusCode;
      const read = await readBounded(res.body, Number(res.headers['content-length'] ?? NaN), this.config.maxBodyBytes);
      this.config.seen?.push({ method, path: new URL(url).pathname, status: res.statusCode });
      const text = read.bytes.toString('utf8');
      const exchange = { ...base, status: res.statusCode, headers: flatHeaders(res.headers), ...read, text, deep: nestedTooDeep(text), durationMs: millis() };
      return { exchange, outcome: 'answered' };
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
      return { exchange: { ...base, ...unanswered, error: reason, errorCode, durationMs: millis() }, outcome: timedOut ? 'timed out' : 'failed' };
    }
  }
}

/** Header values as one string each (repeated headers joined as HTTP allows). */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
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

export function summarise(x: Exchange): HttpExchangeSummary {
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
