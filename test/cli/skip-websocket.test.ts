// --skip-websocket: a target behind a gateway that does not upgrade. The requirements reading the ledger's
// channels are not judged, with that reason (never passed), the coverage says so, and a certification run is
// incomplete for them; without the flag the same requirements are judged over the channels.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../reporting/model.ts';
import { cliInProcess } from '../support/cli-in-process.ts';

const ONLY = ['--only', 'LEDGER-WEBSOCKET-BAD-REQUEST,LEDGER-UPDATES-ONE-KIND-WS', '--runs', '1'];

async function run(extra: string[]): Promise<{ code: number; stdout: string; report: ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'cn-skip-ws-'));
  const { code, stdout } = await cliInProcess(['run', ...ONLY, '--report-dir', dir, '--no-allure', ...extra]);
  return { code, stdout, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as ConformanceReport };
}

describe('--skip-websocket', () => {
  it('reports the channels not judged, with the reason, and a certification incomplete', async () => {
    const skipped = await run(['--skip-websocket', '--certify']);
    expect(skipped.code).toBe(4);
    for (const r of skipped.report.requirements) {
      expect(r.status, r.id).toBe('skipped');
      expect(r.skipKind, r.id).toBe('websocket');
      expect(r.reason).toMatch(/reads the WebSocket channel \/v2\/updates, which this run does not open \(--skip-websocket/);
    }
    expect(skipped.report.channels?.find((c) => c.channel === '/v2/updates')).toMatchObject({ judged: 0, statusesSeen: [] });
    expect(skipped.stdout).toContain('WebSocket channels judged: 0 of 4');
    expect(skipped.report.config).toMatchObject({ skipWebSocket: true });
  });

  it('without it the same requirements are judged over the channels', async () => {
    const judged = await run([]);
    expect(judged.code).toBe(0);
    expect(judged.report.requirements.map((r) => r.status)).toEqual(['passed', 'passed']);
    expect(judged.report.channels?.find((c) => c.channel === '/v2/updates')).toMatchObject({ judged: 2, passed: 2, statusesSeen: [101] });
  });
});
