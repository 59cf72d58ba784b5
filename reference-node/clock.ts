// The simulated ledger clock. Time only passes when the node is used (wallet calls, commands, tests); the
// automation's work (an offer expiring, an accepted offer completed) is scheduled at a ledger time and runs
// when the clock reaches it, in time order, with the clock standing at that time. So a seed and a request
// sequence always give the same ledger, and no test waits for wall-clock time.

interface Scheduled {
  atMicros: number;
  /** Scheduling order, to keep ties in the order they were scheduled. */
  seq: number;
  run: () => void;
}

export class SimulatedClock {
  private current: number;
  private readonly pending: Scheduled[] = [];
  private seq = 0;

  constructor(startMicros: number) {
    this.current = startMicros;
  }

  now(): number {
    return this.current;
  }

  /** Moves the clock on by `micros`, running what falls due on the way; the new now. */
  advance(micros: number): number {
    const target = this.current + micros;
    this.runUntil(target);
    this.current = Math.max(this.current, target);
    return this.current;
  }

  /** Runs `run` once the clock reaches `atMicros` (at the next advance when that is not after now). */
  schedule(atMicros: number, run: () => void): void {
    this.pending.push({ atMicros, seq: this.seq++, run });
  }

  /**
   * Runs everything due at or before `atMicros`, moving the clock to each one's time (never back), without
   * going on to `atMicros` itself: a command recorded at that time then follows what fell due before it.
   */
  runUntil(atMicros: number): void {
    for (;;) {
      const due = this.pending.filter((s) => s.atMicros <= atMicros);
      if (due.length === 0) return;
      const next = due.reduce((a, b) => (b.atMicros < a.atMicros || (b.atMicros === a.atMicros && b.seq < a.seq) ? b : a));
      this.pending.splice(this.pending.indexOf(next), 1);
      this.current = Math.max(this.current, next.atMicros);
      next.run();
    }
  }
}
