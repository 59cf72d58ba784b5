// Assembles the reference node: one fastify server on loopback serving the ledger (/v2, with its WebSocket
// channels on the same port), wallet (/api/validator) and scan (/api/scan) interfaces of one simulated network.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { JsonObject } from '../common/json.ts';
import { Auth, type TrustedIssuer } from './auth.ts';
import { BadJsonError } from './bad-json.ts';
import { SimulatedClock } from './clock.ts';
import type { NodeContext, NodeSettings } from './context.ts';
import { FaultSet } from './faults.ts';
import { ledgerChannels } from './ledger/channels/upgrade.ts';
import { ledgerRoutes } from './ledger/routes.ts';
import { refusalHook } from './refusals.ts';
import { nodeRelease, type ReleaseOptions } from './releases.ts';
import { blindFaults, blindHook } from './blind/hook.ts';
import { scanRoutes } from './scan/routes.ts';
import { SPLICE_RELEASE, spliceVersionRoute } from './splice-version.ts';
import { handleUpgrades } from './upgrades.ts';
import { walletRoutes } from './wallet/routes.ts';
import { divergeHoldingAmount } from './world/divergence.ts';
import { buildWorld } from './world/world.ts';

export interface ReferenceNodeOptions extends Partial<NodeSettings> {
  port?: number;
  host?: string;
  faults?: readonly string[];
  /** An OpenID provider whose tokens the node accepts besides its own (see auth.ts). */
  trustedIssuer?: TrustedIssuer;
  /**
   * The releases played (default: the newest of each, SPLICE_RELEASE and line 3.5): `scan` a Splice release
   * `x.y.z`, `ledger` a release line `3.4` or `3.5` (`3.4.x` too); `scanStated` what the scan's GET /version
   * states instead of `scan`, for a node that claims another release than it serves.
   */
  releases?: ReleaseOptions;
}

export const DEFAULT_SETTINGS: NodeSettings = {
  seed: 1,
  scale: 1,
  // Low enough that a read over the default history exceeds it, so the 413 rule is observable.
  listLimit: 200,
  defaultIdleTimeoutMs: 200,
  walletProcessingMs: 150,
  offsetShift: 0,
};

export function buildContext(options: ReferenceNodeOptions = {}): NodeContext {
  const settings: NodeSettings = {
    seed: options.seed ?? DEFAULT_SETTINGS.seed,
    scale: options.scale ?? DEFAULT_SETTINGS.scale,
    listLimit: options.listLimit ?? DEFAULT_SETTINGS.listLimit,
    defaultIdleTimeoutMs: options.defaultIdleTimeoutMs ?? DEFAULT_SETTINGS.defaultIdleTimeoutMs,
    walletProcessingMs: options.walletProcessingMs ?? DEFAULT_SETTINGS.walletProcessingMs,
    offsetShift: options.offsetShift ?? DEFAULT_SETTINGS.offsetShift,
  };
  const faults = new FaultSet(options.faults ?? []);
  const release = nodeRelease(options.releases);
  const world = buildWorld({ seed: settings.seed, scale: settings.scale });
  if (faults.has('scan-divergent-holding-amount')) divergeHoldingAmount(world);
  return {
    world,
    settings,
    faults,
    release,
    auth: new Auth(settings.seed, options.trustedIssuer),
    clock: new SimulatedClock(world.ledgerEndMicros()),
  };
}

/** Error body in the shape of the interface a path belongs to, for errors raised before any interface. */
function frameworkError(url: string, status: number, message: string): JsonObject {
  if (url.startsWith('/v2'))
    return { code: status === 404 ? 'NOT_FOUND' : 'INVALID_ARGUMENT', cause: message, context: {}, errorCategory: status === 404 ? 11 : 8 };
  return { error: message };
}

/** A JSON body's value (undefined when blank), or the BadJsonError each interface renders as its own 400. */
function parseJsonBody(text: string, done: (err: Error | null, body?: unknown) => void): void {
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch (e) {
    done(new BadJsonError(`request body is not valid JSON: ${(e as Error).message}`), undefined);
    return;
  }
  done(null, value);
}

/** The largest request body the node reads. */
const BODY_LIMIT = 10 * 1024 * 1024;

export async function buildServer(ctx: NodeContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    // A malformed URL is refused before routing; answer it in the shape of the interface it aimed at.
    frameworkErrors: (error, req, reply) => {
      void (reply as FastifyReply).code(400).send(frameworkError(req.url, 400, `bad request: ${error.message}`));
    },
  });
  // A path no handler serves, in any interface, gets what real nodes' HTTP layer (pekko-http) answers before
  // any interface's own error shape: a text/plain 404 (facts: real-network observations, errors).
  app.setNotFoundHandler((_req, reply) => reply.code(404).type('text/plain; charset=UTF-8').send('The requested resource could not be found.'));
  app.setErrorHandler((error: { statusCode?: number; message: string }, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return reply.code(status).send(frameworkError(req.url, status, status === 500 ? 'internal error' : error.message));
  });
  // Keep the raw text so that a body that is not JSON becomes a 400 in the interface's own shape.
  // A path no handler serves is answered 404 whatever its body: the HTTP layer never reads it.
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (req, body, done) =>
    req.is404 ? done(null, undefined) : parseJsonBody(String(body), done),
  );
  // The ledger reads a body without a Content-Type as JSON, as real nodes do: the official ledger client sends
  // none (facts: real-network observations, clients). Other bodies stay bytes for the handler to judge.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    if (req.is404) return done(null, undefined);
    if (req.headers['content-type'] === undefined && req.url.startsWith('/v2/')) return parseJsonBody((body as Buffer).toString('utf8'), done);
    done(null, body);
  });
  refusalHook(app, ctx);
  const blind = blindFaults(ctx.faults.blind);
  blindHook(app, blind);
  await app.register(async (scope) => ledgerRoutes(scope, ctx), { prefix: '/v2' });
  handleUpgrades(app, ledgerChannels(app, ctx, blind), BODY_LIMIT);
  await app.register(async (scope) => walletRoutes(scope, ctx), { prefix: '/api/validator' });
  await app.register(async (scope) => scanRoutes(scope, ctx), { prefix: '/api/scan' });
  // The Splice apps' own release, beside each API.
  await app.register(spliceVersionRoute, { prefix: '/api/validator', version: SPLICE_RELEASE });
  await app.register(spliceVersionRoute, { prefix: '/api/scan', version: ctx.release.scanStated });
  return app;
}
