// One WebSocket channel of the ledger as its handlers see it: the request the client sends first, then the node's
// messages, each written once the client has read enough of the earlier ones (backpressure), as the client
// receives them (offsets shifted, through the blind faults' seam), until either side closes.
import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawData, WebSocket } from 'ws';
import { BlindChannelRewrite } from '../../blind/channel.ts';
import type { BlindFaults } from '../../blind/hook.ts';
import type { OffsetShift } from '../offset-shift.ts';

/** Bytes a channel lets wait in its socket before it waits for the client to read them. */
const HIGH_WATER_BYTES = 256 * 1024;
/** Messages written between two turns of the event loop, so a close, a timer or another channel gets its turn. */
const MESSAGES_PER_TURN = 64;
/** How long a stopping node waits for a client to answer its close before it drops the connection. */
const SHUTDOWN_GRACE_MS = 200;

/** The request message: its JSON value, or its text when it is not JSON. */
export type ChannelRequest = { json: unknown } | { text: string; error: string };

/** Lets the event loop turn once. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ChannelOptions {
  id: number;
  path: string;
  headers: IncomingHttpHeaders;
  blind: BlindFaults;
  shift?: OffsetShift;
  /** ledger-ws-close-ignored: a close the client starts is never answered. */
  closeIgnored: boolean;
}

export class Channel {
  /** Resolves once the connection is gone: the close handshake done, or the socket ended. */
  readonly gone: Promise<void>;
  private isGone = false;
  /** The node has started to close the channel. */
  private closing = false;
  private written = 0;
  /** The socket holds the messages of this turn, written out together at its end (one write, not one per message). */
  private corked = false;
  private blind?: BlindChannelRewrite;

  constructor(
    private readonly ws: WebSocket,
    private readonly options: ChannelOptions,
  ) {
    this.gone = new Promise((resolve) =>
      ws.once('close', () => {
        this.isGone = true;
        resolve();
      }),
    );
    // A frame over the payload limit or a broken one: ws closes the connection itself (1009, 1002).
    ws.on('error', () => {});
    if (options.closeIgnored) {
      // ws answers a client's close frame by calling close(): the node's own closes alone go out.
      const close = ws.close.bind(ws);
      ws.close = (code?: number, reason?: string | Buffer) => {
        if (this.closing) close(code, reason);
      };
    }
  }

  /** Whether the node may still send: not once either side closed, nor while a client's close is unanswered (ws's own state). */
  get open(): boolean {
    return !this.isGone && !this.closing && this.ws.readyState === this.ws.OPEN;
  }

  /** The first message, or undefined when the client left or sent nothing within `waitMs`. */
  request(waitMs: number): Promise<ChannelRequest | undefined> {
    return new Promise((resolve) => {
      const done = (request: ChannelRequest | undefined) => {
        clearTimeout(timer);
        this.ws.off('message', onMessage);
        if (request) this.startBlind('json' in request ? request.json : request.text);
        resolve(request);
      };
      // A Buffer: ws's default binaryType, fragments joined.
      const onMessage = (data: RawData) => done(this.parsed(data as Buffer));
      const timer = setTimeout(() => done(undefined), waitMs);
      this.ws.on('message', onMessage);
      void this.gone.then(() => done(undefined));
    });
  }

  /** Sends a message (a string as it is, anything else as JSON); resolves once the client may be sent more. */
  async send(message: unknown): Promise<void> {
    const shifted = this.options.shift ? this.options.shift.answer(message) : message;
    for (const m of this.blind ? this.blind.message(shifted) : [shifted]) await this.write(m);
  }

  /** Closes the channel from the node's side, after whatever the blind faults send before a close. */
  async close(code: number, reason = ''): Promise<void> {
    if (!this.open) return;
    for (const m of this.blind?.close(code, reason) ?? []) await this.write(m);
    this.closing = true;
    this.ws.close(code, reason);
  }

  /** The node stops: a close (1001), and the connection dropped unless the client answers it at once. */
  async shutdown(): Promise<void> {
    this.closing = true;
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(1001, 'the node stops');
    await Promise.race([this.gone, sleep(SHUTDOWN_GRACE_MS)]);
    this.ws.terminate();
  }

  private parsed(data: Buffer): ChannelRequest {
    const text = data.toString('utf8');
    try {
      const json: unknown = JSON.parse(text);
      return { json: this.options.shift ? this.options.shift.request(json) : json };
    } catch (e) {
      return { text, error: `the request message is not valid JSON: ${(e as Error).message}` };
    }
  }

  private startBlind(request: unknown): void {
    if (this.options.blind.length === 0) return;
    const { id, path, headers } = this.options;
    this.blind = new BlindChannelRewrite(this.options.blind, { id, path, request, headers });
  }

  private async write(message: unknown): Promise<void> {
    if (!this.open) return;
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    this.cork();
    const flushed = new Promise<void>((resolve) => this.ws.send(text, () => resolve()));
    if (this.ws.bufferedAmount > HIGH_WATER_BYTES) await Promise.race([flushed, this.gone]);
    if (++this.written % MESSAGES_PER_TURN === 0) await nextTurn();
  }

  private cork(): void {
    const socket = (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (this.corked || !socket) return;
    this.corked = true;
    socket.cork();
    setImmediate(() => {
      this.corked = false;
      socket.uncork();
    });
  }
}
