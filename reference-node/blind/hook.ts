// Blind faults at work: one hook after every handler hands the answer to the active faults' rewrites.
import type { FastifyInstance } from 'fastify';
import type { BlindAnswer, BlindFault, BlindRequest } from './seam.ts';

export function blindHook(app: FastifyInstance, active: readonly BlindFault[]): void {
  if (active.length === 0) return;
  const memories = new Map(active.map((f) => [f.name, new Map<string, unknown>()]));
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
    for (const f of active) {
      const next = f.rewrite(request, answer, memories.get(f.name)!);
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
