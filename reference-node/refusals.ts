// The refusal faults at work (refusal-faults.ts): one hook before every handler answers the operations whose
// refusal is switched on.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearer, isFailure } from './auth.ts';
import type { NodeContext } from './context.ts';
import { sendCantonError } from './ledger/errors.ts';
import { refusalFault, SERVED_OPERATIONS } from './refusal-faults.ts';
import { sendError as sendScanError } from './scan/errors.ts';
import { sendError as sendWalletError } from './wallet/errors.ts';

/** `/v2/packages/:packageId` (a route), `/v2/packages/{package-id}` or a wildcard route `/v2/packages/*` -> `/v2/packages/{}`. */
const template = (path: string) =>
  path
    .replace(/\/:[^/]+/g, '/{}')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\/\*$/, '/{}');

const byRoute = new Map(SERVED_OPERATIONS.map((s) => [`${s.method} ${s.path}`, s]));

/** The refusal hook: registered once, it answers only where a refusal fault of the route's operation is on. */
export function refusalHook(app: FastifyInstance, ctx: NodeContext): void {
  const active = SERVED_OPERATIONS.filter((s) => ctx.faults.has(refusalFault(s.interface, s.operation)));
  if (active.length === 0) return;
  const refused = new Set(active.map((s) => `${s.method} ${s.path}`));
  app.addHook('preHandler', async (req, reply) => {
    const key = `${req.method} ${template(req.routeOptions.url ?? '')}`;
    if (!refused.has(key)) return;
    const s = byRoute.get(key)!;
    // A request the node would refuse anyway (no valid credentials) gets its handler's answer.
    if (s.credentials && !(await verified(ctx, req))) return;
    const message =
      s.refusal === 400 ? `The request could not be processed: ${s.operation} rejected its input.` : `Internal server error: ${s.operation} failed.`;
    if (s.interface === 'ledger') return sendCantonError(ctx, reply, s.refusal, s.refusal === 400 ? 'invalidArgument' : 'internal', message);
    return s.interface === 'wallet' ? sendWalletError(reply, ctx, s.refusal, message) : sendScanError(reply, ctx, s.refusal, message);
  });
}

async function verified(ctx: NodeContext, req: FastifyRequest): Promise<boolean> {
  const token = bearer(req.headers.authorization);
  return token !== undefined && !isFailure(await ctx.auth.verify(token));
}
