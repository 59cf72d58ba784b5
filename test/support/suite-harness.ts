// Runs requirement records in-process against a reference node, as `npm run conformance` does.
import type { CompiledSpec } from '../../generators/index.ts';
import { runOnReferenceNode } from '../../detection/matrix.ts';
import type { ReferenceNodeOptions, RunningReferenceNode } from '../../reference-node/index.ts';
import type { Requirement } from '../../suites/model.ts';
import { runAll, type RequirementResult } from '../../suites/runner.ts';
import { referenceNodeTarget } from '../../suites/reference-target.ts';
import { contextParts, type TargetConfig } from '../../suites/target.ts';
import { builtinSpec } from './builtin-specs.ts';

export async function loadedSpecs(): Promise<Record<'ledger' | 'wallet' | 'scan', CompiledSpec>> {
  return { ledger: await builtinSpec('ledger'), wallet: await builtinSpec('wallet'), scan: await builtinSpec('scan') };
}

/** Runs the requirements against `node` (started by the caller). */
export async function runAgainst(node: RunningReferenceNode, requirements: readonly Requirement[], overrides: Partial<TargetConfig> = {}): Promise<RequirementResult[]> {
  return runAll(requirements, contextParts(referenceNodeTarget(node, overrides), await loadedSpecs()));
}

/** Starts a node with the options, runs, closes it. */
export async function runOnFreshNode(options: ReferenceNodeOptions, requirements: readonly Requirement[], overrides: Partial<TargetConfig> = {}): Promise<RequirementResult[]> {
  return runOnReferenceNode(options, requirements, await loadedSpecs(), overrides);
}

export const failedIds = (results: RequirementResult[]) => results.filter((r) => r.status === 'failed').map((r) => r.id).sort();
