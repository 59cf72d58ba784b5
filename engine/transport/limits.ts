// What every transport of a run asks before it sends a request and tells once the request ended: the run's
// request budget and pace, and per interface the requests in flight and whether the target stalled. One
// object per run, held by every transport, so that a second transport to an interface (the ledger's
// WebSocket stream) spends the same budget and counts against the same bounds: no transport keeps these.

export class BudgetExhausted extends Error {}

/**
 * Timeouts in a row after which an interface gets no more requests: a target that answers nothing would
 * otherwise cost every remaining request its full timeout (10 s x thousands). What is not sent fails as
 * unanswered.
 */
export const STALLED_AFTER = 8;

/** Time as the limits see it (a test brings its own, so that pacing is judged without racing the clock). */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_TIME: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

export interface LimitSettings {
  /** Requests the run may send (--max-requests); unbudgeted ones (a reachability probe) are not counted. */
  maxRequests: number;
  /** Milliseconds between two requests of the run at least (unset: as fast as the target answers). */
  intervalMs?: number;
  /** Requests in flight to one interface at most (unset: no bound); a request's timeout starts once it is sent. */
  maxInFlight?: number;
  clock?: Clock;
}

/** How a request ended, as stall detection counts it. */
export type Outcome = 'answered' | 'timed out' | 'failed' | 'not sent';

/** One request's permission to go out. */
export interface Turn {
  /** The interface counts as stalled: send nothing (the request fails as unanswered, and still ends its turn). */
  readonly stalled: boolean;
  /** How the request ended; frees its place for the next. Only the first call counts. */
  end(outcome: Outcome): void;
}

/** What the run knows of one interface, whichever transport talks to it. */
class Lane {
  /** Requests in a row that got no answer within the timeout. */
  timeoutsInARow = 0;
  /** Whether any request got an answer yet. */
  answered = false;
  /** The end of the last request sent one at a time, before the first answer (see RunLimits.turn). */
  oneAtATime: Promise<void> = Promise.resolve();
  inFlight = 0;
  /** Requests waiting for one in flight to end (maxInFlight), first come first served. */
  readonly waiting: Array<() => void> = [];
}

export class RunLimits {
  private remaining: number;
  /** When the run's next request may go out (pacing). */
  private nextAt = 0;
  private readonly lanes = new Map<string, Lane>();
  private readonly clock: Clock;

  constructor(readonly settings: LimitSettings) {
    this.remaining = settings.maxRequests;
    this.clock = settings.clock ?? REAL_TIME;
  }

  /** Requests the budget still allows. */
  get remainingRequests(): number {
    return this.remaining;
  }

  /**
   * Waits until a request to the interface `lane` may go out; the caller sends it unless the turn says the
   * interface stalled, then ends the turn. Throws BudgetExhausted, before any wait, when the budget is used
   * up (unless `unbudgeted`).
   */
  async turn(lane: string, options: { unbudgeted?: boolean } = {}): Promise<Turn> {
    if (!options.unbudgeted) {
      if (this.remaining <= 0) throw new BudgetExhausted("the run's request budget (--max-requests) is used up");
      this.remaining--;
    }
    const l = this.laneOf(lane);
    // Until the interface has answered, requests go one at a time: concurrent checks would otherwise each spend
    // a timeout on a target that answers nothing before it counts as stalled. (Not after a later timeout: one
    // slow answer would then hold up every check behind it.)
    let release = () => {};
    if (!l.answered) {
      const previous = l.oneAtATime;
      l.oneAtATime = new Promise((r) => (release = r));
      await previous;
    }
    const leave = await this.slot(l);
    await this.pace();
    let ended = false;
    return {
      stalled: l.timeoutsInARow >= STALLED_AFTER,
      end: (outcome) => {
        if (ended) return;
        ended = true;
        if (outcome === 'answered') {
          l.timeoutsInARow = 0;
          l.answered = true;
        } else if (outcome === 'timed out') l.timeoutsInARow++;
        else if (outcome === 'failed') l.timeoutsInARow = 0;
        leave();
        release();
      },
    };
  }

  private laneOf(key: string): Lane {
    let l = this.lanes.get(key);
    if (!l) this.lanes.set(key, (l = new Lane()));
    return l;
  }

  /** Waits until fewer than maxInFlight requests are in flight on the lane; what ends this one. */
  private async slot(l: Lane): Promise<() => void> {
    const max = this.settings.maxInFlight;
    if (!max) return () => {};
    while (l.inFlight >= max) await new Promise<void>((r) => l.waiting.push(r));
    l.inFlight++;
    return () => {
      l.inFlight--;
      l.waiting.shift()?.();
    };
  }

  /** Spaces requests at the run's rate; the slot is taken before waiting, so concurrent callers queue up. */
  private async pace(): Promise<void> {
    const interval = this.settings.intervalMs;
    if (!interval) return;
    const now = this.clock.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + interval;
    if (at > now) await this.clock.sleep(at - now);
  }
}
