// Configuration layers of run and plan: defaults < config file < CN_CONFORMANCE_* environment < flags.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from './spec-options.ts';

export const envName = (attribute: string) => 'CN_CONFORMANCE_' + attribute.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/**
 * Every option of the command can also come from CN_CONFORMANCE_<OPTION_NAME>. Commander only listens for
 * an option's environment variable when the option is added with one, so the listener is added here too.
 */
export function withEnvironment(command: Command): Command {
  for (const o of command.options) {
    if (o.envVar) continue;
    o.env(envName(o.attributeName()));
    command.on(`optionEnv:${o.name()}`, (value?: string) => {
      const key = o.attributeName();
      const current = command.getOptionValue(key);
      const parsed = !(o.required || o.optional) ? true : Array.isArray(current) ? [value!] : value;
      command.setOptionValueWithSource(key, parsed, 'env');
    });
  }
  return command;
}

/**
 * Fills options that neither a flag nor the environment set from the config file's top-level keys
 * (option names in camelCase; `fixtures` holds the ids the checks need).
 */
export function applyConfigFile(command: Command, opts: Record<string, unknown>): void {
  const path = opts.config as string | undefined;
  if (!path) return;
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the config file ${path}: ${(e as Error).message}`);
  }
  const known = new Map(command.options.map((o) => [o.attributeName(), o]));
  const unknown = Object.keys(file).filter((k) => k !== 'fixtures' && !known.has(k));
  if (unknown.length) throw new UsageError(`config file ${path}: unknown setting(s) ${unknown.join(', ')} (known: fixtures, ${[...known.keys()].join(', ')})`);
  for (const [key, value] of Object.entries(file)) {
    if (key === 'fixtures') continue;
    const source = command.getOptionValueSource(key);
    if (source === 'cli' || source === 'env') continue;
    opts[key] = Array.isArray(value) ? value.map(String) : typeof value === 'boolean' ? value : String(value);
  }
}
