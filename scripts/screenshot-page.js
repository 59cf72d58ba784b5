// Writes a PNG of a whole HTML page, however tall, with headless Chromium driven over its DevTools pipe.
// Chromium's own --screenshot captures the window only (the first 1280x1600 pixels of a long report), so
// this lays the page out at the given width, measures its content height and captures all of it.
// Plain JavaScript on Node's own modules: it needs no package, only the `chromium` binary.
// Usage: node scripts/screenshot-page.js <page.html> <out.png> [width]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const TIMEOUT_MS = 60_000;
/** Chromium refuses bitmaps beyond its texture limit; a page taller than this is cut there (and says so). */
const MAX_HEIGHT = 16_384;

const [page, out, widthArg = '1280'] = process.argv.slice(2);
const width = Number(widthArg);
if (!page || !out || !Number.isInteger(width) || width < 100) {
  console.error('usage: node scripts/screenshot-page.js <page.html> <out.png> [width, 100 or more]');
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'cn-screenshot-'));
// With --remote-debugging-pipe, Chromium reads commands on fd 3 and writes answers on fd 4, each a JSON text ended by NUL.
const browser = spawn(
  process.env.CHROMIUM ?? 'chromium',
  [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--hide-scrollbars',
    '--remote-debugging-pipe',
    `--user-data-dir=${profile}`,
    'about:blank',
  ],
  { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
);
const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];

let nextId = 1;
const pending = new Map();
const waiters = [];
let buffered = '';
fromBrowser.setEncoding('utf8');
fromBrowser.on('data', (chunk) => {
  buffered += chunk;
  for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
    const message = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    const call = pending.get(message.id);
    if (call) {
      pending.delete(message.id);
      if (message.error) call.reject(new Error(`${call.method}: ${message.error.message}`));
      else call.resolve(message.result);
    } else if (message.method) {
      for (const w of waiters.splice(0)) if (!w(message)) waiters.push(w);
    }
  }
});

/** Sends one DevTools command (to the page's session when given) and gives its result. */
function send(method, params = {}, sessionId) {
  const id = nextId++;
  toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
  return new Promise((resolvePromise, reject) => pending.set(id, { method, resolve: resolvePromise, reject }));
}

/** The first event named `method` (of the session given). */
const event = (method, sessionId) =>
  new Promise((resolvePromise) =>
    waiters.push((message) => {
      if (message.method !== method || message.sessionId !== sessionId) return false;
      resolvePromise(message.params);
      return true;
    }),
  );

async function capture() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const on = (method, params) => send(method, params, sessionId);
  await on('Page.enable');
  await on('Emulation.setDeviceMetricsOverride', { width, height: 800, deviceScaleFactor: 1, mobile: false });
  const loaded = event('Page.loadEventFired', sessionId);
  const { errorText } = await on('Page.navigate', { url: pathToFileURL(resolve(page)).href });
  if (errorText) throw new Error(`${page}: ${errorText}`);
  await loaded;
  // The height of the laid-out content at this width; the viewport is then made that tall, so the capture is the whole page.
  const { cssContentSize } = await on('Page.getLayoutMetrics');
  const full = Math.ceil(cssContentSize.height);
  const height = Math.min(full, MAX_HEIGHT);
  await on('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  const { data } = await on('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { x: 0, y: 0, width, height, scale: 1 } });
  writeFileSync(out, Buffer.from(data, 'base64'));
  if (full > height) console.error(`the page is ${full} px tall: captured its first ${height} px (Chromium's limit)`);
  await send('Browser.close').catch(() => undefined);
}

// A browser that ends or fails to start before the capture is done ends the wait at once, as does the timeout.
const stopped = new Promise((_, reject) => {
  browser.once('error', (e) => reject(new Error(`chromium did not start: ${e.message}`)));
  browser.once('exit', (code, signal) => reject(new Error(`chromium ended (${signal ?? code}) before the screenshot was taken`)));
  setTimeout(() => reject(new Error(`no screenshot within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS).unref();
});
toBrowser.on('error', () => undefined);
try {
  await Promise.race([capture(), stopped]);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
} finally {
  if (browser.pid !== undefined && browser.exitCode === null && browser.signalCode === null) {
    const exited = new Promise((r) => browser.once('exit', r));
    // Browser.close normally ends it; one that hangs on (or a capture that failed) is ended here.
    const kill = setTimeout(() => browser.kill('SIGKILL'), process.exitCode ? 0 : 5000);
    await exited;
    clearTimeout(kill);
  }
  rmSync(profile, { recursive: true, force: true });
}
