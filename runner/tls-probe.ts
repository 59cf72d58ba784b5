// A direct TLS connection to an https URL with the interface's TLS settings, sending one request: what the
// server does after the handshake. Under TLS 1.3 a server that wants a client certificate finishes the
// handshake first and then sends its alert, which an HTTP client only sees as a closed socket.
import { connect, createSecureContext, rootCertificates } from 'node:tls';
import type { TlsSettings } from '../engine/transport/dispatcher.ts';

export interface TlsProbe {
  /** answered: bytes came back; closed: the server closed without a byte; failed: an error (its code in `alert`). */
  outcome: 'answered' | 'closed' | 'failed';
  alert?: string;
}

export function tlsProbe(url: string, tls: TlsSettings | undefined, timeoutMs: number): Promise<TlsProbe> {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const secureContext = createSecureContext({ ca: tls?.ca ? [...rootCertificates, tls.ca] : undefined, cert: tls?.cert, key: tls?.key });
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(u.port || 443), servername: /^[\d.]+$|:/.test(host) ? undefined : host, secureContext });
    const done = (probe: TlsProbe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(probe);
    };
    const timer = setTimeout(() => done({ outcome: 'failed', alert: 'TIMEOUT' }), timeoutMs);
    socket.once('secureConnect', () => socket.write(`HEAD ${u.pathname || '/'} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`));
    socket.once('data', () => done({ outcome: 'answered' }));
    socket.once('error', (e: NodeJS.ErrnoException) => done({ outcome: 'failed', alert: e.code ?? e.message }));
    socket.once('close', () => done({ outcome: 'closed' }));
  });
}
