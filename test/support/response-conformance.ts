// Test-side helpers around the product's response judge.
import type { ObservedResponse } from '../../generators/index.ts';

export { responseProblems, type ObservedResponse } from '../../generators/index.ts';

/** fetch with a timeout, keeping what the judge needs. */
export async function call(url: string, init: RequestInit = {}): Promise<ObservedResponse & { json(): unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text, json: () => JSON.parse(text) };
}
