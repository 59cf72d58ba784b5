// `compare`: two nodes of one network must tell the same story. What to read is discovered on the first node
// (A, read-only), the same reads go to both, and every difference of their normalized answers is listed with
// the read, the JSON pointer and both values. Read-only, with a run's timeout, request budget (per node) and
// page bound.
import { parseJson, resolvePointer, type Json } from '../../common/json.ts';
import { inPool } from '../../common/pool.ts';
import { discover, type SourceReport } from '../../engine/discovery/discover.ts';
import type { Client, Exchange, Query } from '../../engine/transport/http.ts';
import { BudgetExhausted } from '../../engine/transport/limits.ts';
import { describeChannel, parsed } from '../../engine/transport/websocket.ts';
import { channelError, statusOfError } from '../../interfaces/ledger/update-channel.ts';
import { followTokens } from '../../engine/paging.ts';
import { contextParts, CREDENTIAL_VARIABLES, DEFAULT_BOUNDS, type TargetConfig } from '../../engine/target.ts';
import { ensureReachable } from '../reachability.ts';
import { redactUrl } from '../redaction.ts';
import { nodeAnswer, type NodeAnswer } from './answers.ts';
import { groupByCause, type Cause } from './causes.ts';
import { differences, normalize, type Difference } from './differences.ts';
import { ledgerReads, scanReads, type Read } from './reads.ts';
import { DISCOVERY_SOURCES } from '../../interfaces/discovery-sources.ts';

export interface CompareNode {
  scanUrl?: string;
  ledgerUrl?: string;
  ledgerToken?: string;
  /** The environment variable curl lines name for the ledger token (default CN_CONFORMANCE_LEDGER_TOKEN). */
  ledgerTokenVariable?: string;
}

export interface CompareOptions {
  a: CompareNode;
  b: CompareNode;
  timeoutMs?: number;
  /** Requests each node may be sent. */
  maxRequests?: number;
  /** Pages one paged read may walk on each node. */
  maxPages?: number;
  maxBodyBytes?: number;
  /** Reads in flight at once. */
  concurrency?: number;
  /** Differences listed per read (the rest is counted as truncated). */
  maxDifferences?: number;
}

export interface ReadOutcome {
  read: { interface: Read['interface']; method: string; path: string; route?: string; query?: Query; body?: Json; what: string };
  /** HTTP status of each node's (first) answer; 0 when none came. */
  status: { a: number; b: number };
  pages: { a: number; b: number };
  /** False when the answers could not be compared (a node gave none, the budget ran out): neither equal nor divergent. */
  compared: boolean;
  equal: boolean;
  differences: Difference[];
  truncated: boolean;
  /** Why the answers were not compared field by field (no answer, a walk that did not end, ...). */
  note?: string;
  /**
   * Each node's answer where the statuses differ or a node gave none: the body's start, why it refused, and a
   * curl line that reproduces the request (the first page's, or the page that failed).
   */
  answers?: { a?: NodeAnswer; b?: NodeAnswer };
}

export interface CompareResult {
  tool: 'cn-conformance compare';
  startedAt: string;
  finishedAt: string;
  nodes: { a: CompareNode; b: CompareNode };
  /** What discovery on A found (its sources) and the reads planned from it. */
  discovery: SourceReport[];
  reads: ReadOutcome[];
  /** Every listed difference, grouped by cause (one diverging contract, one refused route): see causes.ts. */
  causes: Cause[];
  summary: { reads: number; equal: number; divergent: number; notCompared: number; differences: number; causes: number };
  /** Divergent when any read differs; incomplete when none does but some could not be compared. */
  verdict: 'equal' | 'divergent' | 'incomplete';
}

interface Side {
  status: number;
  pages: number;
  value?: Json;
  note?: string;
  /** The exchange that shows what the node answered: the page that failed, else the first. */
  shown?: Exchange;
}

const ledgerEnd = async (client: Client): Promise<{ offset?: number; x: Exchange }> => {
  const x = await client.get('/v2/state/ledger-end');
  const offset = x.status === 200 ? (parseJson(x.text) as Json)?.offset : undefined;
  return { x, ...(typeof offset === 'number' ? { offset } : {}) };
};

const answerOf = (x: Exchange): Json | undefined => (x.status >= 200 && x.status < 300 && !x.truncated ? parseJson(x.text) : undefined);

/** One read on one node: a paged read walked by the node's own answers, its pages' items concatenated. */
async function readOn(client: Client, read: Read, maxPages: number): Promise<Side> {
  let body = read.body;
  if (read.upToLedgerEnd) {
    const end = await ledgerEnd(client);
    if (end.offset === undefined) return { status: 0, pages: 0, note: 'no ledger end to bound the stream with', shown: end.x };
    body = { ...(body as object), endInclusive: end.offset };
  }
  if (read.method === 'WEBSOCKET') return channelOn(client, read.path, body);
  const first = { body, query: read.query };
  let status = 0;
  const walk = await followTokens<{ x: Exchange; value?: Json }>(
    async (token) => {
      const r = (token as typeof first | undefined) ?? first;
      const x = await client.request(read.method, read.path, { query: r.query, body: r.body });
      const value = answerOf(x);
      if (status === 0) status = x.status;
      const items = read.paging && value !== undefined ? (read.paging.items ? resolvePointer(value, `/${read.paging.items}`) : value) : undefined;
      const next = read.paging && value !== undefined ? read.paging.next(value, r) : undefined;
      return { page: { x, value }, keys: Array.isArray(items) ? items.map((i) => JSON.stringify(i)) : [], next };
    },
    read.paging ? maxPages : 1,
  );
  const failed = walk.pages.find((p) => p.value === undefined);
  if (failed)
    return {
      status: failed.x.status,
      pages: walk.pages.length,
      note: failed.x.error ?? (failed.x.truncated ? 'answer larger than the bound' : undefined),
      shown: failed.x,
    };
  const pages = walk.pages.length;
  const note =
    walk.end === 'cycle'
      ? 'the page walk came back to a token it had used'
      : walk.end === 'bound'
        ? `the page walk stopped at its bound (${maxPages} pages)`
        : undefined;
  const shown = walk.pages[0]!.x;
  if (!read.paging) return { status, pages, value: walk.pages[0]!.value, shown };
  const items = walk.pages.flatMap((p) => {
    const list = read.paging!.items ? resolvePointer(p.value, `/${read.paging!.items}`) : p.value;
    return Array.isArray(list) ? list : [];
  });
  return { status, pages, value: read.paging.items ? { [read.paging.items]: items } : items, ...(note ? { note } : {}), shown };
}

/** One read over a WebSocket channel: every message of a stream the node ends normally (status 101: upgraded). */
async function channelOn(client: Client, path: string, request: Json | undefined): Promise<Side> {
  const x = await client.channel(path, { request });
  if (x.upgrade) return { status: x.upgrade.status, pages: 0, note: describeChannel(x) };
  const values = x.messages.map(parsed);
  // A refusal is the channel's error message: the status its code stands for, the code and cause as the note.
  const error = values.map(channelError).find((e) => e !== undefined);
  if (error) return { status: statusOfError(error.code), pages: 1, note: `${error.code}: ${error.cause}` };
  if (x.end !== 'closed' || x.close?.code !== 1000 || values.some((v) => v === undefined)) return { status: 0, pages: 0, note: describeChannel(x) };
  return { status: 101, pages: 1, value: values as Json[] };
}

function judge(read: Read, a: Side, b: Side, max: number): Omit<ReadOutcome, 'read'> {
  const base = { status: { a: a.status, b: b.status }, pages: { a: a.pages, b: b.pages } };
  // Where the answers are not compared field by field, what each node answered is what explains why.
  const answers = () => ({ ...(a.shown ? { a: nodeAnswer(a.shown) } : {}), ...(b.shown ? { b: nodeAnswer(b.shown) } : {}) });
  const silent = [a.status === 0 && `A${a.note ? ` (${a.note})` : ''}`, b.status === 0 && `B${b.note ? ` (${b.note})` : ''}`].filter(Boolean);
  if (silent.length > 0)
    return {
      ...base,
      compared: false,
      equal: false,
      differences: [],
      truncated: false,
      note: `not compared: nothing read from ${silent.join(' and ')}`,
      answers: answers(),
    };
  if (a.status !== b.status) {
    const list: Difference[] = [
      { pointer: '', a: `HTTP ${a.status}${a.note ? ` (${a.note})` : ''}`, b: `HTTP ${b.status}${b.note ? ` (${b.note})` : ''}`, kind: 'status' },
    ];
    return {
      ...base,
      compared: true,
      equal: false,
      differences: list,
      truncated: false,
      note: 'the nodes answered with different statuses',
      answers: answers(),
    };
  }
  if (a.value === undefined || b.value === undefined) {
    return { ...base, compared: true, equal: true, differences: [], truncated: false, note: `both answered ${a.status}: nothing to compare` };
  }
  const d = differences(normalize(a.value), normalize(b.value), { orderedEventIds: read.orderedEventIds, max });
  const note = a.note ?? b.note;
  return { ...base, compared: true, equal: d.list.length === 0, differences: d.list, truncated: d.truncated, ...(note ? { note } : {}) };
}

const shown = (r: Read): ReadOutcome['read'] => ({
  interface: r.interface,
  method: r.method,
  path: r.path,
  ...(r.route ? { route: r.route } : {}),
  ...(r.query ? { query: r.query } : {}),
  ...(r.body !== undefined ? { body: r.body } : {}),
  what: r.what,
});

function clientsOf(node: CompareNode, o: Required<Omit<CompareOptions, 'a' | 'b'>>) {
  const target: TargetConfig = {
    ...DEFAULT_BOUNDS,
    ...(node.scanUrl ? { scan: { url: node.scanUrl } } : {}),
    ...(node.ledgerUrl ? { ledger: { url: node.ledgerUrl, credentials: node.ledgerToken ? { bearer: node.ledgerToken } : {} } } : {}),
    fixtures: {},
    allowMutations: false,
    timeoutMs: o.timeoutMs,
    maxRequests: o.maxRequests,
    maxPages: o.maxPages,
    maxBodyBytes: o.maxBodyBytes,
  };
  const clients = contextParts(target, {}, 'compare').clients;
  // Curl lines name the variable that holds this node's token (each node may have its own).
  if (clients.ledger)
    clients.ledger.config.credentialVariables = {
      ...clients.ledger.config.credentialVariables,
      bearer: node.ledgerTokenVariable ?? CREDENTIAL_VARIABLES.ledger.bearer,
    };
  return clients;
}

export async function compareNodes(options: CompareOptions): Promise<CompareResult> {
  const o = {
    timeoutMs: options.timeoutMs ?? DEFAULT_BOUNDS.timeoutMs,
    maxRequests: options.maxRequests ?? DEFAULT_BOUNDS.maxRequests,
    maxPages: options.maxPages ?? 20,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_BOUNDS.maxBodyBytes,
    concurrency: options.concurrency ?? 4,
    maxDifferences: options.maxDifferences ?? 100,
  };
  const startedAt = new Date().toISOString();
  const [a, b] = [clientsOf(options.a, o), clientsOf(options.b, o)];
  // A URL nothing answers at is a usage error (one line), not a story the nodes tell.
  await ensureReachable(a);
  await ensureReachable(b);
  const found = await discover({
    sources: DISCOVERY_SOURCES,
    given: {},
    clients: { scan: a.scan, ledger: a.ledger },
    allowMutations: false,
    env: { runId: 'compare', ledgerBearer: options.a.ledgerToken, now: () => new Date() },
  });
  const reads = [...(a.scan && b.scan ? scanReads(found.fixtures) : []), ...(a.ledger && b.ledger ? ledgerReads(found.fixtures) : [])];
  const outcomes = await inPool(reads, o.concurrency, async (read): Promise<ReadOutcome> => {
    const [ca, cb] = [a[read.interface]!, b[read.interface]!];
    try {
      const [sa, sb] = await Promise.all([readOn(ca, read, o.maxPages), readOn(cb, read, o.maxPages)]);
      return { read: shown(read), ...judge(read, sa, sb, o.maxDifferences) };
    } catch (e) {
      if (!(e instanceof BudgetExhausted)) throw e;
      return {
        read: shown(read),
        status: { a: 0, b: 0 },
        pages: { a: 0, b: 0 },
        compared: false,
        equal: false,
        differences: [],
        truncated: false,
        note: `not read: ${e.message}`,
      };
    }
  });
  const divergent = outcomes.filter((r) => r.compared && !r.equal).length;
  const notCompared = outcomes.filter((r) => !r.compared).length;
  const causes = groupByCause(outcomes);
  return {
    tool: 'cn-conformance compare',
    startedAt,
    finishedAt: new Date().toISOString(),
    nodes: { a: withoutToken(options.a), b: withoutToken(options.b) },
    discovery: found.sources,
    reads: outcomes,
    causes,
    summary: {
      reads: outcomes.length,
      equal: outcomes.length - divergent - notCompared,
      divergent,
      notCompared,
      differences: outcomes.reduce((n, r) => n + r.differences.length, 0),
      causes: causes.length,
    },
    verdict: divergent > 0 ? 'divergent' : notCompared > 0 ? 'incomplete' : 'equal',
  };
}

/** The report names the nodes, never their tokens (nor a URL's user info or secret-looking query values). */
const withoutToken = ({ ledgerToken: _, ...node }: CompareNode): CompareNode => ({
  ...node,
  ...(node.scanUrl ? { scanUrl: redactUrl(node.scanUrl) } : {}),
  ...(node.ledgerUrl ? { ledgerUrl: redactUrl(node.ledgerUrl) } : {}),
});
