// The one way checks read a WebSocket channel of a target (the ledger's update, completion and active-contract
// streams): the upgrade carries the token in the subprotocols as real nodes take it, the request goes out as
// the first message, and the messages are collected under the same bounds as an HTTP body and more: a
// connection timeout, an idle timeout, a cap on messages and on bytes, and a cap on the whole stream's
// duration. A stream that ends any other way than by the node's close or the client's own choice comes back
// with `error` set, never as an exception and never as a hang.
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { EXCERPT_BYTES, excerpt } from './bounds.ts';
import type { WebSocketExchangeSummary } from './evidence.ts';
import type { TlsSettings } from './dispatcher.ts';
import type { RunLimits } from './limits.ts';
import type { BearerSource } from './oauth.ts';
import type { Outcome } from './limits.ts';
import { type Auth, type Credentials, type CredentialVariables, maskExtraHeaders, shellArgument, shellQuote } from './redaction.ts';

/**
 * What a channel needs of its interface's client configuration (http.ts ClientConfig has it all): the same
 * origin, credentials, headers, TLS, bounds and run limits as the interface's HTTP requests.
 */
export interface ChannelConfig {
  origin: string;
  prefix: string;
  credentials: Credentials;
  credentialVariables?: CredentialVariables;
  bearerSource?: BearerSource;
  headers?: Record<string, string>;
  tls?: TlsSettings;
  timeoutMs: number;
  maxBodyBytes: number;
  limits: RunLimits;
  lane?: string;
  seen?: Array<{ method: string; path: string; status: number }>;
}

/** The subprotocol a node accepts the ledger's token scheme with (facts: the WebSocket stream). */
export const AUTH_SUBPROTOCOL = 'daml.ws.auth';
/** What the token's subprotocol starts with. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'jwt.token.';
/** Messages kept per stream: more is a flood, ended with an error (a million-update ledger is read in windows). */
export const MAX_STREAM_MESSAGES = 200_000;
/** How long the client waits for the node's answer to its close frame before dropping the connection. */
export const CLOSE_WAIT_MS = 2_000;
/** A stream's longest life, in request timeouts: a stream that trickles forever ends in an error, not a hang. */
const DURATION_TIMEOUTS = 6;
/** Received messages a summary quotes: the first ones and the last ones. */
const QUOTED_FIRST = 8;
const QUOTED_LAST = 2;

export interface ChannelOptions {
  /** The request record, sent as the first text message (JSON), or `rawRequest` sent as is. */
  request?: unknown;
  rawRequest?: string;
  /** Which credentials the upgrade carries (see Auth): the configured ones unless told. */
  auth?: Auth;
  /** Subprotocols offered instead of the token's and the auth one (a check's own, e.g. a malformed token). */
  subprotocols?: string[];
  /** The client closes the stream once it holds this many messages (a sample of an open-ended stream). */
  stopAfter?: number;
  /** The client closes the stream once no message came for this long (an open-ended stream, caught up). */
  idleMs?: number;
  /** The client closes the stream once a message (its JSON value) satisfies this. */
  until?: (message: unknown) => boolean;
  /**
   * Once the stream is idle for `idleMs` (caught up), or a request timeout after it opened if it never is,
   * `act` runs once (it commits an update, say); the stream is then read until `until` holds for a message or
   * `waitMs` pass without one.
   */
  live?: { act: () => Promise<void>; waitMs: number };
}

export interface ChannelMessage {
  text: string;
  bytes: number;
  /** A binary frame (the channels send text): its bytes as latin1, for evidence. */
  binary?: true;
}

/** How a stream ended. */
export type ChannelEnd =
  /** The node closed it (a bounded stream's end, or an error's). */
  | 'closed'
  /** The client closed it, by its own choice: `stopAfter`, `idleMs`, `until` or `live` said so. */
  | 'stopped'
  /** The node refused the upgrade with an HTTP answer. */
  | 'refused'
  /** Anything else: no connection, a bound exceeded, a dropped connection (see `error`). */
  | 'failed';

export interface ChannelExchange {
  transport: 'websocket';
  /** The channel's ws:// or wss:// URL. */
  url: string;
  /** The path asked for (relative to the interface prefix). */
  path: string;
  /** Subprotocols offered, as sent, and as evidence shows them (a token as `$VARIABLE` or ***). */
  subprotocols: string[];
  shownSubprotocols: string[];
  /** The configured extra headers, as evidence shows them (masked). */
  shownHeaders: Record<string, string>;
  /** The request message as sent. */
  requestText?: string;
  /** The subprotocol the node accepted, when it upgraded. */
  protocol?: string;
  /** The node's HTTP answer when it refused the upgrade. */
  upgrade?: { status: number; headers: Record<string, string>; text: string };
  messages: ChannelMessage[];
  /** Bytes of every message received (kept or not). */
  received: number;
  /** The close as the client saw it: its code and reason, and who closed first. */
  close?: { code: number; reason: string; by: 'node' | 'client' };
  /** After the client's close frame: whether the node answered it (the close handshake completed) in time. */
  closeHandshake?: 'completed' | 'unanswered';
  end: ChannelEnd;
  error?: string;
  /** TIMEOUT (no upgrade), IDLE (no message, no close), DURATION, TOO_MANY_MESSAGES, TOO_LARGE, DROPPED, or the network error's code. */
  errorCode?: string;
  durationMs: number;
}

/** The ws:// or wss:// URL of a path of the interface. */
export const channelUrl = (config: ChannelConfig, path: string) => (config.origin + config.prefix + path).replace(/^http/, 'ws');

/** The subprotocols carrying the credentials: as sent, and as evidence shows them. */
function credentialProtocols(config: ChannelConfig, auth: Auth, token: string | undefined): { sent: string[]; shown: string[] } {
  if (auth === 'none' || !token) return { sent: [AUTH_SUBPROTOCOL], shown: [AUTH_SUBPROTOCOL] };
  const variable = auth === 'default' ? (config.credentialVariables?.bearer ?? config.credentialVariables?.apiKey) : auth.variable;
  const shownToken = auth !== 'default' && !auth.variable ? token : variable ? `$${variable}` : '***';
  return { sent: [`${TOKEN_SUBPROTOCOL_PREFIX}${token}`, AUTH_SUBPROTOCOL], shown: [`${TOKEN_SUBPROTOCOL_PREFIX}${shownToken}`, AUTH_SUBPROTOCOL] };
}

async function tokenFor(config: ChannelConfig, auth: Auth): Promise<string | undefined> {
  if (auth === 'none') return undefined;
  if (auth !== 'default') return config.bearerSource?.issued(auth.bearer) ? config.bearerSource.current() : auth.bearer;
  if (config.bearerSource) return config.bearerSource.current();
  return config.credentials.bearer ?? config.credentials.apiKey;
}

/** Opens a channel, sends the request and collects what comes back, within the run's limits and the stream's bounds. */
export async function readChannel(config: ChannelConfig, path: string, options: ChannelOptions = {}): Promise<ChannelExchange> {
  const turn = await config.limits.turn(config.lane ?? config.origin + config.prefix);
  let outcome: Outcome = 'not sent';
  try {
    const x = await exchange(config, path, options, turn.stalled);
    // Not opened for a stalled target: the turn counts as no request, as an HTTP request not sent does.
    outcome = x.errorCode === 'STALLED' ? 'not sent' : x.end === 'failed' ? (x.errorCode === 'TIMEOUT' ? 'timed out' : 'failed') : 'answered';
    if (outcome !== 'not sent')
      config.seen?.push({
        method: 'WEBSOCKET',
        path: new URL(x.url).pathname,
        status: x.upgrade?.status ?? (x.protocol !== undefined || x.end !== 'failed' ? 101 : 0),
      });
    return x;
  } finally {
    turn.end(outcome);
  }
}

async function exchange(config: ChannelConfig, path: string, options: ChannelOptions, stalled: boolean): Promise<ChannelExchange> {
  const url = channelUrl(config, path);
  const auth = options.auth ?? 'default';
  let token: string | undefined;
  const started = performance.now();
  const requestText = options.rawRequest ?? (options.request === undefined ? undefined : JSON.stringify(options.request));
  const extra = config.headers ?? {};
  const base = { transport: 'websocket' as const, url, path, requestText, shownHeaders: maskExtraHeaders({ ...extra }, extra), messages: [], received: 0 };
  try {
    token = await tokenFor(config, auth);
  } catch (e) {
    return {
      ...base,
      subprotocols: [],
      shownSubprotocols: [],
      end: 'failed',
      error: `no bearer token: ${(e as Error).message}`,
      errorCode: 'NO_TOKEN',
      durationMs: 0,
    };
  }
  const offered = options.subprotocols
    ? { sent: options.subprotocols, shown: options.subprotocols.map(redactSubprotocol) }
    : credentialProtocols(config, auth, token);
  const x: ChannelExchange = { ...base, subprotocols: offered.sent, shownSubprotocols: offered.shown, end: 'failed', durationMs: 0 };
  if (stalled)
    return { ...x, error: `not opened: requests to ${config.origin + config.prefix} got no answer, so the target counts as stalled`, errorCode: 'STALLED' };
  return new Promise<ChannelExchange>((resolve) => collect(config, x, options, started, resolve));
}

/** A subprotocol a check chose, shown with any token in it masked. */
const redactSubprotocol = (p: string) =>
  p.startsWith(TOKEN_SUBPROTOCOL_PREFIX) && p.length > TOKEN_SUBPROTOCOL_PREFIX.length + 16 ? `${TOKEN_SUBPROTOCOL_PREFIX}***` : p;

function collect(config: ChannelConfig, x: ChannelExchange, options: ChannelOptions, started: number, resolve: (x: ChannelExchange) => void): void {
  let done = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let closeTimer: NodeJS.Timeout | undefined;
  let liveStarted = false;
  /** Set once the client sent its close frame: how the stream ends when the close completes. */
  let closing: { end: ChannelEnd; error?: string; errorCode?: string } | undefined;
  const timeoutMs = config.timeoutMs;
  const finish = (end: ChannelEnd, error?: string, errorCode?: string) => {
    if (done) return;
    done = true;
    clearTimeout(idleTimer);
    clearTimeout(closeTimer);
    clearTimeout(durationTimer);
    x.end = end;
    if (error !== undefined) {
      x.error = error;
      x.errorCode = errorCode;
    }
    x.durationMs = Math.round(performance.now() - started);
    resolve(x);
  };
  const socket = new WebSocket(x.url, x.subprotocols, {
    headers: config.headers,
    handshakeTimeout: timeoutMs,
    maxPayload: config.maxBodyBytes,
    perMessageDeflate: false,
    followRedirects: false,
    ...(config.tls ? { ca: config.tls.ca, cert: config.tls.cert, key: config.tls.key } : {}),
  });
  /** The client ends the stream: a close frame, then the connection dropped if the node never answers it. */
  const stop = (end: ChannelEnd, error?: string, errorCode?: string) => {
    if (done || closeTimer) return;
    clearTimeout(idleTimer);
    const pending = { end, error, errorCode };
    if (socket.readyState !== WebSocket.OPEN) {
      socket.terminate();
      finish(end, error, errorCode);
      return;
    }
    x.close = { code: 1000, reason: '', by: 'client' };
    socket.close(1000);
    closeTimer = setTimeout(() => {
      x.closeHandshake = 'unanswered';
      socket.terminate();
      finish(pending.end, pending.error, pending.errorCode);
    }, CLOSE_WAIT_MS);
    closing = pending;
  };
  const durationTimer = setTimeout(
    () => stop('failed', `the stream was still open after ${DURATION_TIMEOUTS * timeoutMs} ms (${x.messages.length} messages): it never ended`, 'DURATION'),
    DURATION_TIMEOUTS * timeoutMs,
  );
  /** The live action, once: the stream caught up (or never did within a request timeout). */
  const startLive = () => {
    if (liveStarted || done || closing) return;
    liveStarted = true;
    armIdle();
    options.live!.act().catch((e: Error) => stop('failed', `the action on the open stream failed: ${e.message}`, 'ACTION'));
  };
  /** Restarts the wait for the next message: an open-ended read's own idle gap, else the run's timeout. */
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (liveStarted) {
      idleTimer = setTimeout(() => stop('stopped'), options.live!.waitMs);
    } else if (options.live) {
      idleTimer = setTimeout(startLive, options.idleMs ?? 0);
    } else if (options.idleMs !== undefined) {
      idleTimer = setTimeout(() => stop('stopped'), options.idleMs);
    } else {
      idleTimer = setTimeout(
        () => stop('failed', `no message and no close for ${timeoutMs} ms after ${x.messages.length} messages: the stream stalled`, 'IDLE'),
        timeoutMs,
      );
    }
  };
  socket.on('unexpected-response', (req, res: IncomingMessage) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (c: Buffer) => {
      size += c.byteLength;
      if (size <= EXCERPT_BYTES * 4) chunks.push(c);
    });
    const refused = () => {
      x.upgrade = { status: res.statusCode ?? 0, headers: flat(res.headers), text: excerpt(Buffer.concat(chunks).toString('utf8'), EXCERPT_BYTES) };
      req.destroy();
      finish('refused');
    };
    res.on('end', refused);
    res.on('error', refused);
    setTimeout(refused, timeoutMs).unref();
  });
  socket.on('upgrade', () => {
    x.protocol = socket.protocol;
  });
  socket.on('open', () => {
    x.protocol = socket.protocol;
    if (x.requestText !== undefined) socket.send(x.requestText);
    if (options.live) setTimeout(startLive, timeoutMs).unref();
    armIdle();
  });
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (done || closing) return;
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    x.received += bytes.byteLength;
    if (x.received > config.maxBodyBytes) {
      stop('failed', `the stream sent more than the bound of the run (${config.maxBodyBytes} bytes) in ${x.messages.length + 1} messages`, 'TOO_LARGE');
      return;
    }
    x.messages.push(
      isBinary ? { text: bytes.toString('latin1'), bytes: bytes.byteLength, binary: true } : { text: bytes.toString('utf8'), bytes: bytes.byteLength },
    );
    if (x.messages.length > MAX_STREAM_MESSAGES) {
      stop('failed', `the stream sent more than ${MAX_STREAM_MESSAGES} messages`, 'TOO_MANY_MESSAGES');
      return;
    }
    if (options.until?.(parsed(x.messages.at(-1)!))) {
      stop('stopped');
      return;
    }
    if (options.stopAfter !== undefined && x.messages.length >= options.stopAfter) {
      stop('stopped');
      return;
    }
    armIdle();
  });
  socket.on('close', (code: number, reason: Buffer) => {
    if (closing) {
      x.closeHandshake = code === 1006 ? 'unanswered' : 'completed';
      finish(closing.end, closing.error, closing.errorCode);
      return;
    }
    x.close = { code, reason: reason.toString('utf8'), by: 'node' };
    // 1006: no close frame, the connection dropped.
    if (code === 1006) finish('failed', `the connection dropped without a close frame after ${x.messages.length} messages`, 'DROPPED');
    else finish('closed');
  });
  socket.on('error', (e: Error & { code?: string }) => {
    if (done || x.upgrade) return;
    const timedOut = /timed out/i.test(e.message);
    if (closing) {
      finish(closing.end, closing.error, closing.errorCode);
      return;
    }
    finish(
      'failed',
      timedOut ? `no upgrade within ${timeoutMs} ms` : `${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`,
      timedOut ? 'TIMEOUT' : (e.code ?? 'FAILED'),
    );
    socket.terminate();
  });
}

function flat(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** A message's JSON value, or undefined when it is none. */
export function parsed(m: ChannelMessage): unknown {
  if (m.binary) return undefined;
  try {
    return JSON.parse(m.text);
  } catch {
    return undefined;
  }
}

/**
 * A shell argument in which the credential variables it names expand wherever they stand (`jwt.token.$VAR,
 * daml.ws.auth`), braced so that the text after one is not read as part of its name; anything else verbatim.
 */
function expandingArgument(text: string): string {
  const references = /\$[A-Z][A-Z0-9_]*/g;
  if (!references.test(text) || /["\\`]/.test(text) || /\$(?![A-Z])/.test(text)) return shellQuote(text);
  return `"${text.replace(references, (v) => `\${${v.slice(1)}}`)}"`;
}

/** The websocat line that opens the channel again and sends the request, credentials as evidence shows them. */
export function websocatLine(x: ChannelExchange): string {
  const parts = ['websocat', '-n', '--protocol', expandingArgument(x.shownSubprotocols.join(', '))];
  for (const [k, v] of Object.entries(x.shownHeaders)) parts.push('-H', shellArgument(`${k}: ${v}`));
  parts.push(shellQuote(x.url));
  const line = parts.join(' ');
  if (x.requestText === undefined) return line;
  const request = x.requestText.length > 4000 ? `${excerpt(x.requestText, 4000)}...` : x.requestText;
  // A here-string (bash, zsh): the request goes out as the first message once the channel is open.
  return `${line} <<< ${shellQuote(request)}`;
}

/** The channel as evidence: the request, the first and last messages (excerpts), the close and the websocat line. */
export function summariseChannel(x: ChannelExchange): WebSocketExchangeSummary {
  const quote = (m: ChannelMessage) => ({ excerpt: excerpt(m.text, 512), bytes: m.bytes });
  const n = x.messages.length;
  const quoted = n <= QUOTED_FIRST + QUOTED_LAST ? x.messages : [...x.messages.slice(0, QUOTED_FIRST), ...x.messages.slice(n - QUOTED_LAST)];
  const error = x.error ?? (x.upgrade ? `the upgrade was refused: status ${x.upgrade.status} ${excerpt(x.upgrade.text, 200)}`.trimEnd() : undefined);
  return {
    transport: 'websocket',
    channel: { url: x.url, subprotocols: x.shownSubprotocols },
    sent: x.requestText === undefined ? [] : [excerpt(x.requestText, EXCERPT_BYTES)],
    received: quoted.map(quote),
    ...(n > quoted.length ? { omitted: n - quoted.length } : {}),
    ...(x.close ? { close: x.close } : {}),
    ...(error ? { error } : {}),
    websocat: websocatLine(x),
    durationMs: x.durationMs,
  };
}

/** The stream in a few words, for reasons. */
export function describeChannel(x: ChannelExchange): string {
  if (x.upgrade) return `the upgrade was refused: status ${x.upgrade.status} ${excerpt(x.upgrade.text, 200)}`.trimEnd();
  const close = x.close ? `, closed by the ${x.close.by} (${x.close.code}${x.close.reason ? ` ${x.close.reason}` : ''})` : '';
  return `${x.messages.length} messages${close}${x.error ? `: ${x.error}` : ''}`;
}
