// Package vetting: GET /v2/package-vetting lists which participant vetted which packages on which synchronizer,
// and a vetting change (POST) is what that listing shows afterwards. The change sent is one a real node can
// take without harm: a dry run (the official document's dryRun) of unvetting one package this participant
// vets, with the force flag that lets dependencies stay vetted. Its answer must show the package gone from the
// new state and present in the past one, and the listing afterwards must still show it vetted.
import { isObject, parseJson, pointer, type Json, type JsonObject } from '../../common/json.ts';
import { describeAnswer, type Exchange } from '../../engine/transport/http.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules } from '../../engine/requirement.ts';
import { onTheWay, type Judge } from './package-reads.ts';
import { predates } from '../../interfaces/ledger/release-line.ts';
import { errorCode } from '../../interfaces/ledger/error-code.ts';

const VETTING_PATH = '/v2/package-vetting';
/** Pages of the listing read at most while looking for this participant's entries. */
const MAX_PAGES = 5;

/**
 * The body of a listing request (the document's GET takes a JSON body): release line 3.4's document requires
 * pageToken and pageSize (empty and 0: the first page, of the server's size), 3.5's makes every field optional.
 */
async function listRequest(ctx: CheckContext, participantId?: string): Promise<JsonObject> {
  const filter = participantId ? { topologyStateFilter: { participantIds: [participantId] } } : {};
  return (await predates(ctx, '3.5')) ? { ...filter, pageToken: '', pageSize: 0 } : filter;
}

interface VettedEntry {
  participantId: string;
  synchronizerId: string;
  packages: JsonObject[];
  /** Where it sits in the answer that carried it. */
  at: string;
  x: Exchange;
}

/** The listing's entries, page after page (at most MAX_PAGES), each answer accepted. */
async function readListing(ctx: CheckContext, judge: Judge, participantId: string | undefined, what: string): Promise<VettedEntry[]> {
  const out: VettedEntry[] = [];
  let token = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    const request = await listRequest(ctx, participantId);
    if (token !== '') request.pageToken = token;
    const x = await ctx.ledger.get(VETTING_PATH, { body: request });
    const body = judge.accepted(x, what);
    const entries: unknown[] = isObject(body) && Array.isArray(body.vettedPackages) ? body.vettedPackages : [];
    entries.forEach((e, i) => {
      if (isObject(e) && typeof e.participantId === 'string' && typeof e.synchronizerId === 'string' && Array.isArray(e.packages))
        out.push({
          participantId: e.participantId,
          synchronizerId: e.synchronizerId,
          packages: e.packages.filter(isObject),
          at: pointer('vettedPackages', i),
          x,
        });
    });
    token = isObject(body) && typeof body.nextPageToken === 'string' ? body.nextPageToken : '';
    if (token === '') break;
  }
  return out;
}

/** This participant's id (GET /v2/parties/participant-id, which real nodes serve; no operation of the description). */
async function ownParticipant(ctx: CheckContext): Promise<string | undefined> {
  const x = await ctx.ledger.get('/v2/parties/participant-id');
  const id: unknown = x.status === 200 ? parseJson(x.text)?.participantId : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

const packageIdOf = (p: JsonObject): string | undefined => (typeof p.packageId === 'string' && p.packageId !== '' ? p.packageId : undefined);

/** The index of the package in a VettedPackages record's packages, or -1. */
const indexIn = (record: unknown, id: string): number =>
  isObject(record) && Array.isArray(record.packages) ? record.packages.findIndex((p) => isObject(p) && p.packageId === id) : -1;

export const VETTING_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'ledger' }, [
  {
    id: 'LEDGER-VETTING-LIST',
    operations: ['getPackageVetting'],
    confirms: 'getPackageVetting',
    cites: ['A.overview.36'],
    tags: ['packages', 'vetting'],
    async check(ctx) {
      const x = await ctx.ledger.get(VETTING_PATH, { body: await listRequest(ctx) });
      const body = ctx.accepted(x, 'the listing of the vetted packages');
      if (isObject(body) && body.vettedPackages !== undefined && !Array.isArray(body.vettedPackages))
        ctx.expect(x).fail('the vetting listing carries vettedPackages that is no list', '/vettedPackages');
    },
  },
  {
    id: 'LEDGER-VETTING-DRY-RUN-UNVET',
    operations: ['getPackageVetting', 'postPackageVetting'],
    confirms: 'postPackageVetting',
    cites: ['A.overview.36'],
    tags: ['packages', 'vetting'],
    // A dry run changes nothing on a conformant node, but a faulty one may apply it.
    mutates: true,
    check: (ctx) => onTheWay(ctx, (judge) => dryRunUnvet(ctx, judge)),
  },
]);

/**
 * LEDGER-VETTING-DRY-RUN-UNVET's check. The listings on either side are reads on the way (see onTheWay); the
 * listing afterwards is read (and the package vetted again if the dry run was applied) before the answer is
 * judged, so that a faulty node is left as it was found.
 */
async function dryRunUnvet(ctx: CheckContext, judge: Judge): Promise<void> {
  const known = await ownParticipant(ctx);
  const before = await readListing(ctx, judge, known, "this participant's vetted packages");
  const participants = [...new Set(before.map((e) => e.participantId))];
  const own = known ?? (participants.length === 1 ? participants[0] : undefined);
  if (!own)
    return ctx.skip(
      `the participant's id is not known (GET /v2/parties/participant-id gave none) and the vetting listing names ${participants.length} participants, so no package is known to be vetted by this one`,
    );
  const entry = before.find((e) => e.participantId === own && e.packages.some((p) => packageIdOf(p)));
  if (!entry) return ctx.skip(`the vetting listing shows no package vetted by this participant (${own})`);
  const s = entry.synchronizerId;
  const pre35 = await predates(ctx, '3.5');
  // Empty name and version match any (3.4's document requires all three fields).
  const refOf = (packageId: string) => ({ packageId, packageName: '', packageVersion: '' });
  const dryRun = (packageId: string) =>
    ctx.ledger.post(VETTING_PATH, {
      changes: [{ operation: { Unvet: { value: { packages: [refOf(packageId)] } } } }],
      dryRun: true,
      synchronizerId: s,
      // A package others depend on stays unvettable in a dry run too; 3.4 names the flag for packages in use instead.
      updateVettedPackagesForceFlags: [
        pre35 ? 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVET_PACKAGE_WITH_ACTIVE_CONTRACTS' : 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
      ],
    });
  // 3.4 has no flag that lets dependents stay vetted: a package others depend on is refused there by right,
  // so the dry run moves on to the next vetted package (a few at most).
  const candidates = entry.packages.filter((p) => packageIdOf(p)).slice(0, pre35 ? DEPENDENT_TRIES : 1);
  let vetted = candidates[0]!;
  let x = await dryRun(packageIdOf(vetted)!);
  for (const next of candidates.slice(1)) {
    if (!(x.status === 400 && errorCode(x) === 'TOPOLOGY_DEPENDENCIES_NOT_VETTED')) break;
    vetted = next;
    x = await dryRun(packageIdOf(vetted)!);
  }
  const id = packageIdOf(vetted)!;
  const ref = refOf(id);
  let body: Json;
  let refused: unknown;
  try {
    body = ctx.accepted(x, `a dry run of unvetting package ${id} on ${s}, which this participant vets`);
  } catch (e) {
    refused = e;
  }
  if (x.status >= 200 && x.status < 300) {
    ctx.created(`a dry run of unvetting package ${id} on ${s} (nothing applied on a conformant node; the listing afterwards is checked)`);
    const after = await readListing(ctx, judge, known, "this participant's vetted packages after the dry run");
    if (!after.some((e) => e.participantId === own && e.synchronizerId === s && e.packages.some((p) => p.packageId === id))) {
      await revet(ctx, id, s, ref, vetted);
      if (refused) throw refused;
      const shown = after.find((e) => e.participantId === own && e.synchronizerId === s);
      ctx
        .expect(shown?.x ?? after[0]?.x ?? x)
        .fail(
          `after a dry run of unvetting package ${id} on ${s}, the vetting listing no longer shows it vetted by this participant: the dry run was applied`,
          shown ? `${shown.at}/packages` : undefined,
        );
    }
  }
  if (refused) throw refused;
  const answer = isObject(body) ? body : {};
  if (answer.newVettedPackages === undefined && !pre35)
    ctx.expect(x).fail('the dry run answers no newVettedPackages (the state after the change)', '/newVettedPackages');
  const kept = indexIn(answer.newVettedPackages, id);
  if (kept >= 0)
    ctx.expect(x).fail(`the dry run of unvetting package ${id} answers a new state that still vets it`, pointer('newVettedPackages', 'packages', kept));
  if (isObject(answer.pastVettedPackages) && indexIn(answer.pastVettedPackages, id) < 0)
    ctx.expect(x).fail(`the dry run answers a past state without package ${id}, which the listing showed vetted before it`, '/pastVettedPackages/packages');
}

/** Vetted packages a dry run on release line 3.4 tries before it takes a refusal for dependents as the answer. */
const DEPENDENT_TRIES = 5;

/** Vets a package again, with the bounds it had, after a dry run that unvetted it. */
async function revet(ctx: CheckContext, id: string, synchronizerId: string, ref: JsonObject, vetted: JsonObject): Promise<void> {
  const bounds: JsonObject = {};
  if (typeof vetted.validFromInclusive === 'string' && vetted.validFromInclusive !== '') bounds.newValidFromInclusive = vetted.validFromInclusive;
  if (typeof vetted.validUntilExclusive === 'string' && vetted.validUntilExclusive !== '') bounds.newValidUntilExclusive = vetted.validUntilExclusive;
  const x = await ctx.ledger.post(VETTING_PATH, {
    changes: [{ operation: { Vet: { value: { packages: [ref], ...bounds } } } }],
    synchronizerId,
    dryRun: false,
  });
  const outcome = x.status >= 200 && x.status < 300 ? 'restored' : `not restored: ${describeAnswer(x)}`;
  ctx.created(`package ${id} vetted again on ${synchronizerId} after the dry run unvetted it (${outcome})`);
}
