// `--spec NAME=PATH` handling: which OpenAPI documents a command works on.
import { BUILTIN_SPECS } from '../generators/index.ts';
import { UsageError } from '../runner/usage-error.ts';
import { didYouMean } from '../engine/did-you-mean.ts';

const BUILTIN_NAMES = Object.keys(BUILTIN_SPECS);

/**
 * The built-in documents, with entries replaced by `--spec NAME=PATH` (PATH may be a URL). Commands that
 * judge a target (run, plan) know only the interfaces' names: any other name would be a document with no
 * target and no requirements, which a typo ("scna") would add silently while the built-in one is judged.
 * Commands that only read documents (list, catalog) may add one under a new name.
 */
export function selectSpecs(overrides: string[] = [], mayAdd = false): Map<string, string> {
  const specs = new Map<string, string>(Object.entries(BUILTIN_SPECS));
  for (const entry of overrides) {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw new UsageError(`--spec expects NAME=PATH (e.g. scan=./scan.yaml), got "${entry}"`);
    const name = entry.slice(0, eq);
    if (!mayAdd && !specs.has(name)) {
      const guess = didYouMean(name, BUILTIN_NAMES);
      throw new UsageError(
        `--spec ${name}=...: "${name}" is not an interface of this suite${guess ? `; did you mean ${guess}?` : ''} (NAME is one of ${BUILTIN_NAMES.join(', ')}; a document under another name can be listed with \`catalog --spec\`)`,
      );
    }
    specs.set(name, entry.slice(eq + 1));
  }
  return specs;
}
