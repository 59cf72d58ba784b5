// Before a run: every given target must be reachable at all. A URL nothing can connect to is a
// configuration problem (exit 2, one line naming the URL), not a rule the target broke. So is TLS that
// cannot be set up: an untrusted server certificate (naming the CA setting), a client certificate the
// server requires or refuses (naming the client certificate settings), a proxy that will not connect. A
// target that accepts the connection and then misbehaves (resets it, never answers, answers garbage or
// redirects forever) is reachable but broken: the run goes on and its requirements fail with the reason.
import { connect } from 'node:net';
import type { Client } from '../engine/transport/http.ts';
import { proxyFor } from '../engine/transport/dispatcher.ts';
import type { InterfaceName } from '../engine/model.ts';
import type { TargetConfig } from '../engine/target.ts';
import { redactUrl } from './redaction.ts';
import { tlsProbe } from './tls-probe.ts';
import { UsageError } from './usage-error.ts';

const FLAG: Record<InterfaceName, string> = { ledger: '--ledger-url', wallet: '--wallet-url', scan: '--scan-url' };

/**
 * Error codes that mean no HTTP exchange with the URL is possible: nothing listens, the name does not
 * resolve, no route, or TLS cannot be set up (wrong scheme, untrusted certificate).
 */
const CANNOT_CONNECT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_|ENETUNREACH|EHOSTUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|EPROTO|ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_)/;

/** The server's certificate chain is not trusted (as opposed to a name mismatch or an expired certificate). */
const UNTRUSTED =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|UNABLE_TO_VERIFY_LEAF_SIGNATURE|CERT_UNTRUSTED)$/;

/** Errors of a connection that closed before or right after its TLS handshake: the server may have refused a client certificate. */
const CLOSED = /^(UND_ERR_SOCKET|ECONNRESET|EPIPE)$/;

/** The TLS alerts of a server that wants a client certificate, or refuses the one it was given. */
const CLIENT_CERT_ALERT =
  /ALERT_(CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|ACCESS_DENIED|UNSUPPORTED_CERTIFICATE|DECRYPT_ERROR)/;

export async function ensureReachable(
  clients: Partial<Record<InterfaceName, Client>>,
  target: Pick<TargetConfig, 'ledger' | 'wallet' | 'scan' | 'proxy'> = {},
): Promise<void> {
  for (const [name, client] of Object.entries(clients) as Array<[InterfaceName, Client]>) {
    const x = await client.request('GET', '/', { auth: 'none', unbudgeted: true });
    if (x.status !== 0) continue;
    const where = `${FLAG[name]} ${client.base}`;
    const proxy = proxyFor(client.base, target.proxy);
    const through = proxy ? ` through the proxy ${redactUrl(proxy.url)} of ${proxy.from}` : '';
    const code = x.errorCode ?? '';
    const tunnel = proxy && /Proxy response \((\d+)\)/.exec(x.error ?? '');
    if (tunnel)
      throw new UsageError(
        `cannot reach ${where}${through}: the proxy answered ${tunnel[1]} to CONNECT ${new URL(client.base).host}; check ${proxy.from} and NO_PROXY`,
      );
    if (UNTRUSTED.test(code)) throw new UsageError(`cannot reach ${where}${through}: ${x.error}; ${untrusted(name, target)}`);
    if (CANNOT_CONNECT.test(code)) {
      const alert = CLIENT_CERT_ALERT.test(code) ? `; ${clientCertificate(name, target, code)}` : '';
      throw new UsageError(`cannot reach ${where}${through}: ${x.error}${alert}`);
    }
    // A server that refuses a client certificate under TLS 1.3 closes the connection after the handshake:
    // undici sees a closed socket, a direct TLS connection sees the server's alert.
    if (CLOSED.test(code) && client.base.startsWith('https:') && !proxy) {
      const probe = await tlsProbe(client.base, target[name]?.tls, client.config.timeoutMs);
      if (probe.alert && CLIENT_CERT_ALERT.test(probe.alert))
        throw new UsageError(`cannot reach ${where}: the TLS handshake failed (${probe.alert}); ${clientCertificate(name, target, probe.alert)}`);
      if (probe.outcome === 'closed' && target[name]?.tls?.cert)
        throw new UsageError(
          `cannot reach ${where}: the server closes the connection after the TLS handshake without answering; it may refuse the client certificate from ${target[name]!.tls!.from.cert}`,
        );
    }
    // No answer in time: a black-holed address and a slow server look alike, so try a bare connection
    // (not through a proxy: the direct route may be closed on purpose).
    if (code === 'TIMEOUT' && !proxy) {
      const refused = await tcpProblem(client.base, client.config.timeoutMs);
      if (refused) throw new UsageError(`cannot reach ${where}: ${refused}`);
    }
  }
}

function untrusted(name: InterfaceName, target: Pick<TargetConfig, InterfaceName>): string {
  const ca = target[name]?.tls?.from.ca;
  return ca
    ? `the server's certificate is not signed by a CA of ${ca} nor by one Node trusts`
    : `the server's certificate is not signed by a CA Node trusts: give its CA with --ca-file or --${name}-ca-file`;
}

function clientCertificate(name: InterfaceName, target: Pick<TargetConfig, InterfaceName>, alert: string): string {
  const cert = target[name]?.tls?.from.cert;
  if (!cert) return `the server requires a client certificate: give --client-cert and --client-key (or --${name}-client-cert and --${name}-client-key)`;
  return `the server refused the client certificate from ${cert} (${alert}): check it and ${target[name]!.tls!.from.key ?? 'its key'}`;
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
