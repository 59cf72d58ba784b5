// Runs requirement records in-process against a reference node, through the same library call as
// `npm run conformance` (without its preflight: these nodes are known, faulty ones included).
import type { CompiledSpec } from '../../generators/index.ts';
import { runOnReferenceNode } from '../../detection/matrix.ts';
import type { ReferenceNodeOptions, RunningReferenceNode } from '../../reference-node/index.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';
import { runConformance } from '../../runner/run-conformance.ts';
import type { Requirement } from '../../engine/model.ts';
import type { RequirementResult } from '../../engine/engine.ts';
import type { TargetConfig } from '../../engine/target.ts';
import { builtinDocumentsOnce } from './builtin-specs.ts';

export async function loadedSpecs(): Promise<Record<'ledger' | 'wallet' | 'scan', CompiledSpec>> {
  const { specs } = await builtinDocumentsOnce();
  return { ledger: specs.ledger!, wallet: specs.wallet!, scan: specs.scan! };
}

/** Runs the requirements against `node` (started by the caller). */
export async function runAgainst(
  node: RunningReferenceNode,
  requirements: readonly Requirement[],
  overrides: Partial<TargetConfig> = {},
  runId?: string,
): Promise<RequirementResult[]> {
  const documents = await builtinDocumentsOnce();
  return (await runConformance({ target: referenceNodeTarget(node, overrides), documents, requirements, preflight: false, runId })).requirements;
}

/** Starts a node with the options, runs, closes it. */
export async function runOnFreshNode(
  options: ReferenceNodeOptions,
  requirements: readonly Requirement[],
  overrides: Partial<TargetConfig> = {},
): Promise<RequirementResult[]> {
  return runOnReferenceNode(options, requirements, await builtinDocumentsOnce(), overrides);
}

export const failedIds = (results: RequirementResult[]) =>
  results
    .filter((r) => r.status === 'failed')
    .map((r) => r.id)
    .sort();
