// One call from a document location to everything the checks use: the loaded document, its operation
// catalog and its compiled validators.
import { packageFile } from '../common/package-files.ts';
import { loadDocument, type LoadedDocument, type LoadOptions } from './load-document.ts';
import { buildCatalog, type OperationCatalog } from './operation-catalog.ts';
import { SchemaValidators } from './schema-validators.ts';

export interface CompiledSpec {
  loaded: LoadedDocument;
  catalog: OperationCatalog;
  validators: SchemaValidators;
  /** Number of validators compiled up front. */
  validatorCount: number;
}

export async function compileSpec(source: string, options: LoadOptions = {}): Promise<CompiledSpec> {
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
