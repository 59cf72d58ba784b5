// A deliberately broken target for the suite's own tests: one plain node:http server that answers every
// request of the three interfaces in one hostile way (its mode). Some modes answer on their own (garbage,
// stalls, resets, redirects); the others proxy a running reference node and damage its answers, so that
// everything but the one defect is what a correct node would say.
import { Rng } from '../../reference-node/world/rng.ts';
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo, Socket } from 'node:net';
import YAML from 'yaml';

export const HOSTILE_MODES = [
  'non-json', // 200 application/json with a body that is not JSON
  'wrong-content-type', // the reference node's answer, labelled text/plain
  'empty-body', // 200 application/json, zero bytes
  'huge-body', // 200 application/json, 50 MB, streamed without a length
  'unfinished-body', // headers and a few bytes, then nothing
  'slow-first-byte', // nothing at all until long past any sane timeout
  'reset', // the connection is reset as soon as a request arrives
  'redirect-loop', // 302 between two URLs, forever
  'status-500', // 500 for everything
  'empty-object', // 200 {} for everything
  'endless-paging', // the reference node's answers, but paged answers always carry one more fresh token
  'cycling-token', // the reference node's answers, but page tokens lead back to an earlier page
  'huge-int64', // the reference node's answers with every int64 field set beyond 2^53
  'mangled-json', // the reference node's JSON answers with values swapped for values of other types (seeded)
  'ws-endless', // HTTP proxied; every WebSocket channel sends valid-looking elements forever and never closes
  'ws-flood', // HTTP proxied; every WebSocket channel sends 64 KiB messages as fast as it can
  'ws-garbage', // HTTP proxied; every WebSocket channel sends text that is no JSON, a binary frame, then closes
] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];

export const PROXY_MODES: ReadonlySet<HostileMode> = new Set([
  'wrong-content-type',
  'endless-paging',
  'cycling-token',
  'huge-int64',
  'mangled-json',
  'ws-endless',
  'ws-flood',
  'ws-garbage',
]);

/** The modes whose hostility is in their WebSocket channels (their HTTP answers are the reference node's). */
export const CHANNEL_MODES: ReadonlySet<HostileMode> = new Set(['ws-endless', 'ws-flood', 'ws-garbage']);

/** 2^53 + 1: the first integer a double cannot hold; JSON.parse reads it as 2^53. */
export const BEYOND_2_53 = '9007199254740993';
export const HUGE_BODY_BYTES = 50 * 1024 * 1024;

export interface HostileOptions {
  /** Origin of a running reference node (required by the proxy modes). */
  reference?: string;
  /** How long slow-first-byte waits before answering. */
  slowMs?: number;
  hugeBytes?: number;
  /** Seed of mangled-json's choices (same seed, same damage for the same sequence of requests). */
  seed?: number;
  /** Share of the values mangled-json replaces (0..1). */
  mangleRate?: number;
}

export interface HostileTarget {
  /** Origin serving /v2 (ledger), /api/validator (wallet) and /api/scan (scan). */
  url: string;
  mode: HostileMode;
  /** Requests received, for the tests' figures. */
  readonly requests: number;
  close(): Promise<void>;
}

export async function startHostileTarget(mode: HostileMode, options: HostileOptions = {}): Promise<HostileTarget> {
  if (PROXY_MODES.has(mode) && !options.reference) throw new Error(`mode ${mode} proxies a reference node: give options.reference`);
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const state: PagingState = { minted: new Map(), firstToken: new Map(), next: 0, random: seeded(options.seed ?? 1), mangleRate: options.mangleRate ?? 0.1 };
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    handle(mode, options, req, res, timers, state).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`hostile target: ${e.message}`);
    });
  });
  if (CHANNEL_MODES.has(mode)) hostileChannels(server, mode, timers);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mode,
    get requests() {
      return requests;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** Accepts every upgrade (with the ledger's auth subprotocol when offered) and answers the request its mode's way. */
function hostileChannels(server: Server, mode: HostileMode, timers: Set<NodeJS.Timeout>): void {
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => (p.has('daml.ws.auth') ? 'daml.ws.auth' : false) });
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => ws.once('message', () => channelMode(ws, mode, timers))));
}

function channelMode(ws: WebSocket, mode: HostileMode, timers: Set<NodeJS.Timeout>): void {
  if (mode === 'ws-garbage') {
    ws.send('<html>upstream error</html>');
    ws.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]), { binary: true });
    ws.close(1000);
    return;
  }
  if (mode === 'ws-endless') {
    let offset = 0;
    const t = setInterval(() => ws.send(JSON.stringify({ update: { OffsetCheckpoint: { value: { offset: ++offset, synchronizerTimes: [] } } } })), 5);
    timers.add(t);
    ws.on('close', () => clearInterval(t));
    return;
  }
  const chunk = JSON.stringify({ update: { padding: 'x'.repeat(64 * 1024) } });
  // As fast as the socket takes them: a megabyte queued at any time.
  const pump = () => {
    if (ws.readyState !== ws.OPEN) return;
    while (ws.bufferedAmount < 1024 * 1024) ws.send(chunk);
    setImmediate(pump);
  };
  pump();
}

async function handle(
  mode: HostileMode,
  options: HostileOptions,
  req: IncomingMessage,
  res: ServerResponse,
  timers: Set<NodeJS.Timeout>,
  state: PagingState,
): Promise<void> {
  switch (mode) {
    case 'non-json':
      res.writeHead(200, JSON_TYPE).end('<html><body>Service temporarily unavailable</body></html>');
      return;
    case 'empty-body':
      res.writeHead(200, { ...JSON_TYPE, 'content-length': '0' }).end();
      return;
    case 'huge-body':
      return streamHuge(res, options.hugeBytes ?? HUGE_BODY_BYTES);
    case 'unfinished-body':
      res.writeHead(200, JSON_TYPE);
      res.write('{"created_events":[{"contract_id":"00');
      return; // never ended: the socket stays open until the client gives up or the target closes
    case 'slow-first-byte': {
      const t = setTimeout(() => {
        timers.delete(t);
        if (!res.destroyed) res.writeHead(200, JSON_TYPE).end('{}');
      }, options.slowMs ?? 60_000);
      timers.add(t);
      res.on('close', () => {
        clearTimeout(t);
        timers.delete(t);
      });
      return;
    }
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'redirect-loop': {
      const u = new URL(req.url ?? '/', 'http://x');
      u.searchParams.set('hop', u.searchParams.get('hop') === 'a' ? 'b' : 'a');
      res.writeHead(302, { location: u.pathname + u.search, 'content-length': '0' }).end();
      return;
    }
    case 'status-500':
      res.writeHead(500, JSON_TYPE).end('{"error":"internal error"}');
      return;
    case 'empty-object':
      res.writeHead(200, JSON_TYPE).end('{}');
      return;
    default:
      return proxy(mode, options.reference!, req, res, state);
  }
}

/** `{"padding":"xxxx...."}` of exactly `size` bytes, streamed in chunks as fast as the client reads. */
function streamHuge(res: ServerResponse, size: number): void {
  res.writeHead(200, JSON_TYPE);
  const head = Buffer.from('{"padding":"');
  const tail = Buffer.from('"}');
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let left = size - head.length - tail.length;
  res.write(head);
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const n = Math.min(left, chunk.length);
      left -= n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end(tail);
  };
  pump();
}

// ---------------------------------------------------------------------------------------------------
// Proxy modes
// ---------------------------------------------------------------------------------------------------

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(reference: string, req: IncomingMessage, body: Buffer): Promise<Upstream> {
  const headers = { ...req.headers, host: new URL(reference).host, 'content-length': String(body.length) };
  delete headers['transfer-encoding'];
  return new Promise((resolve, reject) => {
    const out = httpRequest(new URL(req.url ?? '/', reference), { method: req.method, headers }, (up) => {
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => resolve({ status: up.statusCode ?? 502, headers: up.headers, body: Buffer.concat(chunks) }));
      up.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, up: Upstream, body: Buffer | string, contentType = up.headers['content-type']): void {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(up.headers))
    if (typeof v === 'string' && !['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-type'].includes(k)) headers[k] = v;
  if (contentType) headers['content-type'] = contentType;
  res.writeHead(up.status, headers).end(body);
}

async function proxy(mode: HostileMode, reference: string, req: IncomingMessage, res: ServerResponse, state: PagingState): Promise<void> {
  let requestBody = await readBody(req);
  const paged = pagedOperation(req);
  // A token this target minted stands for a page of the reference node: ask for that page instead.
  const sent = paged ? tokenIn(requestBody, paged) : undefined;
  const substitute = sent === undefined ? undefined : state.minted.get(JSON.stringify(sent));
  if (paged && substitute) requestBody = withToken(requestBody, paged, substitute.real);
  const up = await forward(reference, req, requestBody);
  const text = up.body.toString('utf8');
  switch (mode) {
    case 'wrong-content-type':
      return reply(res, up, up.body, /json/i.test(up.headers['content-type'] ?? '') ? 'text/plain; charset=utf-8' : 'text/html');
    case 'huge-int64':
      return reply(res, up, /json/i.test(up.headers['content-type'] ?? '') ? withHugeInt64(text) : up.body);
    case 'mangled-json': {
      if (!/json/i.test(up.headers['content-type'] ?? '')) return reply(res, up, up.body);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return reply(res, up, up.body);
      }
      return reply(res, up, JSON.stringify(mangle(parsed, state)).replaceAll(JSON.stringify(DEEP), DEEP_TEXT));
    }
    default: {
      if (!paged || up.status !== 200) return reply(res, up, up.body);
      const answer = JSON.parse(text) as Record<string, unknown>;
      // One walk: the same request but for its token (and the snapshot match, which a holdings walk alternates).
      const key = `${req.url} ${JSON.stringify({ ...(JSON.parse(requestBody.toString('utf8') || '{}') as object), [paged.request]: undefined, record_time_match: undefined })}`;
      answer.next_page_token =
        mode === 'endless-paging' ? endlessToken(state, paged, sent, answer.next_page_token) : cyclingToken(state, key, sent, answer.next_page_token);
      return reply(res, up, JSON.stringify(answer));
    }
  }
}

// Paged scan operations: where the request carries its token and which type the tokens have.
interface Paged {
  request: string;
  type: 'number' | 'string';
}

function pagedOperation(req: IncomingMessage): Paged | undefined {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (req.method !== 'POST') return undefined;
  if (/^\/api\/scan\/v[01]\/holdings\/state$/.test(path)) return { request: 'after', type: 'number' };
  if (path === '/api/scan/v2/holdings/state') return { request: 'after', type: 'string' };
  if (path === '/api/scan/v0/history/bulk/updates') return { request: 'next_page_token', type: 'string' };
  return undefined;
}

function tokenIn(body: Buffer, paged: Paged): unknown {
  try {
    return (JSON.parse(body.toString('utf8')) as Record<string, unknown>)[paged.request] ?? undefined;
  } catch {
    return undefined;
  }
}

function withToken(body: Buffer, paged: Paged, token: unknown): Buffer {
  const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  if (token === undefined) delete parsed[paged.request];
  else parsed[paged.request] = token;
  return Buffer.from(JSON.stringify(parsed));
}

interface PagingState {
  /** Tokens this target made up, with the real token (undefined: the first page) they stand for. */
  minted: Map<string, { real: unknown }>;
  /** First real token seen per walk (path and arguments without the token). */
  firstToken: Map<string, unknown>;
  next: number;
  random: () => number;
  mangleRate: number;
}

/**
 * When the reference walk ends (no token), a fresh made-up token is handed out; it leads to the last real
 * page again, whose answer carries another fresh token: every token is new, and the walk never ends.
 */
function endlessToken(state: PagingState, paged: Paged, sent: unknown, real: unknown): unknown {
  if (real !== undefined && real !== null) return real;
  const substitute = state.minted.get(JSON.stringify(sent));
  const fresh = paged.type === 'number' ? 1_000_000_000_000 + state.next++ : `endless-${state.next++}`;
  state.minted.set(JSON.stringify(fresh), { real: substitute ? substitute.real : sent });
  return fresh;
}

/** Page 2 onwards point back to page 2 (the first token of the walk): a cycle of one or more pages. */
function cyclingToken(state: PagingState, key: string, sent: unknown, real: unknown): unknown {
  if (sent === undefined) {
    if (real !== undefined && real !== null) state.firstToken.set(key, real);
    return real;
  }
  const first = state.firstToken.get(key);
  if (first === undefined) return real;
  if (JSON.stringify(sent) === JSON.stringify(first)) return real ?? first;
  return first;
}

// Names of the integer fields the documents declare as int64, read from the documents themselves.
let int64Names: RegExp | undefined;

function int64Fields(): RegExp {
  if (int64Names) return int64Names;
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(walk);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const props = (v as { properties?: Record<string, { type?: string; format?: string }> }).properties;
    if (props) for (const [name, s] of Object.entries(props)) if (s?.type === 'integer' && s.format === 'int64') names.add(name);
    Object.values(v).forEach(walk);
  };
  for (const doc of ['ledger', 'wallet', 'scan']) walk(YAML.parse(readFileSync(new URL(`../../specs/${doc}-api.yaml`, import.meta.url), 'utf8')));
  return (int64Names = new RegExp(`"(${[...names].join('|')})"(\\s*):(\\s*)-?\\d+(?=\\s*[,}\\]])`, 'g'));
}

/** Every integer value of an int64 field, in the raw text, replaced by 2^53 + 1. */
export function withHugeInt64(text: string): string {
  return text.replace(int64Fields(), `"$1"$2:$3${BEYOND_2_53}`);
}

// Values of every JSON type that a careless check could trip over: null where an object is expected, an
// object where a string is, numbers that are no integers, strings that are no ids, deep and empty things.
// DEEP stands for arrays nested far deeper than any recursive walk (JSON.stringify, structuredClone) survives.
const DEEP = '\u0000deep\u0000';
const DEEP_TEXT = '['.repeat(100_000) + ']'.repeat(100_000);
const ODD_VALUES: unknown[] = [
  null,
  {},
  [],
  '',
  'x',
  0,
  -1,
  1.5,
  1e300,
  -0.5,
  true,
  false,
  [null],
  [1, 'a', null],
  { a: null },
  '::',
  'not a timestamp',
  '9999-99-99T99:99:99Z',
  'http://[',
  '%',
  '\u0000',
  DEEP,
];

/** The value with some of its parts (or itself) swapped for odd values; the choice follows the seeded random. */
function mangle(v: unknown, state: PagingState): unknown {
  if (state.random() < state.mangleRate) return ODD_VALUES[Math.floor(state.random() * ODD_VALUES.length)];
  if (Array.isArray(v)) return v.map((e) => mangle(e, state));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) {
      if (state.random() < state.mangleRate / 4) continue; // a field left out
      out[k] = mangle(e, state);
    }
    return out;
  }
  return v;
}

function seeded(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}
