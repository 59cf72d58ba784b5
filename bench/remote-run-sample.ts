// The default run with mutations allowed (preflight, discovery, every requirement) against a reference node
// in another process behind a proxy that holds every request ROUND_TRIP_MS. Prints one JSON line: requests,
// wall time, the critical path and the results' statuses.
// The critical path is the run's longest chain of requests that must wait for one another: preflight and
// discovery (sequential), then for each lane of the engine (see lanes()) its longest requirement, since
// requirements that run alone wait for all before them and hold up all after them.
import { builtinDocuments } from '../runner/documents.ts';
import { runConformance } from '../runner/run-conformance.ts';
import { selectRequirements } from '../runner/selection.ts';
import { catalog } from '../requirements/catalog.ts';
import { lanes, wantsTargetAlone, type RequirementResult } from '../engine/engine.ts';
import { ROUND_TRIP_MS, startDelayProxy } from './delay-proxy.ts';
import { startNodeProcess } from './node-process.ts';
import { benchTarget } from './target.ts';

const concurrency = process.argv[2] ? Number(process.argv[2]) : undefined;
const node = await startNodeProcess({ seed: 1 });
const upstream = new URL(node.info.urls.ledger).origin;
const proxy = await startDelayProxy(upstream, ROUND_TRIP_MS);
try {
  const documents = await builtinDocuments();
  const requirements = selectRequirements(catalog(documents.specs, documents.builtinIds), { only: [], skip: [] });
  const via = (url: string) => url.replace(upstream, proxy.origin);
  const urls = { ledger: via(node.info.urls.ledger), validator: via(node.info.urls.validator), scan: via(node.info.urls.scan) };
  // Zero configuration, as `serve-reference` suggests: the tokens, and fixtures discovered from the target.
  const target = { ...benchTarget({ ...node.info, urls }), fixtures: {}, allowMutations: true, ...(concurrency ? { concurrency } : {}) };
  const started = performance.now();
  let discovered = started;
  const run = await runConformance({
    target,
    documents,
    requirements,
    runId: `bench-${Date.now()}`,
    observer: { started: () => (discovered = performance.now()) },
  });
  const wallMs = performance.now() - started;
  const byId = new Map(run.requirements.map((r) => [r.id, r]));
  // The lanes as the engine cut them: a requirement that changes the target runs alone unless it was not run.
  const ran = (r: RequirementResult) => !(r.status === 'skipped' && ['no-target', 'mutations', 'fixture'].includes(r.skipKind ?? ''));
  let critical = discovered - started;
  for (const phase of [undefined, 'review'])
    for (const lane of lanes(
      requirements.filter((r) => r.phase === phase),
      (r) => wantsTargetAlone(r) && ran(byId.get(r.id)!),
    ))
      critical += Math.max(...lane.requirements.map((r) => byId.get(r.id)!.durationMs));
  const statuses: Record<string, number> = {};
  for (const r of run.requirements) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const notPassed = run.requirements.filter((r: RequirementResult) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.reason}`);
  console.log(JSON.stringify({ requests: run.seen.length, wallMs, discoveryMs: discovered - started, criticalMs: critical, statuses, notPassed }));
} finally {
  await proxy.close();
  await node.stop();
}
