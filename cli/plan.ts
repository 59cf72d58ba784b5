// `cn-conformance plan`: what a run with the same options would do. It changes nothing: its only requests
// are the preflight and the read-only fixture discovery (none with --no-discovery), so that the plan shows
// the fixtures a run would have and where each comes from.
import { redactUrl } from '../runner/redaction.ts';
import { discoverFixtures, planConformance } from '../runner/run-conformance.ts';
import { ensureReachable } from '../runner/reachability.ts';
import { checkCredentials, obtainTokens } from '../runner/credentials-preflight.ts';
import { selectRequirements } from '../runner/selection.ts';
import { catalog } from '../requirements/catalog.ts';
import { describeOrigin, fixtureRows } from '../engine/discovery/provenance.ts';
import { contextParts } from '../engine/target.ts';
import { buildTarget, configFixtures, origin, runBounds, scrubberFor, usableDocuments, type RunOptions } from './run-settings.ts';

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
  const { node, target, sources, fixtureOrigins } = await buildTarget(opts, bounds, given);
  const scrubber = scrubberFor(opts, target);
  const say = (line: string) => console.log(scrubber.scrub(line));
  try {
    const discovery = opts.discovery !== false;
    say(`Plan (nothing is changed${discovery ? '; fixture discovery reads the target' : '; no request is sent'}):`);
    for (const name of ['ledger', 'wallet', 'scan'] as const)
      say(`  ${name.padEnd(8)} ${target[name] ? redactUrl(target[name]!.url) : 'not given'}${node ? ' (embedded reference node)' : ''}`);
    say(`  mutations ${target.allowMutations ? 'allowed' : 'not allowed: checks that change the target are skipped'}`);
    const channels = contextParts(target, {}).skipWebSocket;
    say(`  websocket ${channels ? `not opened: checks reading the ledger's channels are skipped (${channels})` : "the ledger's channels are read"}`);
    let origins = Object.fromEntries(Object.entries(fixtureOrigins).map(([n, from]) => [n, { kind: 'given' as const, from }]));
    if (discovery) {
      const parts = contextParts(target, documents.specs, undefined, {}, { onSecret: (token) => scrubber.add(token) });
      await ensureReachable(parts.clients, target);
      await obtainTokens(parts.clients);
      await checkCredentials(parts.clients, sources);
      say('Fixture discovery (read-only; what a run with mutations allowed would create is named, not done):');
      const found = await discoverFixtures(parts, { target, fixtureOrigins, observer: { fixtureNote: (n) => say(`  ${n}`) } }, false);
      target.fixtures = found.fixtures;
      origins = found.origins as typeof origins;
    }
    const rows = fixtureRows(target.fixtures, origins);
    say(`Fixtures (${rows.length}):`);
    for (const row of rows) say(`  ${row.name.padEnd(24)} ${row.shown}\n  ${''.padEnd(24)} from ${describeOrigin(row.origin)}`);
    const p = planConformance({ target, documents, requirements });
    say(`Would run ${p.runs.length} of ${requirements.length} requirements:`);
    for (const r of p.runs) say(`  RUN  ${r.id}${r.mutates ? ' (changes the target)' : ''}  [${r.operations.join(', ')}]`);
    for (const s of p.skips) say(`  SKIP ${s.requirement.id}: ${s.reason}`);
    say(`Operations that would be called (${p.operations.length}):`);
    for (const o of p.operations) say(`  ${o.call}  (${o.operationId})`);
  } finally {
    await node?.close();
  }
}
