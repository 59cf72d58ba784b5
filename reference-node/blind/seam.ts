// The seam blind faults are written against: a rewrite of the node's answer to one request. Authors of
// blind faults read the description, the facts and the node's answers, never the suite's checks, so a
// blind fault sees only what a client sees (the request and the answer) and changes only what a client
// would receive. A round's faults live in `round-<n>/`, apart from the catalog's own (../faults.ts).
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
}

/** A round's faults, each named with its round's prefix. */
export function blindRound(round: number, faults: readonly Omit<BlindFault, 'round'>[]): readonly BlindFault[] {
  return faults.map((f) => {
    if (!f.name.startsWith(`blind-r${round}-${f.interface}-`)) throw new Error(`blind fault ${f.name}: its name must start blind-r${round}-${f.interface}-`);
    return { ...f, round };
  });
}
