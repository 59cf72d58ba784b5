// Credentials come from a flag, a file or an environment variable (in that order of precedence). They are
// only ever handed to the HTTP client; reports and console output redact them.
import { readFileSync } from 'node:fs';
import { redactUrl } from '../runner/redaction.ts';
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
  if (flag.value) return sendable({ value: flag.value, from: flag.name });
  if (file?.path) {
    let text: string;
    try {
      text = readFileSync(file.path, 'utf8').trim();
      if (!text) throw new Error('the file is empty');
    } catch (e) {
      throw new UsageError(`${file.name}: cannot read ${file.path}: ${(e as Error).message}`);
    }
    return sendable({ value: text, from: `${file.name} ${file.path}` });
  }
  const fromEnv = env[envName]?.trim();
  return fromEnv ? sendable({ value: fromEnv, from: `the environment variable ${envName}` }) : undefined;
}

/**
 * A credential goes into a header; one with a line break or another control character (a two-line token
 * file, a bad paste) cannot be sent at all, so every request would fail inside the HTTP client and read as
 * the node's. It is the user's setting: refused before anything is sent, naming where it came from and
 * where the bad character is, never the value.
 */
export function sendable(secret: Secret): Secret {
  const problem = unsendable(secret.value);
  if (problem) throw new UsageError(`the credential from ${secret.from} cannot be sent in an HTTP header: ${problem}`);
  return secret;
}

/** Why a header value cannot be sent, or undefined. */
export function unsendable(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 10 || c === 13) {
      const line = value.slice(0, i).split(/\r\n|\r|\n/).length;
      return `it has a line break after character ${i} (line ${line} of ${value.split(/\r\n|\r|\n/).length}); a token is one line`;
    }
    if (c < 32 || c === 127) return `it has the control character U+${c.toString(16).toUpperCase().padStart(4, '0')} at character ${i + 1}`;
    if (c > 255) return `it has the non-Latin-1 character U+${c.toString(16).toUpperCase().padStart(4, '0')} at character ${i + 1}`;
  }
  return undefined;
}

/** Options whose value is a credential: a recorded command line shows *** in its place. */
export const SECRET_OPTIONS: ReadonlySet<string> = new Set(['--ledger-token', '--ledger-api-key', '--wallet-token']);

/**
 * The command line as a record may show it (a bundle's manifest): credential options' values as ***, URLs
 * without user info or secret query values, and every secret the run knows scrubbed wherever it stands.
 */
export function maskedCommandLine(args: readonly string[], scrub: (text: string) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (SECRET_OPTIONS.has(name)) {
      if (eq > 0) out.push(`${name}=***`);
      else {
        out.push(arg);
        if (i + 1 < args.length) out.push('***');
        i++;
      }
    } else out.push(scrub(redactUrl(arg)));
  }
  return out;
}
