// `--spec NAME=PATH` handling: which OpenAPI documents a command works on.
import { BUILTIN_SPECS } from '../generators/index.ts';
import { UsageError } from '../runner/usage-error.ts';

/** The built-in documents, with entries replaced or added by `--spec NAME=PATH` (PATH may be a URL). */
export function selectSpecs(overrides: string[] = []): Map<string, string> {
  const specs = new Map<string, string>(Object.entries(BUILTIN_SPECS));
  for (const entry of overrides) {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) throw new UsageError(`--spec expects NAME=PATH (e.g. scan=./scan.yaml), got "${entry}"`);
    specs.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return specs;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
