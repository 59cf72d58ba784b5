// One call from a document location to everything the checks use: the loaded document, its operation
// catalog and its compiled validators.
import { resolve as resolvePath } from 'node:path';
import { packageFile } from '../common/package-files.ts';
import { fingerprints, type Fingerprints, unchanged } from './file-fingerprints.ts';
import { isUrl, loadDocument, type LoadedDocument, type LoadOptions } from './load-document.ts';
import { buildCatalog, type OperationCatalog } from './operation-catalog.ts';
import { SchemaValidators } from './schema-validators.ts';

export interface CompiledSpec {
  loaded: LoadedDocument;
  catalog: OperationCatalog;
  validators: SchemaValidators;
  /** Number of validators compiled up front. */
  validatorCount: number;
}

interface Compiled {
  spec: CompiledSpec;
  /** The sha256 of each file the document was read from, by path. */
  files: Fingerprints;
}

// Documents compiled from local files, per process, by name and location: compiling one takes most of a second,
// and a process that runs many times (the tests, the detection matrix, a harness calling run()) reads the same
// files each time. A compiled document is only read after it is made; it is used again while every file it was
// read from holds the same bytes. A document from a URL is compiled every time: what it serves may change.
const compiled = new Map<string, Promise<Compiled | undefined>>();

export async function compileSpec(source: string, options: LoadOptions = {}): Promise<CompiledSpec> {
  if (isUrl(source)) return compileAnew(source, options);
  const key = `${options.name ?? ''}\n${resolvePath(source)}`;
  const earlier = await compiled.get(key)?.catch(() => undefined);
  if (earlier && (await unchanged(earlier.files))) return earlier.spec;
  const spec = compileAnew(source, options);
  const done = spec.then(async (s) => (s.loaded.files ? { spec: s, files: await fingerprints(s.loaded.files) } : undefined));
  compiled.set(key, done);
  // A failure is not kept: the files may be mended before the next try.
  done.catch(() => compiled.delete(key));
  return spec;
}

async function compileAnew(source: string, options: LoadOptions): Promise<CompiledSpec> {
  const loaded = await loadDocument(source, options);
  const validators = new SchemaValidators(loaded);
  const validatorCount = validators.compileAll();
  return { loaded, catalog: buildCatalog(loaded), validators, validatorCount };
}

/** The three documents this project ships, by the names used in `--spec NAME=PATH`. */
export const BUILTIN_SPECS = {
  ledger: packageFile('specs/ledger-api.yaml'),
  wallet: packageFile('specs/wallet-api.yaml'),
  scan: packageFile('specs/scan-api.yaml'),
} as const;

export type BuiltinSpecName = keyof typeof BUILTIN_SPECS;
