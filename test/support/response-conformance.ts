// Test-side helpers around the product's response judge.
import type { ObservedResponse } from '../../generators/index.ts';
import type { RunningReferenceNode } from '../../reference-node/index.ts';

export { responseProblems, type ObservedResponse } from '../../generators/index.ts';

/** fetch with a timeout, keeping what the judge needs. */
export async function call(url: string, init: RequestInit = {}): Promise<ObservedResponse & { json(): unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text, json: () => JSON.parse(text) };
}

/**
 * `call` without a socket: the request handed to an in-process node's server (fastify's inject), for batteries
 * of many requests whose answers, not their transport, are judged.
 */
export async function inject(node: RunningReferenceNode, url: string, init: RequestInit = {}): Promise<ObservedResponse & { json(): unknown }> {
  const res = await node.server.inject({
    method: (init.method ?? 'GET') as 'GET',
    url: url.slice(new URL(url).origin.length),
    headers: init.headers as Record<string, string> | undefined,
    payload: init.body as string | undefined,
  });
  const contentType = res.headers['content-type'];
  return { status: res.statusCode, contentType: typeof contentType === 'string' ? contentType : undefined, text: res.body, json: () => JSON.parse(res.body) };
}
