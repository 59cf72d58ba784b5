// `cn-conformance run`: spec-level checks, then the documented-responses sweep against the targets
// (the embedded reference node when no URL is given).
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compileSpec, SpecLoadError, type CompiledSpec } from '../generators/index.ts';
import { startReferenceNode, type RunningReferenceNode } from '../reference-node/index.ts';
import { sweepOperation, type OperationResult, type SweepTarget } from '../suites/generic/documented-responses.ts';
import { checkSpec, type SpecCheckResult } from './spec-check.ts';
import { selectSpecs, UsageError } from './spec-options.ts';

export interface RunOptions {
  spec: string[];
  reportDir: string;
  ledgerUrl?: string;
  walletUrl?: string;
  scanUrl?: string;
  ledgerToken?: string;
  walletToken?: string;
  allowMutations?: boolean;
  samples: string;
  seed: string;
  timeoutMs: string;
}

export interface RunResult {
  specChecks: SpecCheckResult[];
  operations: OperationResult[];
  targets: Record<string, string>;
}

/** Accepts a base URL with or without its interface prefix; returns its origin. */
export function originOf(url: string, prefix: string, flag: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(`${flag} is not a URL: "${url}"`);
  }
  if (!/^https?:$/.test(u.protocol)) throw new UsageError(`${flag} must be http or https: "${url}"`);
  const path = u.pathname.replace(/\/+$/, '');
  const rest = prefix && path.endsWith(prefix) ? path.slice(0, -prefix.length) : path;
  return `${u.origin}${rest}`;
}

function positive(flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer, got "${text}"`);
  return n;
}

export async function run(opts: RunOptions): Promise<{ result: RunResult; exitCode: number }> {
  const samples = positive('--samples', opts.samples);
  const seed = positive('--seed', opts.seed);
  const timeoutMs = positive('--timeout-ms', opts.timeoutMs);
  const specs = selectSpecs(opts.spec);
  const specChecks: SpecCheckResult[] = [];
  for (const [name, source] of specs) specChecks.push(await checkSpec(name, source));

  const external = opts.ledgerUrl || opts.walletUrl || opts.scanUrl;
  let node: RunningReferenceNode | undefined;
  const targets: Record<string, SweepTarget> = {};
  if (!external) {
    node = await startReferenceNode({ seed });
    targets.ledger = { origin: node.urls.ledger, headers: { authorization: `Bearer ${node.credentials.ledgerAdminToken}` } };
    targets.wallet = { origin: node.urls.ledger, headers: { authorization: `Bearer ${node.credentials.walletUsers[0]!.token}` } };
    targets.scan = { origin: node.urls.ledger, headers: {} };
  } else {
    const auth = (t?: string): Record<string, string> => (t ? { authorization: `Bearer ${t}` } : {});
    if (opts.ledgerUrl) targets.ledger = { origin: originOf(opts.ledgerUrl, '', '--ledger-url'), headers: auth(opts.ledgerToken) };
    if (opts.walletUrl) targets.wallet = { origin: originOf(opts.walletUrl, '/api/validator', '--wallet-url'), headers: auth(opts.walletToken) };
    if (opts.scanUrl) targets.scan = { origin: originOf(opts.scanUrl, '/api/scan', '--scan-url'), headers: {} };
  }

  const operations: OperationResult[] = [];
  try {
    for (const [name, source] of specs) {
      let spec: CompiledSpec;
      try {
        spec = await compileSpec(source, { name });
      } catch (e) {
        if (e instanceof SpecLoadError) continue; // already reported by the spec-level check
        throw e;
      }
      const target = targets[name];
      for (const op of spec.catalog.operations) {
        if (!target) {
          operations.push({ spec: name, operationId: op.id, method: op.method.toUpperCase(), path: op.fullPath, status: 'skipped', reason: `no ${name} URL given`, requests: 0, problems: [] });
          continue;
        }
        operations.push(await sweepOperation(spec, op, target, { samples, seed, timeoutMs, allowMutations: opts.allowMutations ?? false }));
      }
    }
  } finally {
    await node?.close();
  }

  const result: RunResult = {
    specChecks,
    operations,
    targets: Object.fromEntries(Object.entries(targets).map(([k, t]) => [k, node ? `embedded reference node (${t.origin})` : t.origin])),
  };
  const file = join(resolve(opts.reportDir), 'run.json');
  try {
    await mkdir(resolve(opts.reportDir), { recursive: true });
    await writeFile(file, JSON.stringify({ tool: 'cn-conformance', ...result }, null, 2) + '\n');
  } catch (error) {
    throw new UsageError(`cannot write the report ${file}: ${(error as Error).message}`);
  }
  print(result, file);
  const unusable = specChecks.some((r) => r.loadError);
  const failed = specChecks.some((r) => r.failures.length > 0) || operations.some((o) => o.status === 'failed');
  return { result, exitCode: unusable ? 2 : failed ? 1 : 0 };
}

function print(result: RunResult, file: string): void {
  console.log('Spec-level checks:');
  for (const r of result.specChecks) {
    if (r.loadError) console.log(`  ${r.name.padEnd(8)} UNUSABLE  ${r.loadError}`);
    else console.log(`  ${r.name.padEnd(8)} OpenAPI ${r.openapi}  ${r.operations} operations  ${r.validators} validators  ${r.examplesChecked} examples  ${r.failures.length} failed  (${r.millis} ms)`);
    for (const f of r.failures) console.log(`    FAIL ${f}`);
  }
  console.log('Documented responses (generated valid requests, every answer judged against the document):');
  for (const [spec, target] of Object.entries(result.targets)) console.log(`  ${spec.padEnd(8)} target ${target}`);
  const by = new Map<string, OperationResult[]>();
  for (const o of result.operations) by.set(o.spec, [...(by.get(o.spec) ?? []), o]);
  for (const [spec, ops] of by) {
    const count = (s: string) => ops.filter((o) => o.status === s).length;
    console.log(`  ${spec.padEnd(8)} ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped (${ops.reduce((s, o) => s + o.requests, 0)} requests)`);
  }
  for (const o of result.operations.filter((x) => x.status === 'failed')) {
    console.log(`  FAIL ${o.spec} ${o.operationId} (${o.method} ${o.path})`);
    for (const p of o.problems.slice(0, 3)) console.log(`       ${p.request}: ${p.problem}`);
  }
  console.log(`Written ${file}`);
}
