// An https server with its own CA in front of an http origin (the reference node), as a deployment's TLS
// terminator is: it may require a client certificate signed by that CA (mutual TLS) and records what it
// forwarded. The certificates are made with openssl at test time, in a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export interface TestPki {
  dir: string;
  /** The CA that signed the server's and the client's certificates. */
  caFile: string;
  /** Another CA, which signed nothing here. */
  otherCaFile: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A certificate and key the other CA's key pair makes (self-signed, unknown to the server). */
  strangerCert: string;
  strangerKey: string;
}

export function makePki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'cn-pki-'));
  const at = (f: string) => join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=cn-conformance test CA');
  openssl('req', '-x509', ...ec, '-keyout', 'other.key', '-out', 'other.pem', '-days', '2', '-subj', '/CN=another CA');
  writeFileSync(at('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  for (const [name, ext] of [
    ['server', ['-extfile', 'server.ext']],
    ['client', []],
  ] as const) {
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', '2', ...ext);
  }
  return {
    dir,
    caFile: at('ca.pem'),
    otherCaFile: at('other.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    strangerCert: at('other.pem'),
    strangerKey: at('other.key'),
  };
}

export interface ForwardedRequest {
  method: string;
  path: string;
  /** The client certificate's common name (mutual TLS), if one was presented and verified. */
  clientName?: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface TlsFront {
  /** https://127.0.0.1:port */
  url: string;
  forwarded: ForwardedRequest[];
  close(): Promise<void>;
}

export async function startTlsFront(origin: string, pki: TestPki, options: { requireClientCert: boolean }): Promise<TlsFront> {
  const target = new URL(origin);
  const forwarded: ForwardedRequest[] = [];
  const server = createHttpsServer(
    {
      key: readFileSync(pki.serverKey),
      cert: readFileSync(pki.serverCert),
      ca: readFileSync(pki.caFile),
      requestCert: options.requireClientCert,
      rejectUnauthorized: options.requireClientCert,
    },
    (req, res) => {
      const socket = req.socket as TLSSocket;
      const peer = socket.authorized ? socket.getPeerCertificate() : undefined;
      const cn = peer?.subject?.CN;
      forwarded.push({ method: req.method ?? '', path: req.url ?? '', clientName: Array.isArray(cn) ? cn[0] : cn, headers: req.headers });
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
