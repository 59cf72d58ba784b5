// The run's limits as any transport meets them: a budget every request spends, a pace every request keeps,
// a bound on requests in flight per interface, and an interface that stops getting requests once it stalled.
// No transport here, only turns asked for and ended; the clock is the test's, so nothing races it.
import { describe, expect, it } from 'vitest';
import { BudgetExhausted, type Clock, RunLimits, STALLED_AFTER, type Turn } from '../../engine/transport/limits.ts';

/** A clock that stands still and only notes how long it was asked to wait. */
function stillClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: () => 1_000, sleep: async (ms) => void waits.push(ms) };
}

/** Whether a promise has settled, once everything already queued has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

/** An interface that has answered once (before that, requests to it go one at a time). */
async function answered(limits: RunLimits, lane: string): Promise<void> {
  (await limits.turn(lane)).end('answered');
}

describe('the run limits', () => {
  it('spend one budget across interfaces and transports, and refuse once it is used up', async () => {
    const limits = new RunLimits({ maxRequests: 2 });
    (await limits.turn('ledger')).end('answered');
    (await limits.turn('ledger-stream')).end('answered');
    expect(limits.remainingRequests).toBe(0);
    await expect(limits.turn('scan')).rejects.toBeInstanceOf(BudgetExhausted);
    // A request outside the budget (the reachability probe) still goes.
    const probe = await limits.turn('scan', { unbudgeted: true });
    expect(probe.stalled).toBe(false);
    probe.end('answered');
  });

  it('pace every request of the run, whichever interface or transport sends it', async () => {
    const clock = stillClock();
    const limits = new RunLimits({ maxRequests: 10, intervalMs: 100, clock });
    for (const lane of ['ledger', 'ledger-stream', 'scan']) (await limits.turn(lane)).end('answered');
    expect(clock.waits).toEqual([100, 200]);
  });

  it('send one request at a time to an interface until it has answered', async () => {
    const limits = new RunLimits({ maxRequests: 10 });
    const first = await limits.turn('ledger');
    const second = limits.turn('ledger');
    expect(await settled(second)).toBe(false);
    // Another interface is not held up.
    (await limits.turn('scan')).end('answered');
    first.end('answered');
    (await second).end('answered');
    const [a, b] = await Promise.all([limits.turn('ledger'), limits.turn('ledger')]);
    a.end('answered');
    b.end('answered');
  });

  it('keep at most maxInFlight requests in flight to one interface, the waiting ones served in order', async () => {
    const limits = new RunLimits({ maxRequests: 20, maxInFlight: 2 });
    await answered(limits, 'ledger');
    await answered(limits, 'scan');
    const inFlight: Turn[] = [await limits.turn('ledger'), await limits.turn('ledger')];
    const third = limits.turn('ledger');
    const fourth = limits.turn('ledger');
    expect(await settled(third)).toBe(false);
    // The bound is per interface: another one still gets its requests out.
    (await limits.turn('scan')).end('answered');
    inFlight[0]!.end('answered');
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(false);
    // Ending a turn twice frees one place only.
    inFlight[0]!.end('answered');
    expect(await settled(fourth)).toBe(false);
    inFlight[1]!.end('failed');
    expect(await settled(fourth)).toBe(true);
    (await third).end('answered');
    (await fourth).end('answered');
  });

  it(`count an interface as stalled after ${STALLED_AFTER} timeouts in a row, and only that one`, async () => {
    const limits = new RunLimits({ maxRequests: 100 });
    await answered(limits, 'ledger');
    await answered(limits, 'scan');
    const timeouts = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const t = await limits.turn('ledger');
        expect(t.stalled).toBe(false);
        t.end('timed out');
      }
    };
    // A failure that is no timeout (a reset connection) breaks the row.
    await timeouts(STALLED_AFTER - 1);
    (await limits.turn('ledger')).end('failed');
    await timeouts(STALLED_AFTER);
    for (let i = 0; i < 2; i++) {
      const t = await limits.turn('ledger');
      expect(t.stalled).toBe(true);
      t.end('not sent');
    }
    const other = await limits.turn('scan');
    expect(other.stalled).toBe(false);
    other.end('answered');
  });
});
