// The overview endpoints of the ledger interface but the commands (commands.ts). The description shows their
// purpose only, so the shapes are the plausible 3.5 ones (the document keeps them open). Packages and vetting
// are the participant's own state (package-store.ts): uploads read the DAR and take its packages, validation
// reads it and keeps nothing, and vetting changes change what the vetting listing shows (a dry run nothing).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { identify, requireAdmin, requireReadRights, type Caller } from './callers.ts';
import { findContract } from './contract-lookup.ts';
import { type Dar, DarError, readDar } from './dar.ts';
import { LedgerHttpError, sendCantonError } from './errors.ts';
import { packageStore, type StoredPackage } from './package-store.ts';
import { checkListVettedPackages, checkUpdateVettedPackages, getBody, checkVetAllPackages } from './package-requests.ts';
import { MAX_PARTIES_PAGE_SIZE } from './parties.ts';
import { Audience, hostedParties } from './projection.ts';
import { PRE_3_5_VERSION, pre35, releaseStyle, styleEvent } from './release-style.ts';
import { archivedEvent, createdEvent } from './render.ts';
import { InvalidStreamRequest, namedParties, parseEventFormat } from './stream-request.ts';
import { isoMicros, parseMicros } from '../world/time.ts';

export const LEDGER_API_VERSION = '3.5.14';
/** The error code of bytes a participant cannot read as a DAR. */
const INVALID_DAR = 'INVALID_DAR';

type Handler = (req: FastifyRequest, caller: Caller, reply: FastifyReply) => unknown | Promise<unknown>;

const REASSIGNMENT_PATHS = /^\/v2\/commands\/(submit-and-wait-for-reassignment|async\/submit-reassignment)(\?|$)/;

/** The vetted packages one page of a listing may hold: more than the simulated participant vets. */
const MAX_VETTED_PACKAGES_PAGE_SIZE = 1000;
const PACKAGE_HASH_HEADER = 'Canton-Package-Hash';

/**
 * An overview endpoint's handler. Credentials are required: the description leaves them open here, the official
 * document declares them for every ledger operation, and real nodes refuse a request without them (401). A body
 * that breaks the document's request shape is the HTTP layer's plain-text 400.
 */
export function overviewRoute<C extends Caller = Caller>(ctx: NodeContext, handler: (req: FastifyRequest, caller: C, reply: FastifyReply) => unknown) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      const caller = (await identify(ctx, req, true)) as C;
      const body = await handler(req, caller, reply);
      // package-archive-as-text: the package's bytes go out labelled as text.
      if (Buffer.isBuffer(body))
        return reply
          .code(200)
          .type(ctx.faults.has('ledger-package-archive-as-text') ? 'text/plain; charset=utf-8' : 'application/octet-stream')
          .send(body);
      // overview-json-as-text: a JSON string serialized by hand goes out labelled as text (reassignment-json-as-text:
      // on the reassignment endpoints only).
      if (ctx.faults.has('ledger-overview-json-as-text') || (ctx.faults.has('ledger-reassignment-json-as-text') && REASSIGNMENT_PATHS.test(req.url)))
        return reply.code(200).type('text/plain; charset=utf-8').send(JSON.stringify(body));
      return reply.code(200).type('application/json; charset=utf-8').send(body);
    } catch (e) {
      if (e instanceof InvalidStreamRequest) return reply.code(400).type('text/plain; charset=utf-8').send(e.message);
      if (e instanceof LedgerHttpError) return sendCantonError(ctx, reply, e.status, e.kind, e.message, e.codeOverride);
      throw e;
    }
  };
}

export function overviewRoutes(app: FastifyInstance, ctx: NodeContext): void {
  const route = (handler: Handler) => overviewRoute(ctx, handler);
  const store = packageStore(ctx);

  app.post(
    '/events/events-by-contract-id',
    route((req, caller) => eventsByContractId(ctx, req.body, caller)),
  );
  app.get(
    '/version',
    route(() => ({
      // version-unstated: the answer leaves out the version it is read for.
      ...(ctx.faults.has('ledger-version-unstated') ? {} : { version: pre35(ctx) ? PRE_3_5_VERSION : LEDGER_API_VERSION }),
      features: {
        userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: MAX_PARTIES_PAGE_SIZE },
        offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0 } },
        experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
        // Required by the official document (the description leaves the payload open); one page holds every package.
        packageFeature: { maxVettedPackagesPageSize: MAX_VETTED_PACKAGES_PAGE_SIZE },
      },
    })),
  );
  app.post(
    '/dars/validate',
    route((req, caller) => {
      requireAdmin(caller, 'validate DARs');
      querySynchronizer(ctx, req.query);
      // dar-validate-accepts-anything: validation answers without reading the bytes.
      if (ctx.faults.has('ledger-dar-validate-accepts-anything')) return {};
      // Read-only: the packages are checked as an upload would take them, and nothing is kept.
      readBody(req.body, (dar) => store.packagesOf(dar));
      return {};
    }),
  );
  app.post(
    '/dars',
    route((req, caller) => upload(ctx, req, caller, '/v2/dars')),
  );
  app.post(
    '/packages',
    route((req, caller) => upload(ctx, req, caller, '/v2/packages')),
  );
  app.get(
    '/packages',
    // packages-list-omits-amulet: the listing leaves out the amulet package, whose templates the stream's events name.
    route(() => ({
      packageIds: [...store.packages.keys()].filter(
        (id) => !store.forgotten.has(id) && !(ctx.faults.has('ledger-packages-list-omits-amulet') && id === ctx.world.amuletPackage),
      ),
    })),
  );
  app.get<{ Params: { packageId: string } }>(
    '/packages/:packageId',
    route((req, _caller, reply) => {
      const id = (req.params as { packageId: string }).packageId;
      const pkg = store.packages.get(id);
      if (!pkg) throw new LedgerHttpError(404, 'notFound', `Package ${id} is not known to this participant.`, 'PACKAGE_NOT_FOUND');
      // Required by the official document: the archive's hash, which a package id is.
      reply.header(PACKAGE_HASH_HEADER, pkg.id);
      // package-contents-empty: the package is answered with no bytes at all.
      if (ctx.faults.has('ledger-package-contents-empty')) return Buffer.alloc(0);
      // package-contents-of-another: every package is answered with the bytes of the first one the listing names.
      if (ctx.faults.has('ledger-package-contents-of-another')) return store.packages.values().next().value?.payload ?? pkg.payload;
      return pkg.payload;
    }),
  );
  app.get(
    '/packages/:packageId/status',
    route((req) => {
      // package-status-method-refused: the node's handler refuses the documented GET as a method it does not allow.
      if (ctx.faults.has('ledger-package-status-method-refused'))
        throw new LedgerHttpError(405, 'invalidArgument', 'Method GET is not allowed on the package status.', 'METHOD_NOT_ALLOWED');
      const pkg = store.packages.get((req.params as { packageId: string }).packageId);
      // package-status-unknown: the lookup knows only the packages uploaded through the interface.
      const known = pkg !== undefined && !(ctx.faults.has('ledger-package-status-unknown') && pkg.provisioned && !pkg.uploaded);
      return { packageStatus: known ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' };
    }),
  );
  app.get(
    '/package-vetting',
    route(async (req) => vettingListing(ctx, checkListVettedPackages(await getBody(req.raw)))),
  );
  app.post(
    '/package-vetting',
    route((req, caller) => {
      requireAdmin(caller, 'change the vetted packages');
      const request = checkUpdateVettedPackages(req.body, pre35(ctx));
      const synchronizerId = (request.synchronizerId as string | undefined) || onlySynchronizer(ctx);
      if (!store.isConnected(synchronizerId))
        throw new LedgerHttpError(404, 'notFound', `The participant is not connected to synchronizer ${synchronizerId}.`, 'SYNCHRONIZER_NOT_FOUND');
      return store.updateVetting(ctx, synchronizerId, request);
    }),
  );
}

/**
 * The body of an upload or validation as a DAR, read (`take`) as the participant takes its packages, or the 400
 * it answers bytes it cannot read as one.
 */
function readBody<T>(body: unknown, take: (dar: Dar) => T): T {
  if (!Buffer.isBuffer(body)) throw new LedgerHttpError(400, 'invalidArgument', 'The body must be the bytes of a DAR (application/octet-stream).', INVALID_DAR);
  try {
    return take(readDar(body));
  } catch (e) {
    if (e instanceof DarError) throw new LedgerHttpError(400, 'invalidArgument', `The bytes are not a valid DAR: ${e.message}.`, INVALID_DAR);
    throw e;
  }
}

/** POST /v2/dars and POST /v2/packages, which does the same. */
function upload(ctx: NodeContext, req: FastifyRequest, caller: Caller, path: string): JsonObject {
  requireAdmin(caller, 'upload DARs');
  const vetAll = checkVetAllPackages(req.query) ?? true;
  const synchronizerId = querySynchronizer(ctx, req.query);
  const store = packageStore(ctx);
  const vetOn = vetAll ? (synchronizerId ? [synchronizerId] : ctx.world.synchronizers.map((s) => s.id)) : [];
  let taken: StoredPackage[];
  try {
    taken = readBody(req.body, (dar) => store.upload(dar, vetOn));
  } catch (e) {
    const noDar = e instanceof LedgerHttpError && e.codeOverride === INVALID_DAR;
    // dar-upload-accepts-anything: what is no DAR is answered as if it had been uploaded.
    if (noDar && ctx.faults.has('ledger-dar-upload-accepts-anything')) return {};
    // packages-upload-differs: the old path refuses what is no DAR with another error than /v2/dars.
    if (noDar && path === '/v2/packages' && ctx.faults.has('ledger-packages-upload-differs'))
      throw new LedgerHttpError(400, 'invalidArgument', 'The uploaded bytes could not be processed.');
    throw e;
  }
  // dar-upload-forgets-packages: the listing loses what the upload brought.
  if (ctx.faults.has('ledger-dar-upload-forgets-packages')) for (const p of taken) store.forgotten.add(p.id);
  return {};
}

/** The optional `synchronizerId` query parameter of an upload or validation: a synchronizer the participant is connected to. */
function querySynchronizer(ctx: NodeContext, query: unknown): string | undefined {
  const raw = isObject(query) ? query.synchronizerId : undefined;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw new InvalidStreamRequest('Invalid value for: query parameter synchronizerId (given more than once)');
  if (!packageStore(ctx).isConnected(raw))
    throw new LedgerHttpError(404, 'notFound', `The participant is not connected to synchronizer ${raw}.`, 'SYNCHRONIZER_NOT_FOUND');
  return raw;
}

/** The synchronizer a vetting change without one applies to: the only one connected, else the request must name it. */
function onlySynchronizer(ctx: NodeContext): string {
  const all = ctx.world.synchronizers;
  if (all.length === 1) return all[0]!.id;
  throw new LedgerHttpError(
    400,
    'invalidArgument',
    `The participant is connected to ${all.length} synchronizers: the request must name one in synchronizerId.`,
    'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
  );
}

/** GET /v2/package-vetting: every participant's vetted packages, filtered and paged as the request asks. */
function vettingListing(ctx: NodeContext, request: JsonObject): JsonObject {
  const store = packageStore(ctx);
  const strings = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);
  const metadata = isObject(request.packageMetadataFilter) ? request.packageMetadataFilter : {};
  const [ids, prefixes] = [strings(metadata.packageIds), strings(metadata.packageNamePrefixes)];
  const topology = isObject(request.topologyStateFilter) ? request.topologyStateFilter : {};
  const [participants, synchronizers] = [strings(topology.participantIds), strings(topology.synchronizerIds)];
  // An empty filter matches everything; a given one matches a package by any of its candidates.
  const keep = (p: { name: string } | undefined, id: string) =>
    (ids.length === 0 && prefixes.length === 0) || ids.includes(id) || (p !== undefined && prefixes.some((x) => p.name.startsWith(x)));
  const after = typeof request.pageToken === 'string' && request.pageToken !== '' ? Buffer.from(request.pageToken, 'base64url').toString() : '';
  const rows = store
    .listing()
    .filter(
      (v) => (participants.length === 0 || participants.includes(v.participantId)) && (synchronizers.length === 0 || synchronizers.includes(v.synchronizerId)),
    )
    .filter((v) => `${v.synchronizerId} ${v.participantId}` > after)
    .map((v) => store.record(v.synchronizerId, v.participantId, v.serial, v.packages, keep))
    .filter((r) => (r.packages as unknown[]).length > 0);
  const size = typeof request.pageSize === 'number' && request.pageSize > 0 ? request.pageSize : MAX_VETTED_PACKAGES_PAGE_SIZE;
  if (size > MAX_VETTED_PACKAGES_PAGE_SIZE)
    throw new LedgerHttpError(400, 'invalidArgument', `pageSize ${size} exceeds the maximum of ${MAX_VETTED_PACKAGES_PAGE_SIZE}.`);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    vettedPackages: page,
    nextPageToken: page.length < rows.length && last ? Buffer.from(`${last.synchronizerId} ${last.participantId}`).toString('base64url') : '',
  };
}

function eventsByContractId(ctx: NodeContext, body: unknown, caller: Caller): JsonObject {
  if (!isObject(body) || Buffer.isBuffer(body)) throw new LedgerHttpError(400, 'invalidArgument', 'The request body must be a JSON object with a contractId.');
  if (typeof body.contractId !== 'string' || body.contractId === '')
    throw new LedgerHttpError(400, 'invalidArgument', 'contractId must be a non-empty string.');
  let audience: Audience | undefined;
  if (body.eventFormat !== undefined) {
    try {
      const format = parseEventFormat(body.eventFormat, 'eventFormat');
      const named = namedParties(format);
      requireReadRights(caller, named.parties, named.anyParty);
      audience = new Audience(ctx, format, hostedParties(ctx));
    } catch (e) {
      if (e instanceof InvalidStreamRequest) throw new LedgerHttpError(400, 'invalidArgument', e.message);
      throw e;
    }
  }
  // events-neighbour-contract: the events answered are those of the holding after the asked one in the history.
  const found = findContract(ctx.world, ctx.faults.has('ledger-events-neighbour-contract') ? neighbour(ctx, body.contractId) : body.contractId);
  const c = found?.contract;
  const stakeholders = c ? [...new Set([...c.signatories, ...c.observers])] : [];
  // With an event format, only its requesting stakeholders see the contract; without, every stakeholder does.
  const witnessParties = c && audience ? audience.see(stakeholders, c).parties : stakeholders;
  if (!found || !c || witnessParties.length === 0) {
    throw new LedgerHttpError(
      404,
      'notFound',
      `Contract events not found, or not visible to the requesting parties: ${body.contractId}`,
      'CONTRACT_EVENTS_NOT_FOUND',
    );
  }
  const out: { created: { createdEvent: JsonObject; synchronizerId: string }; archived?: { archivedEvent: JsonObject; synchronizerId: string } } = {
    created: {
      createdEvent: createdEvent(c, { offset: found.createdOffset, nodeId: found.createdNodeId, witnessParties, blob: false, acsDelta: true }),
      synchronizerId: found.synchronizerId,
    },
  };
  // events-template-swapped, events-created-at-shifted: the created event names the other package's template,
  // or a creation one microsecond later than the transaction that created it.
  const ev = out.created.createdEvent;
  if (ctx.faults.has('ledger-events-template-swapped')) ev.templateId = swapPackage(ctx, String(ev.templateId));
  if (ctx.faults.has('ledger-events-created-at-shifted')) ev.createdAt = microsLater(String(ev.createdAt));
  // events-archive-omitted: the consuming exercise is left out, as if the contract were active.
  if (found.archived && !ctx.faults.has('ledger-events-archive-omitted')) {
    out.archived = {
      archivedEvent: archivedEvent(found.archived.node, { offset: found.archived.offset, witnessParties }),
      synchronizerId: found.archived.synchronizerId,
    };
  }
  const style = releaseStyle(ctx);
  if (style) {
    styleEvent('CreatedEvent', out.created.createdEvent, style);
    if (out.archived) styleEvent('ArchivedEvent', out.archived.archivedEvent, style);
  }
  return out;
}

/**
 * The contract id of the next holding of the history with every stakeholder of `contractId` (so the same reader
 * sees it); `contractId` itself when it is no holding or has no such neighbour.
 */
function neighbour(ctx: NodeContext, contractId: string): string {
  const holdings = ctx.world.baseHoldings;
  const i = holdings.findIndex((h) => h.contract.contractId === contractId);
  if (i < 0) return contractId;
  const parties = (c: (typeof holdings)[number]['contract']) => [...c.signatories, ...c.observers];
  const asked = parties(holdings[i]!.contract);
  const next = [...holdings.slice(i + 1), ...holdings.slice(0, i)].find((h) => asked.every((p) => parties(h.contract).includes(p)));
  return next?.contract.contractId ?? contractId;
}

/** The template id with the other of the world's two packages. */
function swapPackage(ctx: NodeContext, templateId: string): string {
  const { amuletPackage, walletPackage } = ctx.world;
  const [pkg, ...rest] = templateId.split(':');
  return [pkg === amuletPackage ? walletPackage : amuletPackage, ...rest].join(':');
}

/** An ISO time with microseconds, one microsecond later. */
const microsLater = (iso: string): string => isoMicros(parseMicros(iso) + 1);
