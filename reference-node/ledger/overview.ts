// The overview endpoints of the ledger interface but the commands (commands.ts). The description shows their
// purpose only, so the shapes are the plausible 3.5 ones (the document keeps them open). Package uploads and
// vetting changes are accepted without changing the simulated network; each such answer says so in the
// `x-cn-simulated` header.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isObject, type JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { identify, requireReadRights, type Caller } from './callers.ts';
import { findContract } from './contract-lookup.ts';
import { LedgerHttpError, sendCantonError } from './errors.ts';
import { checkListVettedPackages, checkUpdateVettedPackages, getBody, checkVetAllPackages } from './package-requests.ts';
import { MAX_PARTIES_PAGE_SIZE } from './parties.ts';
import { Audience, hostedParties } from './projection.ts';
import { PRE_3_5_VERSION, releaseStyle, styleEvent } from './release-style.ts';
import { archivedEvent, createdEvent } from './render.ts';
import { InvalidStreamRequest, namedParties, parseEventFormat } from './stream-request.ts';

export const LEDGER_API_VERSION = '3.5.14';
const SIMULATED = 'accepted; package changes do not change the simulated network';

type Handler = (req: FastifyRequest, caller: Caller, reply: FastifyReply) => unknown | Promise<unknown>;

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
      if (Buffer.isBuffer(body)) return reply.code(200).type('application/octet-stream').send(body);
      // overview-json-as-text: a JSON string serialized by hand goes out labelled as text.
      if (ctx.faults.has('ledger-overview-json-as-text')) return reply.code(200).type('text/plain; charset=utf-8').send(JSON.stringify(body));
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
  const simulated = (handler: Handler) => async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-cn-simulated', SIMULATED);
    return route(handler)(req, reply);
  };

  app.post(
    '/events/events-by-contract-id',
    route((req, caller) => eventsByContractId(ctx, req.body, caller)),
  );
  app.get(
    '/version',
    route(() => ({
      version: ctx.faults.has('ledger-pre-3-5') ? PRE_3_5_VERSION : LEDGER_API_VERSION,
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
    simulated(() => ({})),
  );
  app.post(
    '/dars',
    simulated((req) => {
      checkVetAllPackages(req.query);
      return {};
    }),
  );
  app.post(
    '/packages',
    simulated((req) => {
      checkVetAllPackages(req.query);
      // packages-upload-differs: the old path validates what /dars takes as it comes.
      if (ctx.faults.has('ledger-packages-upload-differs'))
        throw new LedgerHttpError(400, 'invalidArgument', 'The uploaded bytes are not a valid DAR.', 'INVALID_DAR');
      return {};
    }),
  );
  app.get(
    '/packages',
    route(() => ({ packageIds: packages(ctx).map((p) => p.id) })),
  );
  app.get<{ Params: { packageId: string } }>(
    '/packages/:packageId',
    route((req, _caller, reply) => {
      const id = (req.params as { packageId: string }).packageId;
      const pkg = packages(ctx).find((p) => p.id === id);
      if (!pkg) throw new LedgerHttpError(404, 'notFound', `Package ${id} is not known to this participant.`, 'PACKAGE_NOT_FOUND');
      // Required by the official document: the archive's hash, which a package id is.
      reply.header(PACKAGE_HASH_HEADER, pkg.id);
      return archiveBytes(pkg);
    }),
  );
  app.get(
    '/packages/:packageId/status',
    route((req) => {
      const id = (req.params as { packageId: string }).packageId;
      return { packageStatus: packages(ctx).some((p) => p.id === id) ? 'PACKAGE_STATUS_REGISTERED' : 'PACKAGE_STATUS_UNSPECIFIED' };
    }),
  );
  app.get(
    '/package-vetting',
    route(async (req) => {
      checkListVettedPackages(await getBody(req.raw));
      return { vettedPackages: ctx.world.synchronizers.map((s) => vettedOn(ctx, s.id)) };
    }),
  );
  app.post(
    '/package-vetting',
    simulated((req) => {
      const { synchronizerId = ctx.world.synchronizers[0]!.id } = checkUpdateVettedPackages(req.body);
      if (!ctx.world.synchronizers.some((s) => s.id === synchronizerId))
        throw new LedgerHttpError(404, 'notFound', `The participant is not connected to synchronizer ${synchronizerId}.`, 'SYNCHRONIZER_NOT_FOUND');
      // Changes do not change the simulated network: the state after them is the state before.
      return { pastVettedPackages: vettedOn(ctx, synchronizerId), newVettedPackages: vettedOn(ctx, synchronizerId) };
    }),
  );
}

/** The packages the participant vets on a synchronizer, as the official document shapes them. */
function vettedOn(ctx: NodeContext, synchronizerId: string): JsonObject {
  return {
    participantId: ctx.world.ledgerParticipant.id,
    synchronizerId,
    topologySerial: 1,
    packages: packages(ctx).map((p) => ({ packageId: p.id, packageName: p.name, packageVersion: '0.1.0' })),
  };
}

function packages(ctx: NodeContext): Array<{ id: string; name: string }> {
  return [
    { id: ctx.world.amuletPackage, name: 'splice-amulet' },
    { id: ctx.world.walletPackage, name: 'splice-wallet' },
  ];
}

/** Deterministic stand-in for a package archive. */
function archiveBytes(pkg: { id: string; name: string }): Buffer {
  return Buffer.concat([Buffer.from([0x0a, 0x40]), Buffer.from(pkg.id), Buffer.from(`\n${pkg.name} (simulated DAML-LF archive)\n`)]);
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
  const found = findContract(ctx.world, body.contractId);
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
  if (found.archived) {
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
