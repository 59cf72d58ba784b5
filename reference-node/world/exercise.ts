// An exercise node of a transaction tree: the choice on a contract, with the contract's stakeholders.
import type { Contract, ExercisedNode } from './model.ts';

export function exercise(
  nodeId: number,
  target: Contract,
  choice: string,
  arg: Record<string, unknown>,
  actors: string[],
  consuming: boolean,
  children: number[],
  result: unknown,
): ExercisedNode {
  return {
    nodeId,
    kind: 'exercised',
    contractId: target.contractId,
    templateId: target.templateId,
    packageName: target.packageName,
    signatories: target.signatories,
    observers: target.observers,
    choice,
    choiceArgument: arg,
    actingParties: actors,
    consuming,
    children,
    exerciseResult: result,
  };
}
