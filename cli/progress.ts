// The live progress of a run: per interface, requirements done of total, failures and unsupported so far, and
// what is in flight (how many, and the one running longest). On a
// terminal one line is redrawn in place; in a log (CI) a line is printed when an interface finishes, and
// at most every few seconds while one is running, so a slow target never leaves a silent log.
import type { InterfaceName } from '../engine/model.ts';
import type { RequirementResult } from '../engine/engine.ts';

interface Tally {
  done: number;
  total: number;
  failed: number;
  errors: number;
  unsupported: number;
}

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export class Progress {
  private readonly tallies = new Map<InterfaceName, Tally>();
  /** Requirements started and not yet done, oldest first. */
  private readonly inFlight = new Set<string>();
  private lastLogAt: number;

  constructor(
    selected: ReadonlyArray<{ interface: InterfaceName }>,
    private readonly out: ProgressSink = process.stdout,
    private readonly now: () => number = Date.now,
    private readonly logEveryMs = 5_000,
  ) {
    for (const r of selected) {
      const t = this.tallies.get(r.interface) ?? { done: 0, total: 0, failed: 0, errors: 0, unsupported: 0 };
      t.total++;
      this.tallies.set(r.interface, t);
    }
    this.lastLogAt = now();
  }

  /** A requirement starts; shown until its result is recorded. */
  began(id: string): void {
    this.inFlight.add(id);
  }

  record(result: RequirementResult): void {
    this.inFlight.delete(result.id);
    const t = this.tallies.get(result.interface);
    if (!t) return;
    t.done++;
    if (result.status === 'failed') t.failed++;
    if (result.status === 'error') t.errors++;
    if (result.status === 'unsupported') t.unsupported++;
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${this.line()}`);
    } else if (t.done === t.total) {
      this.out.write(`  ${result.interface.padEnd(8)} ${this.describe(t)}\n`);
      this.lastLogAt = this.now();
    } else if (this.now() - this.lastLogAt >= this.logEveryMs) {
      this.out.write(`  ${this.line()}\n`);
      this.lastLogAt = this.now();
    }
  }

  /** Ends the redrawn line so that what follows starts on its own. */
  finish(): void {
    if (this.out.isTTY && this.tallies.size > 0) this.out.write(`\r\x1b[2K${this.line()}\n`);
  }

  private describe(t: Tally): string {
    return `${t.done}/${t.total}${t.failed ? `, ${t.failed} failed` : ''}${t.unsupported ? `, ${t.unsupported} unsupported` : ''}${t.errors ? `, ${t.errors} error` : ''}`;
  }

  line(): string {
    const oldest = this.inFlight.values().next().value;
    const running = oldest === undefined ? [] : [`in flight ${this.inFlight.size} (longest: ${oldest})`];
    return [...[...this.tallies].map(([name, t]) => `${name} ${this.describe(t)}`), ...running].join('  |  ');
  }
}
