// The reference node's ledger WebSocket channels from a client's side, as the official client opens them: the
// token in the subprotocols (`jwt.token.<JWT>, daml.ws.auth`), the request as one JSON text message once open,
// then one message per element. Shared by the node's tests and the ledger faults' probes.
import WebSocket from 'ws';
import type { RunningReferenceNode } from '../../reference-node/index.ts';
import type { Json } from './ledger-requests.ts';

export const AUTH_PROTOCOL = 'daml.ws.auth';

export interface ChannelOptions {
  /** Token in the subprotocols; null sends none (only `daml.ws.auth`); default the admin's. */
  token?: string | null;
  /** The request message: a string goes as it is, anything else as JSON; undefined sends none. */
  request?: unknown;
}

/** An upgrade the node answered with a plain HTTP status instead. */
export interface Refused {
  refused: true;
  status: number;
  body: string;
}

export interface CloseFrame {
  code: number;
  reason: string;
}

export interface OpenChannel {
  refused: false;
  /** The subprotocol the node accepted. */
  protocol: string;
  /** The messages so far: JSON values (a text that is no JSON as it is). */
  messages: Json[];
  /** Whether `enough` holds of the messages within `timeoutMs`, or once the channel closed. */
  waitFor(enough: (messages: Json[]) => boolean, timeoutMs?: number): Promise<boolean>;
  /** The close, once the connection is closed by either side. */
  closed: Promise<CloseFrame>;
  /**
   * Closes from the client's side: whether the node answered the close within `graceMs`. Either way the
   * connection is gone when it resolves.
   */
  close(graceMs?: number): Promise<boolean>;
}

export const channelUrl = (n: RunningReferenceNode, path: string) => `${n.urls.ledger.replace(/^http/, 'ws')}${path}`;

/** Opens a channel and sends the request; resolves once the node accepted or refused the upgrade. */
export function openChannel(n: RunningReferenceNode, path: string, o: ChannelOptions = {}): Promise<OpenChannel | Refused> {
  const token = o.token === undefined ? n.credentials.ledgerAdminToken : o.token;
  const ws = new WebSocket(channelUrl(n, path), token === null ? [AUTH_PROTOCOL] : [`jwt.token.${token}`, AUTH_PROTOCOL]);
  ws.on('error', () => {});
  const messages: Json[] = [];
  const listeners = new Set<() => void>();
  const closed = new Promise<CloseFrame>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  void closed.then(() => listeners.forEach((l) => l()));
  ws.on('message', (data) => {
    const text = data.toString();
    try {
      messages.push(JSON.parse(text) as Json);
    } catch {
      messages.push(text as unknown as Json);
    }
    listeners.forEach((l) => l());
  });
  const waitFor = (enough: (messages: Json[]) => boolean, timeoutMs = 5_000) =>
    new Promise<boolean>((resolve) => {
      const check = () => {
        const done = enough(messages);
        if (!done && ws.readyState !== WebSocket.CLOSED) return;
        finish(done);
      };
      const finish = (done: boolean) => {
        clearTimeout(timer);
        listeners.delete(check);
        resolve(done);
      };
      const timer = setTimeout(() => finish(enough(messages)), timeoutMs);
      listeners.add(check);
      check();
    });
  const close = async (graceMs = 1_000) => {
    if (ws.readyState === WebSocket.CLOSED) return true;
    ws.close(1000);
    const answered = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), graceMs))]);
    if (!answered) ws.terminate();
    await closed;
    return answered;
  };
  return new Promise((resolve) => {
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ refused: true, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    ws.once('open', () => {
      if (o.request !== undefined) ws.send(typeof o.request === 'string' ? o.request : JSON.stringify(o.request));
      resolve({ refused: false, protocol: ws.protocol, messages, waitFor, closed, close });
    });
  });
}

export interface ChannelRead {
  refused?: Refused;
  protocol?: string;
  messages: Json[];
  /** The node's close; undefined when the read stopped first (`most` messages, or the timeout). */
  close?: CloseFrame;
}

/**
 * A whole read: the messages until the node closes, or until `most` of them came, or `timeoutMs` passed (then
 * the client closes).
 */
export async function readChannel(n: RunningReferenceNode, path: string, o: ChannelOptions & { most?: number; timeoutMs?: number } = {}): Promise<ChannelRead> {
  const ch = await openChannel(n, path, o);
  if (ch.refused) return { refused: ch, messages: [] };
  const most = o.most ?? Number.POSITIVE_INFINITY;
  await ch.waitFor((ms) => ms.length >= most, o.timeoutMs ?? 5_000);
  const close = await Promise.race([ch.closed, Promise.resolve(undefined)]);
  if (!close) await ch.close(200);
  return { protocol: ch.protocol, messages: ch.messages.slice(0, most), close };
}
