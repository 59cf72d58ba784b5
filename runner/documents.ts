// The documents of a run, each compiled once, with the run's spec-level checks: every document loads, every
// validator compiles and every example of the document validates against its own schema. Every command,
// the detection matrix, the benchmark and the tests load documents here. The OpenAPI documents describe the
// HTTP interfaces; an AsyncAPI document describes an interface's WebSocket channels (today the ledger's).
import {
  BUILTIN_CHANNELS,
  BUILTIN_SPECS,
  buildCatalog,
  CHANNEL_INTERFACES,
  type ChannelInterface,
  channelsName,
  channelsOf,
  compileChannels,
  compileSpec,
  hasChannels,
  loadDocument,
  SpecLoadError,
  formatIssues,
  type CompiledChannels,
  type CompiledSpec,
} from '../generators/index.ts';
import { operationKey } from '../requirements/generic/spec-requirements.ts';
import { redactUrl } from './redaction.ts';
import { UsageError } from './usage-error.ts';

export interface SpecCheckResult {
  name: string;
  source: string;
  sha256?: string;
  openapi?: string;
  /** An AsyncAPI document's version (a channel document, e.g. ledger-channels: the interface's WebSocket channels). */
  asyncapi?: string;
  /** The channels of an AsyncAPI document. */
  channels?: number;
  /** The project's own document of the interface (not one given with --spec). */
  builtin?: true;
  /** The document's info.version (a ledger document's release, e.g. 3.4.0-SNAPSHOT). */
  documentVersion?: string;
  /** Operations of an OpenAPI document; of an AsyncAPI one, its channels' publish and subscribe operations. */
  operations: number;
  validators: number;
  examplesChecked: number;
  failures: string[];
  /** Known defects of the document that loading repaired (e.g. `required: []`): it is used, with these named. */
  warnings: string[];
  /** Set when the document could not be used at all. */
  loadError?: string;
  millis: number;
}

/** The document's checks, and the compiled document itself when it is usable (compiled once per run). */
async function checkSpec(name: string, source: string): Promise<SpecCheckResult & { spec?: CompiledSpec }> {
  const started = performance.now();
  try {
    const spec = await compileSpec(source, { name });
    const failures: string[] = [];
    let examplesChecked = 0;
    for (const op of spec.catalog.operations) {
      const media = [
        ...op.responses.flatMap((r) => r.content.map((m) => ({ where: `${op.id} ${r.status} ${m.contentType}`, m }))),
        ...(op.requestBody?.content ?? []).map((m) => ({ where: `${op.id} request ${m.contentType}`, m })),
      ];
      for (const { where, m } of media) {
        if (!m.schemaPointer || !/json/i.test(m.contentType)) continue;
        for (const ex of m.examples) {
          examplesChecked++;
          const r = spec.validators.validate(m.schemaPointer, ex.value);
          if (!r.valid) failures.push(`${where} example "${ex.name}": ${formatIssues(r)}`);
        }
      }
    }
    return {
      name,
      source,
      sha256: spec.loaded.sha256,
      openapi: spec.loaded.document.openapi,
      ...(typeof spec.loaded.document.info?.version === 'string' ? { documentVersion: spec.loaded.document.info.version } : {}),
      operations: spec.catalog.operations.length,
      validators: spec.validatorCount,
      examplesChecked,
      failures,
      warnings: spec.loaded.repairs,
      millis: Math.round(performance.now() - started),
      spec,
    };
  } catch (error) {
    if (!(error instanceof SpecLoadError)) throw error;
    return unusable(name, source, error.message, started);
  }
}

/** A channel document's checks, and the compiled document when it is usable (compiled once per process). */
async function checkChannels(name: string, source: string): Promise<SpecCheckResult & { compiled?: CompiledChannels }> {
  const started = performance.now();
  try {
    const compiled = await compileChannels(source, { name });
    const failures = compiled.examples.flatMap((ex) => {
      const r = compiled.validators.validate(ex.pointer, ex.value);
      return r.valid ? [] : [`${ex.where}: ${formatIssues(r)}`];
    });
    return {
      name,
      source,
      sha256: compiled.sha256,
      asyncapi: compiled.asyncapi,
      channels: compiled.channels.length,
      ...(compiled.documentVersion !== undefined ? { documentVersion: compiled.documentVersion } : {}),
      operations: compiled.channels.reduce((n, c) => n + (c.publishOperationId ? 1 : 0) + (c.subscribeOperationId ? 1 : 0), 0),
      validators: compiled.validators.compileAll(),
      examplesChecked: compiled.examples.length,
      failures,
      warnings: compiled.repairs,
      millis: Math.round(performance.now() - started),
      compiled,
    };
  } catch (error) {
    if (!(error instanceof SpecLoadError)) throw error;
    return unusable(name, source, error.message, started);
  }
}

export interface Documents {
  /** The usable documents by name (ledger, wallet, scan, or a user's extra name), compiled once. */
  specs: Record<string, CompiledSpec>;
  checks: SpecCheckResult[];
  /** For each built-in name given another document: the built-in operationIds by operation key, so generic ids stay stable. */
  builtinIds: Record<string, ReadonlyMap<string, string>>;
  /** The usable channel documents (WebSocket), by the interface they belong to. */
  channels: Partial<Record<ChannelInterface, CompiledChannels>>;
}

/**
 * Loads and checks each document once; an unusable one is a check result with its loadError, not a throw. An
 * interface's channel document is the one `sources` names ("ledger-channels"), else, when the interface's
 * OpenAPI document is loaded, the built-in one; its check follows the interface's.
 */
export async function loadDocuments(sources: ReadonlyMap<string, string>): Promise<Documents> {
  const specs: Record<string, CompiledSpec> = {};
  const checks: SpecCheckResult[] = [];
  const builtinIds: Documents['builtinIds'] = {};
  const channels: Documents['channels'] = {};
  const addChannels = async (name: ChannelInterface) => {
    const source = sources.get(channelsName(name)) ?? BUILTIN_CHANNELS[name];
    const { compiled, ...check } = await checkChannels(channelsName(name), source);
    checks.push(source === BUILTIN_CHANNELS[name] ? { ...check, builtin: true } : check);
    if (compiled) channels[name] = compiled;
  };
  for (const [name, source] of sources) {
    if (channelsOf(name)) continue;
    const { spec, ...check } = await checkSpec(name, source);
    checks.push((BUILTIN_SPECS as Record<string, string>)[name] === source ? { ...check, builtin: true } : check);
    if (hasChannels(name)) await addChannels(name);
    if (!spec) continue;
    specs[name] = spec;
    const builtin = (BUILTIN_SPECS as Record<string, string>)[name];
    if (builtin && builtin !== source) {
      const operations = buildCatalog(await loadDocument(builtin, { name })).operations;
      builtinIds[name] = new Map(operations.map((op) => [operationKey(op), op.id]));
    }
  }
  // A channel document given without its interface's OpenAPI document (a command that reads documents only).
  for (const name of CHANNEL_INTERFACES) if (!sources.has(name) && sources.has(channelsName(name))) await addChannels(name);
  return { specs, checks, builtinIds, channels };
}

/** The three shipped documents, and the ledger's channel document. */
export const builtinDocuments = () => loadDocuments(new Map(Object.entries(BUILTIN_SPECS)));

/** An unusable document stops the run before any request: its requirements would silently vanish. */
export function refuseUnusable(checks: readonly SpecCheckResult[]): void {
  const bad = checks.filter((c) => c.loadError);
  if (bad.length === 0) return;
  const first = bad[0]!;
  const [headline, ...details] = first.loadError!.split('\n');
  throw new UsageError(
    `the ${first.name} document ${redactUrl(first.source)} is unusable: ${redactUrl(headline!)}${details.length ? ` (and ${details.length} more problems)` : ''}; fix it or drop --spec ${first.name}=...${
      bad.length > 1
        ? ` (${bad.length - 1} more unusable: ${bad
            .slice(1)
            .map((b) => b.name)
            .join(', ')})`
        : ''
    }`,
  );
}

/** The check result of a document that could not be used at all (an OpenAPI or a channel document alike). */
function unusable(name: string, source: string, loadError: string, started: number): SpecCheckResult {
  return {
    name,
    source,
    operations: 0,
    validators: 0,
    examplesChecked: 0,
    failures: [],
    warnings: [],
    loadError,
    millis: Math.round(performance.now() - started),
  };
}
