// Suite overhead: the requests of the default run's read-only requirements, captured once, then replayed in
// the same order against the same node (in its own process) by a bare HTTP client (undici: send, read the
// body) and through the suite's path (Client.request with its timeout, bounded read and `seen` recording,
// responseProblems against the document, and the evidence summary). Prints one JSON line.
import { Agent, request } from 'undici';
import { responseProblems, type CompiledSpec } from '../generators/index.ts';
import { builtinDocuments, type Documents } from '../runner/documents.ts';
import { runConformance } from '../runner/run-conformance.ts';
import { catalog } from '../requirements/catalog.ts';
import { Client, summarise, type Exchange, type RequestOptions } from '../engine/transport/http.ts';
import type { InterfaceName } from '../engine/model.ts';
import { contextParts } from '../engine/target.ts';
import { startNodeProcess, type NodeInfo } from './node-process.ts';
import { benchTarget } from './target.ts';

interface Recorded {
  iface: InterfaceName;
  method: string;
  path: string;
  options: RequestOptions;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  operationId?: string;
}

const samples = Number(process.argv[2] ?? 5);
type Specs = Record<InterfaceName, CompiledSpec>;

/** Whether the node answered only after its idle timeout (an open-ended read that its limit did not end). */
function waitedForIdle(options: RequestOptions, x: Exchange): boolean {
  const q = options.query;
  if (!q || q.stream_idle_timeout_ms === undefined) return false;
  try {
    const els = JSON.parse(x.text) as unknown;
    return !Array.isArray(els) || q.limit === undefined || els.length < Number(q.limit);
  } catch {
    return true;
  }
}

/** Operation ids by method and full path template, to judge each replayed answer as its check would. */
function operationFinder(specs: Specs): (iface: InterfaceName, method: string, url: string) => string | undefined {
  const routes = (Object.entries(specs) as Array<[InterfaceName, CompiledSpec]>).flatMap(([iface, s]) =>
    s.catalog.operations.map((op) => ({
      iface,
      method: op.method.toUpperCase(),
      id: op.id,
      re: new RegExp(
        `^${op.fullPath
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
    })),
  );
  return (iface, method, url) => {
    const path = new URL(url).pathname;
    return routes.find((r) => r.iface === iface && r.method === method && r.re.test(path))?.id;
  };
}

async function capture(info: NodeInfo, documents: Documents): Promise<{ sequence: Recorded[]; left: { idle: number; unanswered: number } }> {
  const interfaceOf = (c: Client): InterfaceName => (c.config.prefix === '/api/scan' ? 'scan' : c.config.prefix === '/api/validator' ? 'wallet' : 'ledger');
  const log: Array<{ iface: InterfaceName; method: string; path: string; options: RequestOptions; x: Exchange }> = [];
  const original = Client.prototype.request;
  Client.prototype.request = async function (this: Client, method: string, path: string, options: RequestOptions = {}) {
    const x = await original.call(this, method, path, options);
    log.push({ iface: interfaceOf(this), method, path, options, x });
    return x;
  };
  try {
    // The default run's sequence: preflight, fixture discovery, then every read-only requirement.
    const { requirements: results } = await runConformance({
      target: benchTarget(info),
      documents,
      requirements: catalog(documents.specs, documents.builtinIds).filter((r) => !r.mutates),
    });
    const failed = results.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
    if (failed.length) throw new Error(`capture run failed on the clean node: ${failed.map((r) => r.id).join(', ')}`);
  } finally {
    Client.prototype.request = original;
  }
  const find = operationFinder(documents.specs as Specs);
  const left = { idle: 0, unanswered: 0 };
  const sequence: Recorded[] = [];
  for (const { iface, method, path, options, x } of log) {
    if (x.status === 0) {
      left.unanswered++;
      continue;
    }
    if (waitedForIdle(options, x)) {
      left.idle++;
      continue;
    }
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    sequence.push({ iface, method, path, options, url: x.url, headers: x.requestHeaders, body, operationId: find(iface, method, x.url) });
  }
  return { sequence, left };
}

async function bare(sequence: Recorded[], agent: Agent): Promise<number> {
  const started = performance.now();
  let bytes = 0;
  for (const r of sequence) {
    const res = await request(r.url, { method: r.method as 'GET', headers: r.headers, body: r.body, dispatcher: agent });
    bytes += (await res.body.arrayBuffer()).byteLength;
  }
  if (bytes === 0) throw new Error('the bare replay read nothing');
  return performance.now() - started;
}

/** `judge`: also validate each answer and summarise it as evidence (the full path); else the client alone. */
async function suite(sequence: Recorded[], info: NodeInfo, specs: Specs, judge: boolean): Promise<number> {
  const parts = contextParts(benchTarget(info, { maxRequests: Number.MAX_SAFE_INTEGER }), specs);
  const started = performance.now();
  let work = 0;
  for (const r of sequence) {
    const x = await parts.clients[r.iface]!.request(r.method, r.path, r.options);
    if (!judge) continue;
    if (r.operationId && x.status !== 0)
      work += responseProblems(specs[r.iface], r.operationId, { status: x.status, contentType: x.headers['content-type'], text: x.text }).length;
    work += summarise(x).curl.length;
  }
  const ms = performance.now() - started;
  if (parts.seen!.length !== sequence.length || (judge && work === 0)) throw new Error('the suite replay did not record every request');
  return ms;
}

const node = await startNodeProcess({ seed: 1 });
let out: Record<string, unknown> = {};
try {
  const documents = await builtinDocuments();
  const specs = documents.specs as Specs;
  const { sequence, left } = await capture(node.info, documents);
  const agent = new Agent({ connections: 8 });
  const bareMs: number[] = [];
  const clientMs: number[] = [];
  const suiteMs: number[] = [];
  // One warm-up pass of each, then passes in alternating order so that drift favours neither.
  await bare(sequence, agent);
  await suite(sequence, node.info, specs, true);
  for (let i = 0; i < samples; i++) {
    const passes = [
      async () => bareMs.push(await bare(sequence, agent)),
      async () => clientMs.push(await suite(sequence, node.info, specs, false)),
      async () => suiteMs.push(await suite(sequence, node.info, specs, true)),
    ];
    for (const pass of i % 2 ? passes.reverse() : passes) await pass();
  }
  await agent.close();
  out = {
    requests: sequence.length,
    validated: sequence.filter((r) => r.operationId).length,
    leftOut: left,
    bareMs,
    clientMs,
    suiteMs,
  };
} finally {
  out.nodeRssKb = await node.stop();
}
console.log(JSON.stringify(out));
