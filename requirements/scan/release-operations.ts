// What the release a scan states must serve: the operations the description dates at or before it, at the
// path of that release (description/versions.ts). A release before all of them has none to show, so the rule
// does not apply there; a scan that states no release cannot be held to one. It reviews the run's answers
// first: an operation a check saw served needs no request of its own.
import { releaseBefore } from '../../common/releases.ts';
import { parseJson } from '../../common/json.ts';
import { DATED_OPERATIONS } from '../../description/versions.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { defineRules } from '../../engine/requirement.ts';
import { notServed } from '../../engine/served.ts';
import type { OperationSpec } from '../../generators/index.ts';

/** It asks whether each dated operation is served at all: no variant of one changes that. */
const WHY_NO_VARIANTS =
  'whether a dated operation is served at all is one question for all its versions and variants; their answers are judged by their own rules';

const SCAN_DATED = DATED_OPERATIONS.filter((d) => d.interface === 'scan' && (d.since || d.movedFrom));

/** Path parameters: a value the operation's handler takes (an integer where it reads one), whatever it then finds. */
const fill = (path: string, runId: string) => path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'round_number' ? '0' : `cnc-${runId}-absent`));

/**
 * An empty request of the operation (a POST with the body `{}`, which its handler refuses with a 400), and
 * whether its answer shows no handler there: `absent`, a plain answer saying "no such operation" where no
 * handler of the operation answers so; `unclear`, a plain 404 of a GET the operation documents a 404 for (its
 * own "not found" of the placeholder may be plain text too); `served` otherwise.
 */
async function probe(ctx: CheckContext, op: OperationSpec, path: string): Promise<{ x: Exchange; outcome: 'served' | 'absent' | 'unclear'; why?: string }> {
  const x = op.method === 'get' ? await ctx.scan.get(path) : await ctx.scan.request(op.method.toUpperCase(), path, { body: {} });
  if (x.status === 0) ctx.expect(x).fail(`no answer to ${op.method.toUpperCase()} ${op.fullPath}: ${x.error}`);
  // A JSON body is the operation's own answer, whatever its status (an unknown id's 404, bulk storage's 501).
  const why = parseJson(x.text) === undefined ? notServed(ctx.spec('scan'), op, x) : undefined;
  if (!why || x.status === 501) return { x, outcome: 'served' };
  return { x, outcome: x.status === 404 && op.method === 'get' ? 'unclear' : 'absent', why };
}

export const RELEASE_OPERATION_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  {
    id: 'SCAN-RELEASE-SERVES-DATED-OPERATIONS',
    operations: SCAN_DATED.map((d) => d.operation),
    cites: ['X.versioning.9', 'X.versioning.7'],
    tags: ['versioning'],
    phase: 'review',
    variants: { version: WHY_NO_VARIANTS },
    async check(ctx) {
      const stated = ctx.release('scan');
      if (!stated) return ctx.skip('the scan states no release (GET /api/scan/version): no release to hold it to');
      const spec = ctx.spec('scan');
      // An operation is due from its introduction on; one that moved, from the release that moved it (the
      // description gives no introduction for it, so an earlier release need not have it at its old path).
      const owed = SCAN_DATED.filter((d) => releaseBefore(stated.version, d.since ?? d.movedFrom!.until) === false);
      if (owed.length === 0)
        return ctx.notApplicable(`the scan states release ${stated.version} (${stated.request}), before every operation the description dates`);
      const node = `the scan states release ${stated.version} (${stated.request})`;
      const unclear: string[] = [];
      for (const d of owed) {
        const op = spec.catalog.byId.get(d.operation);
        if (!op || ctx.answers.servedShown('scan', op.id)) continue;
        const at = await probe(ctx, op, fill(op.path, ctx.runId));
        const has = `${d.operation} (${d.since ? `since ${d.since}` : `at ${op.fullPath} since ${d.movedFrom!.until}`})`;
        if (at.outcome === 'absent')
          ctx
            .expect(at.x)
            .fail(
              `${node}, which has ${has}, yet no answer of the run showed it served, and an empty request to ${op.method.toUpperCase()} ${op.fullPath} was ${at.why}`,
            );
        if (at.outcome === 'served') continue;
        // Moved: its handler answering at the old path, where this release no longer has it, settles it.
        const old = d.movedFrom && (await probe(ctx, op, fill(d.movedFrom.path, ctx.runId)));
        if (old?.outcome === 'served')
          ctx
            .expect(at.x)
            .fail(
              `${node}, which has ${has}, yet it answers there as an unknown path (${at.why}) and is served at its old path ${d.movedFrom!.path} (${old.x.status})`,
            );
        unclear.push(`${d.operation} (${at.why})`);
      }
      if (unclear.length > 0)
        ctx.skip(`${node}; no answer of the run showed these served, and their answers to a placeholder may be their own "not found": ${unclear.join('; ')}`);
    },
  },
]);
