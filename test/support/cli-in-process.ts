// Runs the command line in this process, as `cn-conformance ARGS` would, capturing what it prints. Cheaper
// than a child process (no start-up, no transform), and the same parse, call, render and exit code.
import { vi } from 'vitest';
import { main } from '../../cli/program.ts';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cliInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<CliOutcome> {
  const out: string[] = [];
  const err: string[] = [];
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(`${a.map(String).join(' ')}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(`${a.map(String).join(' ')}\n`)),
    vi.spyOn(process.stdout, 'write').mockImplementation((t: string | Uint8Array) => out.push(String(t)) > 0),
    vi.spyOn(process.stderr, 'write').mockImplementation((t: string | Uint8Array) => err.push(String(t)) > 0),
  ];
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    const code = await main(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    for (const s of spies) s.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
