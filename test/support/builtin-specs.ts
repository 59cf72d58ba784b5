// The shipped documents, loaded the way every run loads them (runner/documents.ts), each at most once per
// test file and only when a test asks for it.
import { BUILTIN_SPECS, type BuiltinSpecName, type CompiledSpec } from '../../generators/index.ts';
import { loadDocuments, type Documents } from '../../runner/documents.ts';

const loaded = new Map<BuiltinSpecName, Promise<Documents>>();

function documentOnce(name: BuiltinSpecName): Promise<Documents> {
  let p = loaded.get(name);
  if (!p) loaded.set(name, (p = loadDocuments(new Map([[name, BUILTIN_SPECS[name]]]))));
  return p;
}

export async function builtinSpec(name: BuiltinSpecName): Promise<CompiledSpec> {
  return (await documentOnce(name)).specs[name]!;
}

/** The three documents as one run's Documents. */
export async function builtinDocumentsOnce(): Promise<Documents> {
  const parts = await Promise.all(BUILTIN_NAMES.map(documentOnce));
  return {
    specs: Object.assign({}, ...parts.map((d) => d.specs)),
    checks: parts.flatMap((d) => d.checks),
    builtinIds: {},
    channels: Object.assign({}, ...parts.map((d) => d.channels)),
  };
}

export const BUILTIN_NAMES = Object.keys(BUILTIN_SPECS) as BuiltinSpecName[];
