// Blind faults at work: one hook after every handler hands the answer to the active faults' rewrites (the
// WebSocket channels hand their messages to them in channel.ts).
import type { FastifyInstance } from 'fastify';
import type { BlindAnswer, BlindFault, BlindRequest } from './seam.ts';

/** The active faults with the memory of each for the node's life, shared by its answers and its channels. */
export type BlindFaults = ReadonlyArray<{ fault: BlindFault; memory: Map<string, unknown> }>;

export function blindFaults(active: readonly BlindFault[]): BlindFaults {
  return active.map((fault) => ({ fault, memory: new Map<string, unknown>() }));
}

export function blindHook(app: FastifyInstance, faults: BlindFaults): void {
  if (faults.length === 0) return;
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const text = payload.toString();
    const contentType = String(reply.getHeader('content-type') ?? '');
    let body: unknown = text;
    if (/json/i.test(contentType)) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const url = new URL(req.url, 'http://node');
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) query[k] = k in query ? [...[query[k]!].flat(), v] : v;
    const request: BlindRequest = {
      method: req.method,
      path: url.pathname,
      query,
      body: Buffer.isBuffer(req.body) ? undefined : req.body,
      headers: req.headers,
    };
    let answer: BlindAnswer = { status: reply.statusCode, contentType, body };
    let changed = false;
    for (const { fault, memory } of faults) {
      const next = fault.rewrite(request, answer, memory);
      if (next) {
        answer = next;
        changed = true;
      }
    }
    if (!changed) return payload;
    reply.code(answer.status);
    reply.header('content-type', answer.contentType);
    return typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  });
}
