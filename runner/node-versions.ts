// What the target says of its own version, for a certification bundle's manifest: the ledger's GET
// /v2/version and the scan's and the validator's version endpoints. Asked once each, outside the request
// budget; whatever comes back (a refusal, a 404 of a node without the endpoint, no answer at all) is
// recorded as it came and never fails the run.
import type { InterfaceName } from '../common/vocabulary.ts';
import type { Client } from '../engine/transport/http.ts';
import { RequestNotSent } from '../engine/transport/http.ts';

/** Each interface's version endpoint, relative to its prefix (the scan's is /api/scan/version, the validator's /api/validator/version). */
export const VERSION_PATHS: Record<InterfaceName, string> = { ledger: '/v2/version', scan: '/version', wallet: '/version' };

/** Bytes of a version answer's body the manifest keeps. */
const BODY_BYTES = 4096;

export interface VersionAnswer {
  interface: InterfaceName;
  /** Method and URL as sent. */
  request: string;
  answered: boolean;
  /** The status, when an answer came. */
  status?: number;
  /** The answer's body (its start, when long). */
  body?: string;
  /** Why no answer came. */
  error?: string;
}

export async function readNodeVersions(clients: Partial<Record<InterfaceName, Client>>): Promise<VersionAnswer[]> {
  const out: VersionAnswer[] = [];
  for (const name of ['ledger', 'scan', 'wallet'] as const) {
    const client = clients[name];
    if (!client) continue;
    const path = VERSION_PATHS[name];
    const request = `GET ${client.base}${path}`;
    try {
      const x = await client.get(path, { unbudgeted: true });
      if (x.status === 0) out.push({ interface: name, request, answered: false, error: x.error ?? 'no answer' });
      else out.push({ interface: name, request, answered: true, status: x.status, body: x.bytes.subarray(0, BODY_BYTES).toString('utf8') });
    } catch (e) {
      if (!(e instanceof RequestNotSent)) throw e;
      out.push({ interface: name, request, answered: false, error: e.message });
    }
  }
  return out;
}
