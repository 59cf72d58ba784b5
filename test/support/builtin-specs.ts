// The three shipped documents, compiled once per test file.
import { BUILTIN_SPECS, compileSpec, type BuiltinSpecName, type CompiledSpec } from '../../generators/index.ts';

const cache = new Map<BuiltinSpecName, Promise<CompiledSpec>>();

export function builtinSpec(name: BuiltinSpecName): Promise<CompiledSpec> {
  let p = cache.get(name);
  if (!p) {
    p = compileSpec(BUILTIN_SPECS[name], { name });
    cache.set(name, p);
  }
  return p;
}

export const BUILTIN_NAMES = Object.keys(BUILTIN_SPECS) as BuiltinSpecName[];
