// `cn-conformance plan`: what a run with the same options would do, without sending a single request.
import { redactUrl } from '../runner/redaction.ts';
import { planConformance } from '../runner/run-conformance.ts';
import { selectRequirements } from '../runner/selection.ts';
import { catalog } from '../suites/catalog.ts';
import { buildTarget, configFixtures, origin, runBounds, usableDocuments, type RunOptions } from './run-settings.ts';

export async function plan(opts: RunOptions): Promise<void> {
  // The same settings, fixtures, documents and selection as a run, refused the same way.
  const bounds = runBounds(opts);
  const given = await configFixtures(opts.config);
  const documents = await usableDocuments(opts.spec);
  const requirements = selectRequirements(catalog(documents.specs, documents.builtinIds), {
    level: opts.level,
    only: opts.only,
    skip: opts.skip,
    onlyOrigin: origin(opts, 'only', '--only'),
  });
  const { node, target } = await buildTarget(opts, bounds, given);
  try {
    const p = planConformance({ target, documents, requirements });
    console.log(`Plan (no request is sent; fixtures that discovery could add at run time are not counted):`);
    for (const name of ['ledger', 'wallet', 'scan'] as const)
      console.log(`  ${name.padEnd(8)} ${target[name] ? redactUrl(target[name]!.url) : 'not given'}${node ? ' (embedded reference node)' : ''}`);
    console.log(`  mutations ${target.allowMutations ? 'allowed' : 'not allowed: checks that change the target are skipped'}`);
    console.log(`Would run ${p.runs.length} of ${requirements.length} requirements:`);
    for (const r of p.runs) console.log(`  RUN  ${r.id}${r.mutates ? ' (changes the target)' : ''}  [${r.operations.join(', ')}]`);
    for (const s of p.skips) console.log(`  SKIP ${s.requirement.id}: ${s.reason}`);
    console.log(`Operations that would be called (${p.operations.length}):`);
    for (const o of p.operations) console.log(`  ${o.call}  (${o.operationId})`);
  } finally {
    await node?.close();
  }
}
