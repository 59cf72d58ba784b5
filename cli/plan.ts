// `cn-conformance plan`: what a run with the same options would do, without sending a single request.
import type { CompiledSpec } from '../generators/index.ts';
import { catalog } from '../suites/catalog.ts';
import type { InterfaceName } from '../suites/model.ts';
import { skipReason } from '../suites/runner.ts';
import { contextParts } from '../suites/target.ts';
import { redactUrl } from './redaction.ts';
import { buildTarget, configFixtures, loadSpecs, refuseUnusable, runBounds, selection, type RunOptions } from './run.ts';

export async function plan(opts: RunOptions): Promise<void> {
  // The same settings, fixtures, documents and selection as a run, refused the same way.
  const bounds = runBounds(opts);
  const given = await configFixtures(opts.config);
  const { specs, checks } = await loadSpecs(opts.spec);
  refuseUnusable(checks);
  const selected = selection(catalog(specs), opts);
  const { node, target } = await buildTarget(opts, bounds, given);
  try {
    const parts = contextParts(target, specs as Partial<Record<InterfaceName, CompiledSpec>>);
    const runs = selected.filter((r) => !skipReason(r, parts));
    console.log(`Plan (no request is sent; fixtures that discovery could add at run time are not counted):`);
    for (const name of ['ledger', 'wallet', 'scan'] as const) console.log(`  ${name.padEnd(8)} ${target[name] ? redactUrl(target[name]!.url) : 'not given'}${node ? ' (embedded reference node)' : ''}`);
    console.log(`  mutations ${target.allowMutations ? 'allowed' : 'not allowed: checks that change the target are skipped'}`);
    console.log(`Would run ${runs.length} of ${selected.length} requirements:`);
    for (const r of runs) console.log(`  RUN  ${r.id}${r.mutates ? ' (changes the target)' : ''}  [${r.operations.join(', ')}]`);
    for (const r of selected) {
      const why = skipReason(r, parts);
      if (why) console.log(`  SKIP ${r.id}: ${why}`);
    }
    const operations = new Map<string, string>();
    for (const r of runs) {
      for (const id of r.operations) {
        const op = Object.values(specs).map((s) => s.catalog.byId.get(id)).find(Boolean);
        if (op) operations.set(id, `${op.method.toUpperCase()} ${op.fullPath}`);
      }
    }
    console.log(`Operations that would be called (${operations.size}):`);
    for (const [id, where] of [...operations].sort((a, b) => a[1].localeCompare(b[1]))) console.log(`  ${where}  (${id})`);
  } finally {
    await node?.close();
  }
}
