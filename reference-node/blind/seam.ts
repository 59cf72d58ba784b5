// The seam blind faults are written against: a rewrite of the node's answer to one request, and of the
// messages of one WebSocket channel as they go out. Authors of blind faults read the description, the facts
// and the node's answers, never the suite's checks, so a blind fault sees only what a client sees (the
// request and the answer, or the channel's request and messages) and changes only what a client would
// receive. A round's faults live in `round-<n>/`, apart from the catalog's own (../faults.ts).
import type { InterfaceName } from '../../common/vocabulary.ts';

/** A request as the node received it. */
export interface BlindRequest {
  method: string;
  /** The path without the query, e.g. "/api/scan/v0/dso" or "/v2/updates". */
  path: string;
  /** The query parameters; a repeated one is an array. */
  query: Readonly<Record<string, string | string[]>>;
  /** The parsed JSON body (undefined when none or not JSON). */
  body: unknown;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** An answer of the node, as a client would receive it. */
export interface BlindAnswer {
  status: number;
  /** The content type (e.g. "application/json", "text/plain; charset=UTF-8"). */
  contentType: string;
  /** The parsed JSON body for a JSON answer, else the text. */
  body: unknown;
}

/** A WebSocket channel of the node, once its client sent the request. */
export interface BlindChannel {
  /** The node's channels numbered in the order they opened, from 1: a fault's memory can tell them apart. */
  id: number;
  /** The path of the upgrade, without the query, e.g. "/v2/updates". */
  path: string;
  /** The request message, parsed (the text when it is not JSON). */
  request: unknown;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * What the node is about to do on a channel: send a message (an error message too), the `n`-th handed to the
 * fault on this channel (from 0), or close the channel (a bounded read delivered, an error sent; not when the
 * client closed it nor when the node stops, which leave nothing to send).
 */
export type BlindChannelEvent = { kind: 'message'; message: unknown; n: number } | { kind: 'close'; code: number; reason: string };

export interface BlindFault {
  /** `blind-r<round>-<interface>-<what it breaks>`, e.g. "blind-r1-scan-holdings-page-overflows". */
  name: string;
  round: number;
  interface: InterfaceName;
  /** The sentence of the description it breaks, quoted (the seed copy's words). */
  breaks: string;
  /** The numbers of the sentences `breaks` quotes (description/sentences/), read from the quote after the round was written. */
  cites: readonly string[];
  /**
   * The answer the faulty node gives instead, or undefined to leave the node's answer as it is. Deterministic:
   * the same requests in the same order give the same answers. `memory` is the fault's own, for the node's
   * life (to remember what it answered before).
   */
  rewrite(request: BlindRequest, answer: BlindAnswer, memory: Map<string, unknown>): BlindAnswer | undefined;
  /**
   * WebSocket channels (optional): the messages the client receives instead of a message, or before the close
   * (none, one or several; a string goes out as it is, anything else as JSON), or undefined to leave the event
   * as it is. Holding a message back (answering none) and sending it later is a reorder. Deterministic as
   * `rewrite`, with the same `memory`. The messages of one fault are the next fault's.
   */
  rewriteChannel?(channel: BlindChannel, event: BlindChannelEvent, memory: Map<string, unknown>): unknown[] | undefined;
}

/** A round's faults, each named with its round's prefix. */
export function blindRound(round: number, faults: readonly Omit<BlindFault, 'round'>[]): readonly BlindFault[] {
  return faults.map((f) => {
    if (!f.name.startsWith(`blind-r${round}-${f.interface}-`)) throw new Error(`blind fault ${f.name}: its name must start blind-r${round}-${f.interface}-`);
    return { ...f, round };
  });
}
