import { describe, expect, it } from 'vitest';
import { Progress } from '../../cli/progress.ts';
import type { RequirementResult } from '../../engine/engine.ts';

const result = (iface: 'ledger' | 'scan', status: RequirementResult['status']): RequirementResult => ({
  id: 'X',
  level: 'MUST',
  interface: iface,
  operations: [],
  section: '',
  sentence: '',
  mutates: false,
  status,
  durationMs: 1,
});

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, out: { isTTY, write: (t: string) => writes.push(t) } };
}

describe('the live progress line', () => {
  const selected = [{ interface: 'ledger' as const }, { interface: 'ledger' as const }, { interface: 'scan' as const }];

  it('on a terminal, redraws one line with every interface: done/total and failures so far', () => {
    const { writes, out } = sink(true);
    const p = new Progress(selected, out);
    p.record(result('ledger', 'failed'));
    expect(writes.at(-1)).toBe('\r\x1b[2Kledger 1/2, 1 failed  |  scan 0/1');
    p.record(result('ledger', 'passed'));
    p.record(result('scan', 'unsupported'));
    p.finish();
    // Unsupported apart from failed: the target does not serve what the requirement needs.
    expect(writes.at(-1)).toBe('\r\x1b[2Kledger 2/2, 1 failed  |  scan 1/1, 1 unsupported\n');
  });

  it('in a log, prints a line when an interface finishes and at most every interval while it runs', () => {
    const { writes, out } = sink(false);
    let now = 0;
    const p = new Progress(selected, out, () => now, 5_000);
    p.record(result('ledger', 'failed'));
    expect(writes).toEqual([]);
    now = 6_000;
    p.record(result('ledger', 'passed'));
    expect(writes).toEqual(['  ledger   2/2, 1 failed\n']);
    now = 7_000;
    p.record(result('scan', 'passed'));
    p.finish();
    expect(writes).toEqual(['  ledger   2/2, 1 failed\n', '  scan     1/1\n']);
  });

  it('shows how many requirements are in flight and the one running longest', () => {
    const { writes, out } = sink(true);
    const p = new Progress(selected, out);
    p.began('X');
    p.began('Y');
    p.began('Z');
    p.record(result('ledger', 'passed'));
    expect(writes.at(-1)).toBe('\r\x1b[2Kledger 1/2  |  scan 0/1  |  in flight 2 (longest: Y)');
  });

  it('while an interface runs long, the log gets the whole line every interval', () => {
    const { writes, out } = sink(false);
    let now = 0;
    const p = new Progress([...selected, { interface: 'ledger' }], out, () => now, 5_000);
    now = 5_000;
    p.record(result('ledger', 'passed'));
    expect(writes).toEqual(['  ledger 1/3  |  scan 0/1\n']);
  });
});
