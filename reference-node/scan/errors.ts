// Every scan error leaves the node as `{error: string}` JSON with 400, 404 or 500 (the description's scan
// error table); handlers throw ScanError and the plugin's error handler renders it.
import type { FastifyError, FastifyReply } from 'fastify';
import type { NodeContext } from '../context.ts';

export class ScanError extends Error {
  constructor(
    readonly status: 400 | 404 | 500,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string): ScanError => new ScanError(400, message);
export const notFound = (message: string): ScanError => new ScanError(404, message);

export function sendError(reply: FastifyReply, ctx: NodeContext, status: number, message: string): FastifyReply {
  // scan-bad-input-500: a rejected input is reported as if the node had failed.
  const code = status === 400 && ctx.faults.has('scan-bad-input-500') ? 500 : status;
  // scan-not-found-plain-text: the framework's text answer instead of the interface's error object.
  if (code === 404 && ctx.faults.has('scan-not-found-plain-text')) return reply.code(404).type('text/plain; charset=utf-8').send(`Not Found: ${message}`);
  // scan-error-body-shape: the same message under the wrong key.
  // scan-error-message-nested: the key is right, its value an object.
  const body = ctx.faults.has('scan-error-body-shape')
    ? { message }
    : ctx.faults.has('scan-error-message-nested')
      ? { error: { message } }
      : { error: message };
  return reply.code(code).type('application/json; charset=utf-8').send(body);
}

/** Maps anything a scan route throws to a documented status: our own errors, client errors of the framework
 *  (unparsable JSON, oversized bodies, bad URLs) as 400, and everything else as 500. */
export function renderError(error: unknown, reply: FastifyReply, ctx: NodeContext): FastifyReply {
  if (error instanceof ScanError) return sendError(reply, ctx, error.status, error.message);
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return sendError(reply, ctx, 400, (error as Error).message);
  return sendError(reply, ctx, 500, `Internal server error: ${(error as Error)?.message ?? String(error)}`);
}
