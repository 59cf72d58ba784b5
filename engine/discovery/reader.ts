// The one way a discovery source reads the target: each request bounded by the run's timeout and budget,
// each source by its pages and time; what every answer was (served, refused, unusable) is kept for the
// source's report line. Answers are judged by the run's answer log through the observed client.
import { parseJson, type Json } from '../../common/json.ts';
import { bodyTooDeep, excerpt } from '../transport/bounds.ts';
import { RequestNotSent, tooDeep, type Client, type Exchange, type RequestOptions } from '../transport/http.ts';
import { followTokens } from '../paging.ts';

export interface SourceBounds {
  /** Pages (requests of a walk) a source may read. */
  pages: number;
  /** Time a source may take, in milliseconds; it stops at the first request after it. */
  ms: number;
}

export const DISCOVERY_BOUNDS: SourceBounds = { pages: 5, ms: 20_000 };

/** Why a source ended without all it looked for, as the report says it. */
export type Shortfall = 'not served' | 'refused' | 'unusable answer' | 'no answer' | 'not sent' | 'stopped at its bound';

export class SourceStopped extends Error {}

export class SourceReader {
  requests = 0;
  pages = 0;
  private readonly startedAt = Date.now();
  /** The first thing that went wrong, with the answer's status. */
  shortfall?: { kind: Shortfall; detail: string };

  constructor(
    private readonly client: Client,
    readonly bounds: SourceBounds,
  ) {}

  get elapsedMs(): number {
    return Date.now() - this.startedAt;
  }

  /** "GET /api/scan/v0/dso": the endpoint as provenance names it. */
  endpoint(method: string, path: string): string {
    return `${method} ${this.client.config.prefix}${path}`;
  }

  /**
   * The JSON body of a 200 answer, or undefined (the reason kept). Each call is one page of the source's
   * walk; past its pages or its time the source stops (SourceStopped).
   */
  async json(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<Json | undefined> {
    if (this.pages >= this.bounds.pages || this.elapsedMs >= this.bounds.ms) {
      this.fall('stopped at its bound', `${this.pages} page(s), ${this.elapsedMs} ms (bound: ${this.bounds.pages} pages, ${this.bounds.ms} ms)`);
      throw new SourceStopped();
    }
    this.pages++;
    this.requests++;
    let x: Exchange;
    try {
      x = await this.client.request(method, path, options);
    } catch (e) {
      // The suite's own request could not leave: the source learns nothing, the node is not to blame.
      if (e instanceof RequestNotSent) return this.fall('not sent', e.message);
      throw e;
    }
    return this.body(x, method, path);
  }

  private body(x: Exchange, method: string, path: string): Json | undefined {
    const where = this.endpoint(method, path);
    if (x.status === 0) return this.fall('no answer', `${where}: ${x.errorCode ?? x.error ?? 'no answer'}`);
    // A JSON 404 is the endpoint's own answer (nothing known for what was asked); other 404s, 405 and 501 say it is not there.
    if (x.status === 404 && parseJson(x.text) !== undefined) return this.fall('unusable answer', `${where} answered 404: ${excerpt(x.text, 160)}`);
    if ([404, 405, 501].includes(x.status)) return this.fall('not served', `${where} answered ${x.status}`);
    if (x.status === 401 || x.status === 403) return this.fall('refused', `${where} answered ${x.status}`);
    if (x.status !== 200) return this.fall('unusable answer', `${where} answered ${x.status}`);
    if (x.truncated) return this.fall('unusable answer', `${where}: the body is larger than the run's bound`);
    if (bodyTooDeep(x)) return this.fall('unusable answer', `${where}: ${tooDeep(x)}`);
    return parseJson(x.text) ?? this.fall('unusable answer', `${where}: the body is not JSON`);
  }

  /**
   * The items of a token-paged list, walked by the suite's one page walk (engine/paging.ts) within the pages
   * the source has left. `read` sends one page for a token and gives its items and next token, or undefined
   * when the answer holds no list (the walk ends, what came before is kept); `enough` ends it early.
   */
  async walk<T>(read: (token: unknown) => Promise<{ items: T[]; next: unknown } | undefined>, enough: () => boolean = () => false): Promise<T[] | undefined> {
    let listed = false;
    const items: T[] = [];
    const walk = await followTokens(
      async (token) => {
        const page = await read(token);
        listed ||= page !== undefined;
        items.push(...(page?.items ?? []));
        return { page: undefined, keys: (page?.items ?? []).map((item) => JSON.stringify(item)), next: page?.next };
      },
      Math.max(1, this.bounds.pages - this.pages),
      enough,
    );
    if (walk.end === 'bound' && !enough()) this.fall('stopped at its bound', `${this.pages} page(s) (bound: ${this.bounds.pages} pages)`);
    return listed ? items : undefined;
  }

  /** Records what went wrong (the first thing only) and gives undefined. */
  fall(kind: Shortfall, detail: string): undefined {
    this.shortfall ??= { kind, detail };
    return undefined;
  }
}
