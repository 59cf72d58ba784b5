// The two error wire shapes of the ledger interface: the update stream's plain-text 400, and the
// JsCantonError JSON body used for every other error status.
import type { FastifyReply } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';

/** Error kinds with their Canton error category and gRPC status code (both integers on the wire). */
export const ERROR_KINDS = {
  invalidArgument: { code: 'INVALID_ARGUMENT', category: 8, grpc: 3 },
  unauthenticated: { code: 'UNAUTHENTICATED', category: 6, grpc: 16 },
  permissionDenied: { code: 'PERMISSION_DENIED', category: 7, grpc: 7 },
  notFound: { code: 'NOT_FOUND', category: 11, grpc: 5 },
  alreadyExists: { code: 'ALREADY_EXISTS', category: 10, grpc: 6 },
  failedPrecondition: { code: 'FAILED_PRECONDITION', category: 9, grpc: 9 },
  listLimit: { code: 'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', category: 9, grpc: 9 },
  internal: { code: 'INTERNAL_ERROR', category: 4, grpc: 13 },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** A request problem found while handling; routes turn it into the right wire shape. */
export class LedgerHttpError extends Error {
  constructor(
    readonly status: number,
    readonly kind: ErrorKind,
    message: string,
    readonly codeOverride?: string,
  ) {
    super(message);
  }
}

export function cantonErrorBody(ctx: NodeContext, kind: ErrorKind, cause: string, code?: string): JsonObject {
  const k = ERROR_KINDS[kind];
  const body: JsonObject = {
    code: code ?? k.code,
    cause,
    context: { participant: ctx.world.ledgerParticipant.name, category: String(k.category) },
    resources: [],
    errorCategory: k.category,
    grpcCodeValue: k.grpc,
    definiteAnswer: false,
  };
  if (ctx.faults.has('ledger-error-body-shape')) delete body.errorCategory;
  // ledger-error-null-fields (a deviation): the optional fields with no value sent as null, as Canton's own example shows.
  if (ctx.faults.has('ledger-error-null-fields')) Object.assign(body, { correlationId: null, retryInfo: null, definiteAnswer: null });
  return body;
}

export function sendCantonError(ctx: NodeContext, reply: FastifyReply, status: number, kind: ErrorKind, cause: string, code?: string): FastifyReply {
  // ledger-not-found-plain-text (a deviation): a proxy in front of the node answers every 404 with its own page.
  if (status === 404 && ctx.faults.has('ledger-not-found-plain-text'))
    return reply.code(404).type('text/plain; charset=UTF-8').send('The requested resource could not be found.');
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(cantonErrorBody(ctx, kind, cause, code));
}

/** The update stream's 400: a plain-text explanation (or, under a fault, a JSON body). */
export function sendStreamBadRequest(ctx: NodeContext, reply: FastifyReply, message: string): FastifyReply {
  if (ctx.faults.has('ledger-error-400-as-json')) return sendCantonError(ctx, reply, 400, 'invalidArgument', message);
  return reply.code(400).type('text/plain; charset=utf-8').send(message);
}
