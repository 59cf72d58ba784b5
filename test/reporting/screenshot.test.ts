// `npm run report:screenshot` (scripts/screenshot-report.sh): the PNG is the whole page, however tall, not
// the first window of it; the report to render is an argument, which its usage names with its default.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/screenshot-report.sh', import.meta.url));
const hasChromium = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).status === 0;
const screenshot = (...args: string[]) => spawnSync('bash', [script, ...args], { encoding: 'utf8', timeout: 90_000 });

/** Width and height of a PNG, from its IHDR chunk (bytes 16 to 23). */
function pngSize(file: string): { width: number; height: number } {
  const head = readFileSync(file).subarray(0, 24);
  expect(head.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

describe('the report screenshot', () => {
  it('says in its usage that it takes the report path, and which one it renders by default', () => {
    const help = screenshot('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: scripts\/screenshot-report\.sh \[REPORT_HTML\] \[WIDTH\]/);
    expect(help.stdout).toContain('default: reports/latest/report.html');
    const unknown = screenshot('--full');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^Usage:/);
  });

  it.skipIf(!hasChromium)(
    hasChromium
      ? 'is the whole page, 5000 px tall at 1280 px wide, written beside the report'
      : 'skipped: chromium is not installed (apt-get install chromium)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'cn-screenshot-test-'));
      const html = join(dir, 'tall.html');
      writeFileSync(
        html,
        '<!doctype html><html><body style="margin:0"><div style="height:4990px;background:#eee">top</div><div style="height:10px;background:red"></div></body></html>',
      );
      const run = screenshot(html);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(join(dir, 'tall.png'));
      expect(pngSize(join(dir, 'tall.png'))).toEqual({ width: 1280, height: 5000 });
      // A narrower width lays the page out at that width, still whole.
      expect(screenshot(html, '800').status).toBe(0);
      expect(pngSize(join(dir, 'tall.png'))).toEqual({ width: 800, height: 5000 });
    },
    120_000,
  );
});
