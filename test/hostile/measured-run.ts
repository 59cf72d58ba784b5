// One `cn-conformance run` in a process of its own, for measuring its memory: the run's options come as
// JSON in argv[2]; the result (exit code, peak and resident memory) is written as JSON to argv[3].
// hostile-targets.test.ts runs the 50 MB target through it, so that no other test shares the figures.
import { writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { getGlobalDispatcher } from 'undici';
import { run, type RunOptions } from '../../cli/run.ts';

const options = JSON.parse(process.argv[2]!) as RunOptions;
const out = process.argv[3]!;
console.log = () => {};
process.stdout.write = () => true;
const rssBefore = process.memoryUsage().rss;
const maxRssBefore = process.resourceUsage().maxRSS * 1024;
const started = Date.now();
const { exitCode } = await run(options);
const maxRssAfter = process.resourceUsage().maxRSS * 1024;
// The client's connections may still be tearing down the last 50 MB bodies (slowly, on a loaded machine);
// their socket buffers are the pool's, not something the run kept: close the pool before measuring.
await getGlobalDispatcher().destroy();
writeFileSync(
  out,
  JSON.stringify({
    exitCode,
    millis: Date.now() - started,
    rssBefore,
    maxRssBefore,
    maxRssAfter,
    rssAfter: process.memoryUsage().rss,
    // After full collections: what the run still holds (nothing of the bodies, once it is over).
    retained: await retained(),
  }),
);

// Closed sockets give their buffers back only after their close events ran and a collection followed
// (one collection right after destroy() saw 33 MB on a loaded CI machine): collect between turns of the
// event loop until the figure stops falling, so that only what is still reachable is counted.
async function retained(): Promise<{ heapUsed: number; arrayBuffers: number } | undefined> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  let last = { heapUsed: Infinity, arrayBuffers: Infinity };
  for (let round = 0; round < 10; round++) {
    await delay(50);
    gc();
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    if (arrayBuffers >= last.arrayBuffers && heapUsed >= last.heapUsed) break;
    last = { heapUsed: Math.min(heapUsed, last.heapUsed), arrayBuffers: Math.min(arrayBuffers, last.arrayBuffers) };
  }
  return last;
}
// Keep-alive sockets of the HTTP client must not hold the measurement open.
process.exit(0);
