// Credentials come from a flag, a file or an environment variable (in that order of precedence). They are
// only ever handed to the HTTP client; reports and console output redact them.
import { readFileSync } from 'node:fs';
import { UsageError } from './spec-options.ts';

export function secret(flag: { value?: string; name: string }, file: { path?: string; name: string } | undefined, envName: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (flag.value) return flag.value;
  if (file?.path) {
    try {
      const text = readFileSync(file.path, 'utf8').trim();
      if (!text) throw new Error('the file is empty');
      return text;
    } catch (e) {
      throw new UsageError(`${file.name}: cannot read ${file.path}: ${(e as Error).message}`);
    }
  }
  const fromEnv = env[envName]?.trim();
  return fromEnv ? fromEnv : undefined;
}
