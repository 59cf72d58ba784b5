// Every exchange of a run on record, for the HAR file (reporting/har.ts): what was sent and what came back,
// secrets as evidence shows them, bodies cut at a bound so that a long run costs bounded memory, and who
// sent it. Who is carried by the async context rather than by the client: a check may make a client of its
// own (requirements/scan/bulk.ts), checks run side by side, and a shared read belongs to the check that set
// it off. One record per run, passed in ContextParts; nothing outlives the run.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sharedRead } from './run-cache.ts';
import type { Exchange } from './transport/http.ts';
import { redactHeaders } from './transport/redaction.ts';

/** Bytes of each body (request and answer) the record keeps: enough to read in a network panel. */
export const RECORDED_BODY_BYTES = 64 * 1024;

/** Who sent an exchange: a requirement's check, or a step of the run (the preflight, fixture discovery...). */
export type Sender = { requirement: string } | { step: string };

/** The sender of an exchange made outside any requirement and any named step (a library caller's own request). */
const NO_STEP: Sender = { step: 'the run' };

export interface RecordedExchange {
  /** When the request went out: when it ended less its duration. */
  startedAt: Date;
  durationMs: number;
  by: Sender;
  /** The key of the shared read (see RunCache) that made it: its answer served every check that asked. */
  shared?: string;
  method: string;
  url: string;
  /** The request headers as evidence shows them: credentials as `$VARIABLE` references or ***, never as sent. */
  requestHeaders: Record<string, string>;
  /** The request body's start and its full size in bytes. */
  requestBody?: { text: string; bytes: number };
  /** 0: no answer came (see `error`). */
  status: number;
  responseHeaders: Record<string, string>;
  /** The body's first RECORDED_BODY_BYTES (of what the client kept). */
  body: Buffer;
  /** Body bytes received (for a body the client cut: at least this many). */
  received: number;
  /** The client kept only an excerpt: the body exceeded the run's size bound. */
  cutByClient: boolean;
  error?: string;
}

export class ExchangeRecord {
  readonly #who = new AsyncLocalStorage<Sender>();
  readonly #entries: RecordedExchange[] = [];

  /** Runs `work` as `who`: the exchanges it makes, and those of what it sets off, are theirs. */
  as<T>(who: Sender, work: () => T): T {
    return this.#who.run(who, work);
  }

  /** The exchanges so far, in the order they ended. */
  entries(): readonly RecordedExchange[] {
    return this.#entries;
  }

  /** Keeps an exchange a client made (ClientConfig.onExchange); one the client never sent (a stalled interface) is none. */
  note(x: Exchange): void {
    if (x.errorCode === 'STALLED') return;
    const requestBytes = x.requestBody === undefined ? 0 : Buffer.byteLength(x.requestBody);
    const shared = sharedRead.getStore();
    this.#entries.push({
      startedAt: new Date(Date.now() - x.durationMs),
      durationMs: x.durationMs,
      by: this.#who.getStore() ?? NO_STEP,
      ...(shared ? { shared } : {}),
      method: x.method,
      url: x.url,
      requestHeaders: { ...(x.shownHeaders ?? redactHeaders(x.requestHeaders)) },
      ...(x.requestBody === undefined ? {} : { requestBody: { text: cut(x.requestBody), bytes: requestBytes } }),
      status: x.status,
      responseHeaders: { ...x.headers },
      // A copy: a view would pin the whole body until the run ends.
      body: Buffer.from(x.bytes.subarray(0, RECORDED_BODY_BYTES)),
      received: x.received,
      cutByClient: x.truncated,
      ...(x.error ? { error: x.error } : {}),
    });
  }
}

/** A copy of the text's first RECORDED_BODY_BYTES bytes (a character cut in two is dropped). */
function cut(text: string): string {
  if (text.length * 3 <= RECORDED_BODY_BYTES) return Buffer.from(text, 'utf8').toString('utf8');
  return Buffer.from(text, 'utf8')
    .subarray(0, RECORDED_BODY_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}
