// Starts bench/serve-node.ts as a child process and reads what it prints.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Json } from '../common/json.ts';
import type { Fixtures } from '../engine/fixtures.ts';
import type { ReferenceNodeCredentials } from '../reference-node/index.ts';

export interface NodeInfo {
  urls: { ledger: string; validator: string; scan: string };
  credentials: ReferenceNodeCredentials;
  fixtures: Fixtures;
  updates: number;
  holdings: number;
  listLimit: number;
}

export interface NodeProcess {
  info: NodeInfo;
  /** Stops the node; its peak RSS in kB. */
  stop(): Promise<number>;
}

const SERVE = fileURLToPath(new URL('./serve-node.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export async function startNodeProcess(o: { seed?: number; scale?: number; listLimit?: number } = {}): Promise<NodeProcess> {
  const args = ['--import', 'tsx', SERVE, String(o.seed ?? 1), String(o.scale ?? 1), ...(o.listLimit ? [String(o.listLimit)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (what: string): Promise<Json> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the bench node did not print ${what} within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    });
    try {
      const r = await Promise.race([lines.next(), timeout]);
      if (r.done) throw new Error(`the bench node exited before printing ${what}`);
      return JSON.parse(r.value);
    } finally {
      clearTimeout(timer);
    }
  };
  let info: NodeInfo;
  try {
    info = await next('its URLs');
  } catch (e) {
    child.kill();
    throw e;
  }
  return {
    info,
    async stop() {
      child.stdin.end();
      try {
        return (await next('its peak RSS')).maxRssKb as number;
      } finally {
        child.kill();
      }
    },
  };
}
