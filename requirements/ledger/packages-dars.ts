// DARs: validation and upload of a DAR the suite builds of a package the participant already serves (so a
// correct node has nothing new to take, and an upload changes nothing it knows). The DAR must be accepted; the
// upload's effect shows in the listing and the status lookup afterwards; bytes that are no DAR are refused.
import { isObject, parseJson } from '../../common/json.ts';
import { describeAnswer, type Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { buildDar } from './dar-archive.ts';
import { darSource, listPackages, NOT_A_DAR, onTheWay, packagePath } from './package-reads.ts';
import { UNKNOWN_STATUS } from './packages.ts';

const sendBytes = (ctx: CheckContext, path: string, bytes: Buffer, query: Record<string, string | undefined>) =>
  ctx.ledger.request('POST', path, { rawBody: bytes, contentType: 'application/octet-stream', query });

/**
 * A synchronizer the participant is connected to (GET /v2/state/connected-synchronizers, which real nodes serve;
 * no operation of the description), for a validation to name its target: a participant on several refuses to
 * guess. Undefined when the node does not say.
 */
async function someSynchronizer(ctx: CheckContext): Promise<string | undefined> {
  const x = await ctx.ledger.get('/v2/state/connected-synchronizers');
  const list: unknown = x.status === 200 ? parseJson(x.text)?.connectedSynchronizers : undefined;
  const first = Array.isArray(list) ? list.find((s) => isObject(s) && typeof s.synchronizerId === 'string' && s.synchronizerId !== '') : undefined;
  return first?.synchronizerId;
}

/** The answer to bytes that are no DAR, sent where a DAR belongs: a conformant node refuses them (any status but 2xx). */
function refusedNoDar(ctx: CheckContext, path: string, x: Exchange): void {
  if (x.status >= 200 && x.status < 300) ctx.expect(x).fail(`POST ${path} accepted bytes that are no DAR (${describeAnswer(x)})`);
}

/**
 * Uploads a DAR of a listed package through `path` (POST /v2/dars, or POST /v2/packages, which does the same)
 * without vetting (vetAllPackages=false: the vetting state stays as it was), then reads what it did: the package
 * is listed, its status is not unknown; and bytes that are no DAR are refused.
 */
export function uploadAndConfirm(ctx: CheckContext, path: '/v2/dars' | '/v2/packages'): Promise<void> {
  return onTheWay(ctx, async (judge) => {
    const pkg = await darSource(ctx, judge);
    const query = { vetAllPackages: 'false' };
    const x = await sendBytes(ctx, path, buildDar([pkg]), query);
    ctx.accepted(x, `a DAR of package ${pkg.id}, which the participant serves, without vetting`);
    ctx.created(`a DAR of package ${pkg.id} (the participant's own) uploaded through POST ${path} with vetAllPackages=false: nothing it did not have`);
    // What it did, and the refusal of bytes that are no DAR, are independent reads: asked together.
    const [after, status, noDar] = await Promise.all([
      listPackages(ctx, judge, `the listing of the packages after the upload of package ${pkg.id}`),
      ctx.ledger.get(`${packagePath(pkg.id)}/status`),
      sendBytes(ctx, path, NOT_A_DAR, query),
    ]);
    if (!after.ids.includes(pkg.id))
      ctx.expect(after.x).fail(`after POST ${path} accepted a DAR of package ${pkg.id}, GET /v2/packages no longer lists it`, '/packageIds');
    const body = judge.accepted(status, `the status of package ${pkg.id} after its upload`);
    if (isObject(body) && body.packageStatus === UNKNOWN_STATUS)
      ctx
        .expect(status)
        .fail(`after POST ${path} accepted a DAR of package ${pkg.id}, its status lookup calls it ${UNKNOWN_STATUS} (unknown)`, '/packageStatus');
    refusedNoDar(ctx, path, noDar);
  });
}

export const DAR_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger' }, [
  {
    id: 'LEDGER-PACKAGES-DAR-VALIDATE',
    operations: ['listPackages', 'getPackage', 'validateDar'],
    confirms: 'validateDar',
    cites: ['A.overview.24'],
    tags: ['packages', 'dars'],
    check: (ctx) =>
      onTheWay(ctx, async (judge) => {
        const pkg = await darSource(ctx, judge);
        const query = { synchronizerId: await someSynchronizer(ctx) };
        // A package the participant has is compatible with itself, whatever is vetted; a validation changes nothing.
        const [x, noDar] = await Promise.all([
          sendBytes(ctx, '/v2/dars/validate', buildDar([pkg]), query),
          sendBytes(ctx, '/v2/dars/validate', NOT_A_DAR, query),
        ]);
        ctx.accepted(x, `a DAR of package ${pkg.id}, which the participant serves`);
        refusedNoDar(ctx, '/v2/dars/validate', noDar);
      }),
  },
  {
    id: 'LEDGER-PACKAGES-DAR-UPLOAD',
    operations: ['listPackages', 'getPackage', 'uploadDar', 'getPackageStatus'],
    confirms: 'uploadDar',
    cites: ['A.overview.26'],
    tags: ['packages', 'dars'],
    mutates: true,
    check: (ctx) => uploadAndConfirm(ctx, '/v2/dars'),
  },
]);
