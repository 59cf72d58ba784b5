// Every wallet error leaves the node as `{error: string}` JSON (the description's shape for the wallet).
import type { FastifyReply } from 'fastify';
import type { NodeContext } from '../context.ts';

/** An error a handler raises to end the request with this status and message. */
export class WalletError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A request body the interface rejects as invalid (400; answered 500 under the bad-input fault). */
export class InvalidInputError extends WalletError {
  constructor(message: string) {
    super(400, message);
  }
}

export function sendError(reply: FastifyReply, ctx: NodeContext, status: number, message: string): FastifyReply {
  // A framework's text answer instead of the interface's error object.
  if (status === 404 && ctx.faults.has('wallet-not-found-plain-text')) return reply.code(404).type('text/plain; charset=utf-8').send(`Not Found: ${message}`);
  // The fault renders the same message under the wrong key, leaving status and content type intact.
  // wallet-error-message-nested: the key is right, its value an object.
  const body = ctx.faults.has('wallet-error-body-shape')
    ? { message }
    : ctx.faults.has('wallet-error-message-nested')
      ? { error: { message } }
      : { error: message };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
