// The one way checks talk to a target: every request has a timeout, every body read has a size bound,
// network failures come back as data (status 0) rather than exceptions, and every exchange can be
// summarised as evidence with secrets redacted and a curl line that reproduces it.
import type { ExchangeSummary } from './model.ts';

export interface Credentials {
  bearer?: string;
  /** API key of the ledger's apiKeyAuth scheme, sent in Sec-WebSocket-Protocol. */
  apiKey?: string;
}

export interface ClientConfig {
  /** Scheme, host, port and any base path, without the interface prefix. */
  origin: string;
  /** Interface prefix ("/api/scan", "/api/validator" or "" for the ledger). */
  prefix: string;
  credentials: Credentials;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Shared request budget of the run, and its pace (minimum milliseconds between requests). */
  budget: { remaining: number; intervalMs?: number; nextAt?: number };
  /** Every answered request of the run (method, path without query, status), for the coverage table. */
  seen?: Array<{ method: string; path: string; status: number }>;
}

export type Query = Record<string, string | number | boolean | Array<string | number> | undefined>;

export interface RequestOptions {
  query?: Query;
  /** JSON body (serialised), or `rawBody` sent as is. */
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** 'default' sends the configured credentials, 'none' sends none, or an explicit bearer token. */
  auth?: 'default' | 'none' | { bearer: string };
  contentType?: string;
  /** Not a check's request (e.g. the reachability probe): not counted against the run's budget. */
  unbudgeted?: boolean;
}

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0 when no HTTP answer arrived (see `error`). */
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  text: string;
  /** True when the body was cut at the size bound. */
  truncated: boolean;
  error?: string;
  durationMs: number;
}

const SECRET_HEADERS = new Set(['authorization', 'sec-websocket-protocol', 'cookie', 'x-api-key']);

export class BudgetExhausted extends Error {}

export class Client {
  constructor(readonly config: ClientConfig) {}

  get base(): string {
    return this.config.origin + this.config.prefix;
  }

  get(path: string, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('GET', path, options);
  }

  post(path: string, body?: unknown, options: RequestOptions = {}): Promise<Exchange> {
    return this.request('POST', path, body === undefined ? options : { ...options, body });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    if (!options.unbudgeted) {
      if (this.config.budget.remaining <= 0) throw new BudgetExhausted('the run\'s request budget (--max-requests) is used up');
      this.config.budget.remaining--;
    }
    await pace(this.config.budget);
    const url = this.base + path + queryString(options.query);
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*', ...options.headers };
    const auth = options.auth ?? 'default';
    if (auth === 'default') {
      if (this.config.credentials.bearer) headers.authorization = `Bearer ${this.config.credentials.bearer}`;
      else if (this.config.credentials.apiKey) headers['sec-websocket-protocol'] = `jwt.token.${this.config.credentials.apiKey}`;
    } else if (auth !== 'none') headers.authorization = `Bearer ${auth.bearer}`;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = options.contentType ?? 'application/json';

    const started = performance.now();
    const base = { method, url, requestHeaders: headers, requestBody: typeof body === 'string' ? body : body ? `<${body.length} bytes>` : undefined };
    try {
      const res = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.config.timeoutMs) });
      const { bytes, truncated } = await readBounded(res, this.config.maxBodyBytes);
      this.config.seen?.push({ method, path: new URL(url).pathname, status: res.status });
      return {
        ...base, status: res.status, headers: Object.fromEntries(res.headers), bytes, text: bytes.toString('utf8'), truncated,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const reason = err.name === 'TimeoutError' ? `no answer within ${this.config.timeoutMs} ms` : `${err.message}${err.cause?.code ? ` (${err.cause.code})` : err.cause?.message ? ` (${err.cause.message})` : ''}`;
      return { ...base, status: 0, headers: {}, bytes: Buffer.alloc(0), text: '', truncated: false, error: reason, durationMs: Math.round(performance.now() - started) };
    }
  }
}

/** Spaces requests at the run's rate; the slot is taken before waiting, so concurrent callers queue up. */
async function pace(budget: ClientConfig['budget']): Promise<void> {
  if (!budget.intervalMs) return;
  const now = Date.now();
  const at = Math.max(now, budget.nextAt ?? 0);
  budget.nextAt = at + budget.intervalMs;
  if (at > now) await new Promise((r) => setTimeout(r, at - now));
}

async function readBounded(res: Response, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  if (!res.body) return { bytes: Buffer.alloc(0), truncated: false };
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      chunks.push(Buffer.from(value.subarray(0, value.byteLength - (size - max))));
      await reader.cancel();
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(Buffer.from(value));
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
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
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADERS.has(k.toLowerCase()) ? (k.toLowerCase() === 'authorization' ? v.replace(/^(\S+\s+).*$/, '$1***') : '***') : v]));
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlLine(x: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>): string {
  const parts = ['curl', '-sS', '-X', x.method, shellQuote(x.url)];
  for (const [k, v] of Object.entries(redactHeaders(x.requestHeaders))) if (k !== 'accept') parts.push('-H', shellQuote(`${k}: ${v}`));
  if (x.requestBody !== undefined) parts.push('--data-raw', shellQuote(x.requestBody.length > 4000 ? x.requestBody.slice(0, 4000) + '...' : x.requestBody));
  return parts.join(' ');
}

export const EXCERPT_BYTES = 2048;

export function summarise(x: Exchange): ExchangeSummary {
  return {
    request: { method: x.method, url: x.url, headers: redactHeaders(x.requestHeaders), body: x.requestBody?.slice(0, EXCERPT_BYTES) },
    response: x.status === 0 ? undefined : { status: x.status, headers: x.headers, bodyExcerpt: x.text.slice(0, EXCERPT_BYTES), bodyBytes: x.bytes.length },
    error: x.error,
    curl: curlLine(x),
    durationMs: x.durationMs,
  };
}
