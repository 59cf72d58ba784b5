// The ledger JSON interface (registered under /v2): the update stream, the overview endpoints, the user, party
// and state endpoints a run discovers the participant's data from, and the error shapes for everything else
// (unparsable bodies; unknown routes are the server's, see server.ts).
import type { FastifyError, FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import { BadJsonError } from '../bad-json.ts';
import { sendCantonError, sendStreamBadRequest } from './errors.ts';
import { commandRoutes } from './commands.ts';
import { overviewRoutes } from './overview.ts';
import { participantStateRoutes } from './participant-state.ts';
import { partyRoutes } from './parties.ts';
import { getUpdates } from './update-stream.ts';
import { shiftOffsets } from './offset-shift.ts';
import { userRoutes } from './users.ts';

// The deprecated flat and tree streams take the same request and answer in the same way.
const STREAM_ROUTES: ReadonlySet<string> = new Set(['/v2/updates', '/v2/updates/flats', '/v2/updates/trees']);
const SUBMISSION_ROUTES: ReadonlySet<string> = new Set(
  [
    'submit-and-wait',
    'submit-and-wait-for-transaction',
    'submit-and-wait-for-reassignment',
    'submit-and-wait-for-transaction-tree',
    'async/submit',
    'async/submit-reassignment',
  ].map((p) => `/v2/commands/${p}`),
);
const COMPLETION_ROUTES: ReadonlySet<string> = new Set(['/v2/commands/completions', '/v2/commands/command-completions']);

export async function ledgerRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    const onStream = STREAM_ROUTES.has(req.routeOptions.url ?? '');
    // The stream's invalid bodies are plain text; every other error of the interface is a JsCantonError.
    if (status === 400 && onStream) return sendStreamBadRequest(ctx, reply, `Invalid value for: body (${err.message})`);
    if (err instanceof BadJsonError && ctx.faults.has('ledger-command-bad-json-500') && SUBMISSION_ROUTES.has(req.routeOptions.url ?? '')) {
      return sendCantonError(ctx, reply, 500, 'internal', `Unexpected error while decoding the command: ${err.message}`);
    }
    if (err instanceof BadJsonError && ctx.faults.has('ledger-completions-body-ignored') && COMPLETION_ROUTES.has(req.routeOptions.url ?? '')) {
      return reply.code(200).type('application/json; charset=utf-8').send([]);
    }
    // The commands' bodies that are no JSON get the HTTP layer's plain-text 400, as the official document declares.
    if (err instanceof BadJsonError && (SUBMISSION_ROUTES.has(req.routeOptions.url ?? '') || COMPLETION_ROUTES.has(req.routeOptions.url ?? '')))
      return reply.code(400).type('text/plain; charset=utf-8').send(`Invalid value for: body (${err.message})`);
    if (err instanceof BadJsonError || status === 400) return sendCantonError(ctx, reply, 400, 'invalidArgument', err.message);
    if (status === 500) return sendCantonError(ctx, reply, 500, 'internal', 'The request could not be processed because of an internal error.');
    return sendCantonError(ctx, reply, status, 'invalidArgument', err.message, err.code);
  });

  shiftOffsets(app, ctx.settings.offsetShift);
  app.post('/updates', (req, reply) => getUpdates(ctx, req, reply));
  app.post('/updates/flats', (req, reply) => getUpdates(ctx, req, reply));
  app.post('/updates/trees', (req, reply) => getUpdates(ctx, req, reply, 'trees'));
  commandRoutes(app, ctx);
  overviewRoutes(app, ctx);
  userRoutes(app, ctx);
  partyRoutes(app, ctx);
  participantStateRoutes(app, ctx);
}
