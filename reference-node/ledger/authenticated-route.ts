// The wrapper of the ledger's user, party and state endpoints: credentials are required (the document declares
// them for every operation, and these answer nothing without a user); a query parameter the interface cannot
// decode is a plain-text 400, as its HTTP layer answers; every other error is a JsCantonError.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import { identify, type Caller } from './callers.ts';
import { LedgerHttpError, sendCantonError } from './errors.ts';

export type UserCaller = Extract<Caller, { kind: 'user' }>;

/** A query parameter of the wrong type: the 400 the HTTP layer sends before the service sees the request. */
export class UndecodableQuery extends Error {
  constructor(parameter: string) {
    super(`Invalid value for: query parameter ${parameter}`);
  }
}

export function authenticated(ctx: NodeContext, handler: (req: FastifyRequest, caller: UserCaller) => JsonObject) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    try {
      // Required credentials: identify answers a user or throws.
      const caller = (await identify(ctx, req, true)) as UserCaller;
      return reply.code(200).type('application/json; charset=utf-8').send(handler(req, caller));
    } catch (e) {
      if (e instanceof UndecodableQuery) return reply.code(400).type('text/plain; charset=utf-8').send(e.message);
      if (e instanceof LedgerHttpError) return sendCantonError(ctx, reply, e.status, e.kind, e.message, e.codeOverride);
      throw e;
    }
  };
}

/** A single-valued query parameter (the first of repeated ones), or undefined. */
export function queryParameter(req: FastifyRequest, name: string): string | undefined {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : undefined;
}
