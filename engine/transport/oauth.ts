// OAuth2 client credentials (RFC 6749, section 4.4): the access token a deployment's identity provider
// issues to the suite as a client. It is fetched before the first request (the preflight names the step
// that failed: discovery, the token endpoint) and renewed before it expires, so that a long run never sends
// an expired token. The token is a secret like any configured one: evidence shows the environment variable
// of the interface's bearer instead (redaction.ts), and every token fetched is told to `onToken`, for the
// outputs to scrub.
import { request, type Dispatcher } from 'undici';
import { readBounded } from './bounds.ts';

export interface OAuthSettings {
  /** The token endpoint; or `issuer`, whose OpenID discovery document names it (exactly one of the two). */
  tokenUrl?: string;
  issuer?: string;
  clientId: string;
  clientSecret: string;
  /** Sent as `audience` (Auth0 and others), and as the RFC 8707 `resource` when it is an absolute URI. */
  audience?: string;
  scope?: string;
  /** Where each setting came from ("--ledger-oauth-token-url", "CN_..._CLIENT_SECRET (environment)"), for messages. */
  from: { endpoint: string; clientId: string; clientSecret: string; audience?: string; scope?: string };
}

/** What a bearer that changes during the run offers the HTTP client. */
export interface BearerSource {
  /** A token that is not about to expire: the one held, or a new one. */
  current(): Promise<string>;
  /** The token last obtained (undefined before the first). */
  readonly latest: string | undefined;
  /** True for every token this source obtained: a check holding an old one is sent the current one. */
  issued(token: string): boolean;
}

export type OAuthStep = 'discovery' | 'token endpoint';

/** A token could not be obtained: at which step, why (never with a secret), and which setting to check. */
export class OAuthFailure extends Error {
  override name = 'OAuthFailure';
  constructor(
    readonly step: OAuthStep,
    message: string,
    readonly setting: string,
  ) {
    super(message);
  }
}

export interface TokenSourceOptions {
  /** TLS and proxy of the interface the token is for (undici's global dispatcher when absent). */
  dispatcher?: Dispatcher;
  timeoutMs: number;
  /** Told of every token obtained, before any request carries it. */
  onToken?: (token: string) => void;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** Bytes of a discovery document or a token answer that are read at most. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** A renewal that failed is tried again after this long at the soonest (the held token serves meanwhile). */
const RETRY_MS = 5_000;

interface Held {
  token: string;
  renewAt: number;
  /** Undefined when the provider told no lifetime and the token carries none. */
  expiresAt?: number;
}

interface Endpoint {
  url: string;
  /** client_secret_basic unless the provider's metadata offers only client_secret_post. */
  post: boolean;
}

/** One client's access token, fetched on first use and renewed before it expires. */
export class ClientCredentialsToken implements BearerSource {
  private held?: Held;
  private pending?: Promise<string>;
  private endpoint?: Promise<Endpoint>;
  private readonly obtained = new Set<string>();
  private readonly now: () => number;

  constructor(
    readonly settings: OAuthSettings,
    private readonly options: TokenSourceOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get latest(): string | undefined {
    return this.held?.token;
  }

  issued(token: string): boolean {
    return this.obtained.has(token);
  }

  /** The token endpoint in use (discovered from the issuer when not given). */
  async tokenEndpoint(): Promise<string> {
    return (await this.resolveEndpoint()).url;
  }

  async current(): Promise<string> {
    const now = this.now();
    if (this.held && now < this.held.renewAt) return this.held.token;
    if (!this.pending) {
      this.pending = this.fetchToken();
      // Settled either way: the next caller starts afresh (and a rejection is never left unhandled).
      this.pending.then(
        () => (this.pending = undefined),
        () => (this.pending = undefined),
      );
    }
    try {
      return await this.pending;
    } catch (e) {
      // A renewal that fails while the held token is still valid costs nothing yet: keep it, try again later.
      const held = this.held;
      if (held && (held.expiresAt === undefined || now < held.expiresAt)) {
        held.renewAt = now + Math.min(RETRY_MS, held.expiresAt === undefined ? RETRY_MS : (held.expiresAt - now) / 2);
        return held.token;
      }
      throw e;
    }
  }

  private resolveEndpoint(): Promise<Endpoint> {
    if (this.endpoint) return this.endpoint;
    const endpoint = this.settings.tokenUrl ? Promise.resolve({ url: this.settings.tokenUrl, post: false }) : this.discover(this.settings.issuer!);
    // A failed discovery is asked again next time rather than remembered.
    endpoint.catch(() => {
      if (this.endpoint === endpoint) this.endpoint = undefined;
    });
    this.endpoint = endpoint;
    return endpoint;
  }

  private async discover(issuer: string): Promise<Endpoint> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const fail = (why: string) => new OAuthFailure('discovery', `GET ${url} ${why}`, this.settings.from.endpoint);
    const answer = await this.exchange('discovery', url, { method: 'GET', headers: { accept: 'application/json' } });
    if (answer.status !== 200) throw fail(`answered ${answer.status}${brief(answer.text)}`);
    const doc = jsonObject(answer.text);
    if (!doc) throw fail('answered no JSON object');
    const endpoint = doc.token_endpoint;
    if (typeof endpoint !== 'string' || !/^https?:\/\//i.test(endpoint)) throw fail('answered a document without an http(s) token_endpoint');
    const methods = Array.isArray(doc.token_endpoint_auth_methods_supported) ? doc.token_endpoint_auth_methods_supported : [];
    // The default method when the metadata names none is client_secret_basic (OpenID Connect Discovery 1.0).
    const post = methods.length > 0 && !methods.includes('client_secret_basic') && methods.includes('client_secret_post');
    return { url: endpoint, post };
  }

  private async fetchToken(): Promise<string> {
    const { url, post } = await this.resolveEndpoint();
    const s = this.settings;
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (s.scope) form.set('scope', s.scope);
    if (s.audience) {
      form.set('audience', s.audience);
      if (/^[a-z][a-z0-9+.-]*:/i.test(s.audience)) form.set('resource', s.audience);
    }
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
    if (post) {
      form.set('client_id', s.clientId);
      form.set('client_secret', s.clientSecret);
    } else {
      // RFC 6749, section 2.3.1: both are form-encoded before they are joined.
      const pair = `${formEncode(s.clientId)}:${formEncode(s.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    }
    const started = this.now();
    const answer = await this.exchange('token endpoint', url, { method: 'POST', headers, body: form.toString() });
    const body = jsonObject(answer.text);
    if (answer.status !== 200) {
      const error = typeof body?.error === 'string' ? body.error : undefined;
      const description = typeof body?.error_description === 'string' ? `: ${body.error_description.slice(0, 200)}` : '';
      const what = error ? `${answer.status} ${error}${description}` : `${answer.status}${brief(answer.text)}`;
      throw new OAuthFailure('token endpoint', `POST ${url} answered ${what} for client "${s.clientId}"`, this.blame(error));
    }
    const token = body?.access_token;
    if (typeof token !== 'string' || token === '')
      throw new OAuthFailure('token endpoint', `POST ${url} answered 200 without an access_token`, s.from.endpoint);
    // A token for another scheme (DPoP, MAC) would be refused by every request as a bearer.
    if (typeof body?.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer')
      throw new OAuthFailure('token endpoint', `POST ${url} answered a token of type ${body.token_type.slice(0, 40)}, not Bearer`, s.from.endpoint);
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new OAuthFailure('token endpoint', `POST ${url} answered an access_token that cannot be sent in an HTTP header`, s.from.endpoint);
    this.obtained.add(token);
    this.options.onToken?.(token);
    this.held = { token, ...renewal(started, lifetimeSeconds(body?.expires_in, token, started)) };
    return token;
  }

  /** The setting an error code of the token endpoint points at (RFC 6749, section 5.2). */
  private blame(error: string | undefined): string {
    const from = this.settings.from;
    if (error === 'invalid_client' || error === 'unauthorized_client') return `${from.clientId} and the client secret from ${from.clientSecret}`;
    if (error === 'invalid_scope' && from.scope) return from.scope;
    if (error === 'invalid_target' && from.audience) return from.audience;
    return from.endpoint;
  }

  private async exchange(step: OAuthStep, url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }) {
    try {
      const res = await request(url, { ...init, dispatcher: this.options.dispatcher, signal: AbortSignal.timeout(this.options.timeoutMs) });
      const read = await readBounded(res.body, Number(res.headers['content-length'] ?? NaN), MAX_ANSWER_BYTES);
      // Messages quote failure answers: one that echoes the client secret must not carry it on.
      const text = read.truncated ? '' : read.bytes.toString('utf8');
      return { status: res.statusCode, text: this.settings.clientSecret.length >= 4 ? text.replaceAll(this.settings.clientSecret, '***') : text };
    } catch (e) {
      const err = e as Error & { code?: string; cause?: { code?: string } };
      const code = err.code ?? err.cause?.code;
      const why =
        err.name === 'TimeoutError' || code === 'UND_ERR_ABORTED'
          ? `no answer within ${this.options.timeoutMs} ms`
          : `${err.message}${code ? ` (${code})` : ''}`;
      throw new OAuthFailure(step, `${init.method} ${url}: ${why}`, this.settings.from.endpoint);
    }
  }
}

/** When to renew a token of `lifetime` seconds obtained at `at`: at 80% of it or 30 s before it ends, whichever is sooner, and never before half of it. */
export function renewal(at: number, lifetime: number | undefined): { renewAt: number; expiresAt?: number } {
  if (lifetime === undefined) return { renewAt: Number.POSITIVE_INFINITY };
  const ms = lifetime * 1000;
  return { renewAt: at + Math.max(ms / 2, Math.min(ms * 0.8, ms - 30_000)), expiresAt: at + ms };
}

/** The token's lifetime in seconds: `expires_in`, else a JWT's own `exp`, else unknown. */
function lifetimeSeconds(expiresIn: unknown, token: string, now: number): number | undefined {
  const given = typeof expiresIn === 'string' ? Number(expiresIn) : expiresIn;
  if (typeof given === 'number' && Number.isFinite(given) && given > 0) return given;
  try {
    const exp = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    if (typeof exp === 'number' && exp * 1000 > now) return exp - now / 1000;
  } catch {
    // Not a JWT: its lifetime is unknown.
  }
  return undefined;
}

const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The start of an answer's body, for a message (never a token: only failures are described). */
const brief = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  return line ? ` (${line})` : '';
};
