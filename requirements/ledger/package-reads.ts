// The package reads the package, DAR and vetting requirements share: the participant's listing, one
// package's contents, and a DAR built of a listed package (what the node must accept back). Each answer is a
// positive one: a refusal fails the check that asked, naming the operation.
import { isObject, parseJson, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { CheckFailure, CheckSkipped, type CheckContext } from '../../engine/model.ts';
import type { DarPackage } from './dar-archive.ts';

export const PACKAGES_PATH = '/v2/packages';
export const packagePath = (id: string) => `${PACKAGES_PATH}/${encodeURIComponent(id)}`;

/** How many listed packages a check tries before it gives up finding one to work with. */
const CANDIDATES = 3;

/** Judges a positive answer (ctx.accepted, or a check's deferring judge: see onTheWay). */
export interface Judge {
  accepted(x: Exchange, what: string): Json | undefined;
}

/**
 * Runs a check whose reads on the way to the operation it confirms are judged as positive answers (`judge`),
 * but a 2xx read that only breaks its document does not stop it: the check goes on with what the answer says,
 * and the first such break fails it at the end (or instead of a skip). So the operation the check confirms is
 * still asked and judged itself: a node that mislabels every answer shows it on that operation too. Refusals,
 * and answers to the confirmed operation (ctx.accepted), end the check at once as usual.
 */
export async function onTheWay(ctx: CheckContext, run: (judge: Judge) => Promise<void>): Promise<void> {
  let deferred: CheckFailure | undefined;
  const judge: Judge = {
    accepted(x, what) {
      const ok = x.status >= 200 && x.status < 300 && !x.truncated;
      try {
        return ctx.accepted(x, what);
      } catch (e) {
        if (!ok || !(e instanceof CheckFailure)) throw e;
        deferred ??= e;
        return parseJson(x.text);
      }
    },
  };
  try {
    await run(judge);
  } catch (e) {
    if (deferred && e instanceof CheckSkipped) throw deferred;
    throw e;
  }
  if (deferred) throw deferred;
}

/** GET /v2/packages, judged; the package ids it lists (the official document's packageIds, strings only). */
export async function listPackages(ctx: CheckContext, judge: Judge, what = 'the listing of the packages'): Promise<{ x: Exchange; ids: string[] }> {
  const x = await ctx.ledger.get(PACKAGES_PATH);
  const body = judge.accepted(x, what);
  const listed: unknown = isObject(body) ? body.packageIds : undefined;
  return { x, ids: Array.isArray(listed) ? [...new Set(listed.filter((id): id is string => typeof id === 'string' && id !== ''))] : [] };
}

/** The first few listed packages, or a skip saying the listing names none (the checks need one to work with). */
export async function someListedPackages(ctx: CheckContext, judge: Judge): Promise<{ x: Exchange; ids: string[] }> {
  const listing = await listPackages(ctx, judge);
  if (listing.ids.length === 0) ctx.skip('GET /v2/packages lists no package id (packageIds), so no package could be looked up');
  return { x: listing.x, ids: listing.ids.slice(0, CANDIDATES) };
}

/**
 * GET /v2/packages/{id}, judged. A body beyond the run's size bound is no refusal: the check cannot use it
 * (skipped), the node is not judged on it.
 */
export async function getPackage(ctx: CheckContext, judge: Judge, id: string, what: string): Promise<Exchange> {
  const x = await ctx.ledger.get(packagePath(id));
  if (x.status >= 200 && x.status < 300 && x.truncated) ctx.skip(`the contents of package ${id} exceed the run's body size bound; they were not judged`);
  judge.accepted(x, what);
  return x;
}

/** Whether an answer carries the package's bytes (not a JSON rendering of it, which the suite cannot turn back into an archive). */
const archiveBytes = (x: Exchange) => x.bytes.length > 0 && !/^application\/json\b/i.test(x.headers['content-type'] ?? '');

/**
 * A listed package with its bytes, to build a DAR of: the first of the listing's first few whose contents come
 * as bytes. A node that serves none so is skipped (no DAR can be built); whether the contents are right is
 * LEDGER-PACKAGES-CONTENTS-OF-LISTED's question.
 */
export async function darSource(ctx: CheckContext, judge: Judge): Promise<DarPackage> {
  const { ids } = await someListedPackages(ctx, judge);
  for (const id of ids) {
    const x = await getPackage(ctx, judge, id, `the contents of package ${id}, which GET /v2/packages lists`);
    if (archiveBytes(x)) return { id, payload: x.bytes };
  }
  return ctx.skip(`none of the listed packages ${ids.join(', ')} came as archive bytes (empty, or JSON), so no DAR could be built of one`);
}

/** Bytes that are no DAR (nor any zip): a conformant node refuses to validate or upload them. */
export const NOT_A_DAR = Buffer.from('cn-conformance: these bytes are not a DAR archive\n');
