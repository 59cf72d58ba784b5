// The three shipped documents, loaded the way every run loads them (runner/documents.ts), once per test file.
import type { BuiltinSpecName, CompiledSpec } from '../../generators/index.ts';
import { BUILTIN_SPECS } from '../../generators/index.ts';
import { builtinDocuments, type Documents } from '../../runner/documents.ts';

let loaded: Promise<Documents> | undefined;

export const builtinDocumentsOnce = (): Promise<Documents> => (loaded ??= builtinDocuments());

export async function builtinSpec(name: BuiltinSpecName): Promise<CompiledSpec> {
  return (await builtinDocumentsOnce()).specs[name]!;
}

export const BUILTIN_NAMES = Object.keys(BUILTIN_SPECS) as BuiltinSpecName[];
