// An exchange with the target as evidence keeps it, whatever carried it: what was sent, an excerpt of what
// came back, and a line that reproduces the exchange from a shell, secrets shown as references to the
// variables holding them (redaction.ts). Reporters render `reproduce(x)` without knowing the transport; only
// the part showing what was sent and received is the transport's own.

/** An HTTP exchange: the request, an excerpt of the answer and the curl line that reproduces it. */
export interface HttpExchangeSummary {
  /** Absent in reports: evidence without a transport is an HTTP exchange (as in every report before a second transport). */
  transport?: 'http';
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; bodyExcerpt: string; bodyBytes: number };
  error?: string;
  curl: string;
  durationMs: number;
}

/**
 * A WebSocket channel (the ledger's update, completion and active-contract streams): where it was opened, the
 * messages both ways and the websocat line that opens it again (websocket.ts writes it).
 */
export interface WebSocketExchangeSummary {
  transport: 'websocket';
  /** The channel's ws:// or wss:// URL and the subprotocols offered (a credential among them shown as `$VARIABLE` or ***). */
  channel: { url: string; subprotocols: string[] };
  /** Messages sent, in order (excerpts). */
  sent: string[];
  /** Messages received, in order: each one's start and size (the first few and the last few). */
  received: Array<{ excerpt: string; bytes: number }>;
  /** Messages received between the first few and the last few, not quoted. */
  omitted?: number;
  /** How the channel was closed, when it was, and who closed it first. */
  close?: { code: number; reason: string; by?: 'node' | 'client' };
  error?: string;
  websocat: string;
  durationMs: number;
}

export type ExchangeSummary = HttpExchangeSummary | WebSocketExchangeSummary;

/** The line that reproduces the exchange when pasted into a shell, and the tool it runs. */
export function reproduction(x: ExchangeSummary): { tool: 'curl' | 'websocat'; line: string } {
  return x.transport === 'websocket' ? { tool: 'websocat', line: x.websocat } : { tool: 'curl', line: x.curl };
}

/** The line that reproduces the exchange (a curl line, a websocat line), as pasted into a shell. */
export const reproduce = (x: ExchangeSummary): string => reproduction(x).line;

/** The evidence when it is an HTTP exchange's (the parts of a report that speak of statuses and operations). */
export function httpEvidence(x: ExchangeSummary | undefined): HttpExchangeSummary | undefined {
  return x && x.transport !== 'websocket' ? x : undefined;
}

/** Whether `x` is evidence already, not a transport's exchange waiting to be summarised: every summary carries its reproduction line. */
export const isSummary = (x: object): x is ExchangeSummary => 'curl' in x || 'websocat' in x;
