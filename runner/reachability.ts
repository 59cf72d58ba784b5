// Before a run: every given target must be reachable at all. A URL nothing can connect to is a
// configuration problem (exit 2, one line naming the URL), not a rule the target broke. A target that
// accepts the connection and then misbehaves (resets it, never answers, answers garbage or redirects
// forever) is reachable but broken: the run goes on and its requirements fail with the reason.
import { connect } from 'node:net';
import type { Client } from '../engine/transport/http.ts';
import type { InterfaceName } from '../engine/model.ts';
import { UsageError } from './usage-error.ts';

const FLAG: Record<InterfaceName, string> = { ledger: '--ledger-url', wallet: '--wallet-url', scan: '--scan-url' };

/**
 * Error codes that mean no HTTP exchange with the URL is possible: nothing listens, the name does not
 * resolve, no route, or TLS cannot be set up (wrong scheme, untrusted certificate).
 */
const CANNOT_CONNECT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_|ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|EPROTO|ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

export async function ensureReachable(clients: Partial<Record<InterfaceName, Client>>): Promise<void> {
  for (const [name, client] of Object.entries(clients) as Array<[InterfaceName, Client]>) {
    const x = await client.request('GET', '/', { auth: 'none', unbudgeted: true });
    if (x.status !== 0) continue;
    if (x.errorCode && CANNOT_CONNECT.test(x.errorCode)) throw new UsageError(`cannot reach ${FLAG[name]} ${client.base}: ${x.error}`);
    // No answer in time: a black-holed address and a slow server look alike, so try a bare connection.
    if (x.errorCode === 'TIMEOUT') {
      const refused = await tcpProblem(client.base, client.config.timeoutMs);
      if (refused) throw new UsageError(`cannot reach ${FLAG[name]} ${client.base}: ${refused}`);
    }
  }
}

/** Why a TCP connection to the URL's host and port cannot be opened within `timeoutMs`, or undefined when it can. */
function tcpProblem(url: string, timeoutMs: number): Promise<string | undefined> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => done(`no connection within ${timeoutMs} ms`), timeoutMs);
    socket.once('connect', () => done(undefined));
    socket.once('error', (e: NodeJS.ErrnoException) => done(`${e.message}${e.code ? ` (${e.code})` : ''}`));
  });
}
