// `--spec NAME=PATH` handling: which OpenAPI documents (and which AsyncAPI channel documents) a command works on.
import { readFile } from 'node:fs/promises';
import { BUILTIN_SPECS, channelsName, channelsOf, hasChannels, isAsyncApiText, isUrl } from '../generators/index.ts';
import { UsageError } from '../runner/usage-error.ts';
import { didYouMean } from '../engine/did-you-mean.ts';

const BUILTIN_NAMES = Object.keys(BUILTIN_SPECS);
const CHANNEL_NAMES = BUILTIN_NAMES.filter(hasChannels).map(channelsName);

/**
 * The built-in documents, with entries replaced by `--spec NAME=PATH` (PATH may be a URL). Commands that
 * judge a target (run, plan) know only the interfaces' names: any other name would be a document with no
 * target and no requirements, which a typo ("scna") would add silently while the built-in one is judged.
 * Commands that only read documents (list, catalog) may add one under a new name.
 *
 * An AsyncAPI document (read for a top-level `asyncapi` key) describes an interface's WebSocket channels: given
 * for the ledger it replaces the ledger's channel document ("ledger-channels") and leaves its OpenAPI one, so
 * `--spec ledger=openapi.yaml --spec ledger=asyncapi.yaml` sets both; `--spec ledger-channels=PATH` names it
 * directly. The built-in channel document needs no entry: it comes with its interface (runner/documents.ts).
 */
export async function selectSpecs(overrides: string[] = [], mayAdd = false): Promise<Map<string, string>> {
  const specs = new Map<string, string>(Object.entries(BUILTIN_SPECS));
  for (const entry of overrides) {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw new UsageError(`--spec expects NAME=PATH (e.g. scan=./scan.yaml), got "${entry}"`);
    const name = entry.slice(0, eq);
    const path = entry.slice(eq + 1);
    if (channelsOf(name)) {
      specs.set(name, path);
      continue;
    }
    if (!mayAdd && !specs.has(name)) {
      const guess = didYouMean(name, [...BUILTIN_NAMES, ...CHANNEL_NAMES]);
      throw new UsageError(
        `--spec ${name}=...: "${name}" is not an interface of this suite${guess ? `; did you mean ${guess}?` : ''} (NAME is one of ${[...BUILTIN_NAMES, ...CHANNEL_NAMES].join(', ')}; a document under another name can be listed with \`catalog --spec\`)`,
      );
    }
    if (await isAsyncApiSource(path)) {
      if (!hasChannels(name))
        throw new UsageError(
          `--spec ${name}=${path}: an AsyncAPI document (WebSocket channels), but ${name} has no channels here and takes an OpenAPI document (channel documents: ${CHANNEL_NAMES.join(', ')}, or ledger=PATH)`,
        );
      specs.set(channelsName(name), path);
      continue;
    }
    specs.set(name, path);
  }
  return specs;
}

/** Whether the document at a path or URL reads as AsyncAPI; one that cannot be read is left to the loader to report. */
async function isAsyncApiSource(path: string): Promise<boolean> {
  try {
    const text = isUrl(path) ? await (await fetch(path, { signal: AbortSignal.timeout(10_000) })).text() : await readFile(path, 'utf8');
    return isAsyncApiText(text);
  } catch {
    return false;
  }
}
