// Configuration layers of run and plan: defaults < config file < CN_CONFORMANCE_* environment < flags. Every
// layer is checked the same way: a boolean is exactly true, false, 1 or 0 (any case), a list may be given
// comma-separated, and a bad value is a usage error naming the setting and the layer it came from.
import { readFileSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { didYouMean } from '../engine/did-you-mean.ts';
import { UsageError } from '../runner/usage-error.ts';

export const envName = (attribute: string) => 'CN_CONFORMANCE_' + attribute.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** "true"/"1" and "false"/"0" in any case; anything else is refused, never read as true. */
export function parseBoolean(value: unknown, setting: string): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim();
  if (/^(true|1)$/i.test(text)) return true;
  if (/^(false|0)$/i.test(text)) return false;
  throw new UsageError(`${setting} must be true, false, 1 or 0, got ${JSON.stringify(value)}`);
}

/** Patterns may be given one per flag or comma-separated ("SCAN-*,WALLET-*"). */
export const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** An option that takes no value (`--no-allure`) or an optional boolean (`--allow-mutations [bool]`). */
export const isBooleanOption = (o: Option) => !o.required && (!o.optional || /\[bool\]/.test(o.flags));
/** An option whose values accumulate (repeatable flags such as --only). */
const isListOption = (o: Option) => Array.isArray(o.defaultValue);
/** List options whose values are patterns or names, never containing commas. */
const COMMA_LISTS = new Set(['only', 'skip']);

/** The flag's parser of an optional boolean value: `--allow-mutations` alone is true. */
export const booleanFlag = (flag: string) => (value: string) => parseBoolean(value, flag);

/** Where a setting came from, for messages: the flag, the environment variable, or the config file. */
export function settingOrigin(command: Command, key: string, configPath?: string): string {
  const o = command.options.find((x) => x.attributeName() === key);
  const flag = o?.long ?? key;
  switch (command.getOptionValueSource(key)) {
    case 'env':
      return `${envName(key)} (environment)`;
    case 'config':
      return `"${key}" in the config file ${configPath ?? ''}`.trimEnd();
    default:
      return flag;
  }
}

/**
 * Every option of the command can also come from CN_CONFORMANCE_<OPTION_NAME>. Commander only listens for
 * an option's environment variable when the option is added with one, so the listener is added here too.
 */
export function withEnvironment(command: Command): Command {
  for (const o of command.options) {
    if (o.envVar) continue;
    const variable = envName(o.attributeName());
    o.env(variable);
    command.on(`optionEnv:${o.name()}`, (value?: string) => {
      const key = o.attributeName();
      const parsed = isBooleanOption(o)
        ? parseBoolean(value ?? '', `${variable} (environment)`)
        : isListOption(o)
          ? COMMA_LISTS.has(key)
            ? splitList(value ?? '')
            : [value!]
          : value;
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
  const file = readConfigFile(path);
  const known = new Map(command.options.map((o) => [o.attributeName(), o]));
  const unknown = Object.keys(file).filter((k) => k !== 'fixtures' && k !== '$schema' && !known.has(k));
  if (unknown.length) {
    const names = ['fixtures', ...known.keys()];
    const hints = unknown.map((k) => {
      const guess = didYouMean(k, names);
      return guess ? `${k} (did you mean ${guess}?)` : k;
    });
    throw new UsageError(`config file ${path}: unknown setting(s) ${hints.join(', ')} (known: ${names.join(', ')})`);
  }
  for (const [key, value] of Object.entries(file)) {
    if (key === 'fixtures' || key === '$schema') continue;
    const o = known.get(key)!;
    const setting = `"${key}" in the config file ${path}`;
    let parsed: unknown;
    if (isBooleanOption(o)) parsed = parseBoolean(value, setting);
    else if (isListOption(o)) parsed = (Array.isArray(value) ? value.map(String) : [String(value)]).flatMap((v) => (COMMA_LISTS.has(key) ? splitList(v) : [v]));
    else if (value !== null && typeof value === 'object')
      throw new UsageError(`${setting} must be a string or a number, got ${JSON.stringify(value).slice(0, 60)}`);
    else parsed = String(value);
    // A bad value is refused even where a higher layer overrides it: the file is wrong either way.
    const source = command.getOptionValueSource(key);
    if (source === 'cli' || source === 'env') continue;
    command.setOptionValueWithSource(key, parsed, 'config');
    opts[key] = parsed;
  }
}

/** Boolean environment variables that a flag overrides are still checked: a bad value is wrong in any layer. */
export function checkShadowedEnvironment(command: Command, env: NodeJS.ProcessEnv = process.env): void {
  for (const o of command.options) {
    const variable = envName(o.attributeName());
    if (isBooleanOption(o) && env[variable] !== undefined && command.getOptionValueSource(o.attributeName()) === 'cli')
      parseBoolean(env[variable], `${variable} (environment)`);
  }
}

/** The config file's object; a file that is no JSON object is a usage error. */
export function readConfigFile(path: string): Record<string, unknown> {
  let file: unknown;
  try {
    file = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the config file ${path}: ${(e as Error).message}`);
  }
  if (typeof file !== 'object' || file === null || Array.isArray(file))
    throw new UsageError(`config file ${path}: expected a JSON object such as {"fixtures": {...}}`);
  return file as Record<string, unknown>;
}
