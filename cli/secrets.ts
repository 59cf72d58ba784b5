// Credentials come from a flag, a file or an environment variable (in that order of precedence). They are
// only ever handed to the HTTP client; reports and console output redact them.
import { readFileSync } from 'node:fs';
import { UsageError } from '../runner/usage-error.ts';

/** A credential and the setting it came from (for messages: "check --ledger-token-file"). */
export interface Secret {
  value: string;
  from: string;
}

export function secretWithSource(
  flag: { value?: string; name: string },
  file: { path?: string; name: string } | undefined,
  envName: string,
  env: NodeJS.ProcessEnv = process.env,
): Secret | undefined {
  if (flag.value) return { value: flag.value, from: flag.name };
  if (file?.path) {
    try {
      const text = readFileSync(file.path, 'utf8').trim();
      if (!text) throw new Error('the file is empty');
      return { value: text, from: `${file.name} ${file.path}` };
    } catch (e) {
      throw new UsageError(`${file.name}: cannot read ${file.path}: ${(e as Error).message}`);
    }
  }
  const fromEnv = env[envName]?.trim();
  return fromEnv ? { value: fromEnv, from: `the environment variable ${envName}` } : undefined;
}
