// Secrets never reach evidence: values that carry credentials are masked, the run's own credentials are
// shown as references to the environment variables that hold them, and reproduction lines quote for the
// shell so that such a reference expands when pasted and nothing else does.
import { excerpt } from './bounds.ts';

export interface Credentials {
  bearer?: string;
  /** API key of the ledger's apiKeyAuth scheme, sent in Sec-WebSocket-Protocol. */
  apiKey?: string;
}

/**
 * Names of the environment variables that hold the configured credentials. Evidence and reproduction lines
 * show `$NAME` in their place, so a line runs as pasted once the variable is exported and never carries the
 * secret itself.
 */
export interface CredentialVariables {
  bearer?: string;
  apiKey?: string;
}

/**
 * Which credentials a request carries: 'default' the configured ones, 'none' none, or an explicit bearer
 * token. An explicit token is shown in evidence as sent (a forged or broken token is no secret and only
 * reproduces as sent), unless `variable` names the environment variable that holds it (a real token of
 * another user).
 */
export type Auth = 'default' | 'none' | { bearer: string; variable?: string };

/** The headers carrying a request's credentials: as sent, and as evidence shows them. */
export function credentialHeaders(
  auth: Auth,
  credentials: Credentials,
  variables: CredentialVariables = {},
): { sent: Record<string, string>; shown: Record<string, string> } {
  const sent: Record<string, string> = {};
  const shown: Record<string, string> = {};
  const reference = (variable: string | undefined) => (variable ? `$${variable}` : '***');
  if (auth === 'default') {
    if (credentials.bearer) {
      sent.authorization = `Bearer ${credentials.bearer}`;
      shown.authorization = `Bearer ${reference(variables.bearer)}`;
    } else if (credentials.apiKey) {
      sent['sec-websocket-protocol'] = `jwt.token.${credentials.apiKey}`;
      shown['sec-websocket-protocol'] = `jwt.token.${reference(variables.apiKey)}`;
    }
  } else if (auth !== 'none') {
    sent.authorization = `Bearer ${auth.bearer}`;
    shown.authorization = auth.variable ? `Bearer $${auth.variable}` : sent.authorization;
  }
  return { sent, shown };
}

const SECRET_HEADERS: ReadonlySet<string> = new Set(['authorization', 'sec-websocket-protocol', 'cookie', 'x-api-key']);

/** Headers with every credential masked (an authorization keeps its scheme). */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [
      k,
      SECRET_HEADERS.has(k.toLowerCase()) ? (k.toLowerCase() === 'authorization' ? v.replace(/^(\S+\s+).*$/, '$1***') : '***') : v,
    ]),
  );
}

/**
 * Headers with the configured extra headers' values masked (--header): any of them may carry a secret (an
 * API gateway's key, a tenant token), and which do cannot be told from their names, so none is shown. A
 * check's own header of the same name (`own`) is the check's, and shown.
 */
export function maskExtraHeaders(headers: Record<string, string>, extra: Record<string, string>, own: Record<string, string> = {}): Record<string, string> {
  const configured = new Set(Object.keys(extra).map((k) => k.toLowerCase()));
  for (const k of Object.keys(own)) configured.delete(k.toLowerCase());
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, configured.has(k.toLowerCase()) ? '***' : v]));
}

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A reference to a credential variable, which the shell must expand: `$CN_CONFORMANCE_LEDGER_TOKEN`. */
const VARIABLE_REFERENCE = /\$[A-Z][A-Z0-9_]*$/;

/** A shell argument: double quotes where the shell must expand a variable reference (the rest of such a value is plain text). */
export const shellArgument = (text: string) => (VARIABLE_REFERENCE.test(text) && !/["\\`]/.test(text) ? `"${text}"` : shellQuote(text));

/** What a curl line needs of an HTTP request. */
export interface HttpRequestShown {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The headers as evidence shows them (absent: the request headers redacted). */
  shownHeaders?: Record<string, string>;
  requestBody?: string;
}

/** The curl line that sends the request again, credentials as shown in evidence. */
export function curlLine(x: HttpRequestShown): string {
  const parts = ['curl', '-sS', '-X', x.method, shellQuote(x.url)];
  for (const [k, v] of Object.entries(x.shownHeaders ?? redactHeaders(x.requestHeaders))) if (k !== 'accept') parts.push('-H', shellArgument(`${k}: ${v}`));
  if (x.requestBody !== undefined) parts.push('--data-raw', shellQuote(x.requestBody.length > 4000 ? excerpt(x.requestBody, 4000) + '...' : x.requestBody));
  return parts.join(' ');
}
