// The generic, spec-driven sweep: for each operation, generated valid requests are sent and every answer
// must be documented (status, content type) and valid against its schema. State-changing operations run
// only when mutations are allowed.
import fc from 'fast-check';
import { requestTarget, responseProblems, validRequest, type CompiledSpec, type OperationSpec } from '../../generators/index.ts';

export interface SweepTarget {
  /** Scheme, host and port; the operation's full path (with its /api/... prefix) is appended. */
  origin: string;
  headers: Record<string, string>;
}

export interface SweepOptions {
  samples: number;
  seed: number;
  timeoutMs: number;
  allowMutations: boolean;
}

export interface OperationResult {
  spec: string;
  operationId: string;
  method: string;
  path: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
  requests: number;
  problems: Array<{ request: string; problem: string }>;
}

export const mutates = (op: OperationSpec) => op.extensions['x-cn-mutates'] === true;

export async function sweepOperation(spec: CompiledSpec, op: OperationSpec, target: SweepTarget, options: SweepOptions): Promise<OperationResult> {
  const base = { spec: spec.loaded.name, operationId: op.id, method: op.method.toUpperCase(), path: op.fullPath };
  if (mutates(op) && !options.allowMutations) return { ...base, status: 'skipped', reason: 'changes the target; runs only with mutations allowed', requests: 0, problems: [] };
  const requests = fc.sample(validRequest(op, spec.validators), { numRuns: options.samples, seed: options.seed });
  const problems: OperationResult['problems'] = [];
  for (const req of requests) {
    const target_ = requestTarget(op, req);
    const headers: Record<string, string> = { ...target.headers, ...req.headers };
    let body: string | undefined;
    if (req.rawBody !== undefined || req.body !== undefined) {
      body = req.rawBody ?? JSON.stringify(req.body);
      headers['content-type'] = req.contentType ?? 'application/json';
    }
    const label = `${base.method} ${target_}`;
    try {
      const res = await fetch(target.origin + target_, { method: base.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
      const text = await res.text();
      for (const problem of responseProblems(spec, op.id, { status: res.status, contentType: res.headers.get('content-type') ?? undefined, text })) problems.push({ request: label, problem });
    } catch (error) {
      problems.push({ request: label, problem: `no answer: ${(error as Error).message}` });
    }
  }
  return { ...base, status: problems.length === 0 ? 'passed' : 'failed', requests: requests.length, problems };
}
