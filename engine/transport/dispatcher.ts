// How requests reach an interface of a real deployment: its own CA, a client certificate for mutual TLS,
// and the proxy of the standard HTTPS_PROXY / HTTP_PROXY / NO_PROXY variables. The command line reads the
// files and the environment (cli/transport-settings.ts); this module only builds undici's dispatcher from
// the values, so a library caller gives them explicitly and nothing here reads the process's state.
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';

export interface TlsSettings {
  /** PEM certificates trusted in addition to Node's built-in CAs. */
  ca?: string;
  /** PEM client certificate (chain) and its unencrypted private key, for mutual TLS. */
  cert?: string;
  key?: string;
  /** Where each came from ("--ca-file ca.pem"), for messages. */
  from: { ca?: string; cert?: string; key?: string };
}

export interface ProxySettings {
  /** Proxy of http:// and of https:// URLs (none when absent). */
  http?: string;
  https?: string;
  /** Hosts reached directly, as NO_PROXY lists them. */
  noProxy?: string;
  /** Where each came from ("HTTPS_PROXY (environment)"), for messages. */
  from: { http?: string; https?: string };
}

/** The dispatcher of one interface, or undefined when nothing differs from undici's global one. */
export function dispatcherFor(tls: TlsSettings | undefined, proxy: ProxySettings | undefined): Dispatcher | undefined {
  const proxied = Boolean(proxy?.http || proxy?.https);
  if (!tls && !proxied) return undefined;
  // One secure context for every connection: the trusted CAs are parsed once, not per connection.
  const secureContext = tls ? createSecureContext({ ca: tls.ca ? [...rootCertificates, tls.ca] : undefined, cert: tls.cert, key: tls.key }) : undefined;
  const connect = secureContext ? { secureContext } : undefined;
  if (!proxied) return new Agent({ connect });
  // Empty strings rather than undefined: undici would read the process's environment for a missing one.
  return new EnvHttpProxyAgent({ httpProxy: proxy?.http ?? '', httpsProxy: proxy?.https ?? '', noProxy: proxy?.noProxy ?? '', connect, requestTls: connect });
}

/** The proxy a request to `url` goes through under these settings (NO_PROXY as undici reads it), or undefined. */
export function proxyFor(url: string, proxy: ProxySettings | undefined): { url: string; from: string } | undefined {
  if (!proxy) return undefined;
  const u = new URL(url);
  const https = u.protocol === 'https:';
  const chosen = https ? (proxy.https ?? proxy.http) : proxy.http;
  if (!chosen || bypassed(u, proxy.noProxy)) return undefined;
  return { url: chosen, from: (https && proxy.https ? proxy.from.https : proxy.from.http) ?? 'the proxy' };
}

/** NO_PROXY as undici's EnvHttpProxyAgent reads it: `*`, host names (a leading dot or `*.` for subdomains), optional ports. */
function bypassed(u: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  if (noProxy.trim() === '*') return true;
  const host = u.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    const m = /^(.+?)(?::(\d+))?$/.exec(entry.toLowerCase())!;
    const name = m[1]!.replace(/^\*?\./, '').replace(/^\[(.*)\]$/, '$1');
    if (m[2] && Number(m[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}
