// How the suite reaches a real deployment, as the command line takes it: extra headers (--header, and per
// interface --ledger-header ...), trusted CAs and a client certificate for mutual TLS (--ca-file,
// --client-cert, --client-key, and per interface --ledger-ca-file ...), and the proxy of the standard
// HTTPS_PROXY / HTTP_PROXY / NO_PROXY variables. Files are read and checked here, before the first request:
// a certificate that does not parse, a key that does not belong to its certificate, a header the suite
// sets itself are each one line naming the setting.
import { readFileSync } from 'node:fs';
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { InterfaceName } from '../engine/model.ts';
import type { ProxySettings, TlsSettings } from '../engine/transport/dispatcher.ts';
import { redactUrl } from '../runner/redaction.ts';
import { UsageError } from '../runner/usage-error.ts';
import { unsendable } from './secrets.ts';

type Each<Suffix extends string, T> = { [I in InterfaceName as `${I}${Suffix}`]?: T };

/** The options of this module, for all interfaces and for each. */
export interface TransportOptions extends Each<'Header', string[]>, Each<'CaFile', string>, Each<'ClientCert', string>, Each<'ClientKey', string> {
  header?: string[];
  caFile?: string;
  clientCert?: string;
  clientKey?: string;
  origins?: Record<string, string>;
}

const named = (opts: TransportOptions, key: string, flag: string) => opts.origins?.[key] ?? flag;
const flagOf = (key: string) => `--${key.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`;

/** RFC 9110 token: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers the suite sets itself, or that HTTP/1.1 framing owns: an extra one would change what the checks send. */
const MANAGED: Record<string, string> = {
  authorization: 'the bearer comes from the token settings (--<interface>-token, --<interface>-token-file or --<interface>-oauth-*)',
  'sec-websocket-protocol': 'the ledger API key comes from --ledger-api-key',
  'content-type': 'each check sets the content type it sends',
  'content-length': 'HTTP sets it',
  'transfer-encoding': 'HTTP sets it',
  host: 'it comes from the URL',
  connection: 'HTTP sets it',
  'keep-alive': 'HTTP sets it',
  upgrade: 'HTTP sets it',
  te: 'HTTP sets it',
  expect: 'HTTP sets it',
};

/**
 * The extra headers of one interface: those for all interfaces (--header), then its own (--ledger-header),
 * which win on the same name. Names are kept in lower case.
 */
export function headersFor(opts: TransportOptions, name: InterfaceName): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const key of ['header', `${name}Header`] as const) {
    const setting = named(opts, key, flagOf(key));
    const given = new Set<string>();
    for (const text of (opts[key as keyof TransportOptions] as string[] | undefined) ?? []) {
      const [header, value] = parseHeader(text, setting);
      if (given.has(header)) throw new UsageError(`${setting} gives the header ${header} twice`);
      given.add(header);
      out[header] = value;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/** `Name: value`, checked; a value is never quoted in a message (it may be a secret). */
export function parseHeader(text: string, setting: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new UsageError(`${setting} expects "Name: value", got text without a name before a colon (${text.length} characters, not shown)`);
  const header = text.slice(0, colon).trim().toLowerCase();
  const value = text.slice(colon + 1).trim();
  if (!HEADER_NAME.test(header)) throw new UsageError(`${setting}: "${header.slice(0, 60)}" is not a header name (letters, digits and !#$%&'*+.^_\`|~- only)`);
  if (MANAGED[header]) throw new UsageError(`${setting}: the suite does not take ${header} as an extra header: ${MANAGED[header]}`);
  const problem = unsendable(value);
  if (problem) throw new UsageError(`${setting}: the value of ${header} cannot be sent in an HTTP header: ${problem}`);
  return [header, value];
}

/** The values of extra headers that outputs must scrub: every one long enough to be a secret, or named like one. */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  const secretName = /(pass|pwd|secret|token|key|auth|sig|credential|session|jwt|cookie|bearer)/i;
  return Object.entries(headers ?? {})
    .filter(([header, value]) => value.length >= 8 || secretName.test(header))
    .map(([, value]) => value);
}

/**
 * The TLS settings of one interface: its own files (--ledger-ca-file ...) or those for all (--ca-file ...).
 * Undefined when none applies. TLS settings of its own on an http:// URL are a mistake: nothing would use them.
 */
export function tlsFor(opts: TransportOptions, name: InterfaceName, url: string): TlsSettings | undefined {
  const pick = (general: 'caFile' | 'clientCert' | 'clientKey', own: `${InterfaceName}${'CaFile' | 'ClientCert' | 'ClientKey'}`) => {
    const path = opts[own] ?? opts[general];
    if (!path) return undefined;
    const key = opts[own] ? own : general;
    return { path, setting: named(opts, key, flagOf(key)), own: Boolean(opts[own]) };
  };
  const ca = pick('caFile', `${name}CaFile`);
  const cert = pick('clientCert', `${name}ClientCert`);
  const key = pick('clientKey', `${name}ClientKey`);
  if (!ca && !cert && !key) return undefined;
  const own = [ca, cert, key].find((s) => s?.own);
  if (!url.toLowerCase().startsWith('https:')) {
    if (own) throw new UsageError(`${own.setting} is given but the ${name} URL is not https: nothing would use it`);
    return undefined;
  }
  if (cert && !key) throw new UsageError(`${cert.setting} needs its private key: give --client-key or --${name}-client-key`);
  if (key && !cert) throw new UsageError(`${key.setting} needs its certificate: give --client-cert or --${name}-client-cert`);
  const settings: TlsSettings = { from: {} };
  if (ca) {
    settings.ca = readPem(ca);
    certificates(settings.ca, `${ca.setting} ${ca.path}`);
    settings.from.ca = `${ca.setting} ${ca.path}`;
  }
  if (cert && key) {
    settings.cert = readPem(cert);
    settings.key = readPem(key);
    const leaf = certificates(settings.cert, `${cert.setting} ${cert.path}`)[0]!;
    const privateKey = parseKey(settings.key, `${key.setting} ${key.path}`);
    if (!leaf.checkPrivateKey(privateKey))
      throw new UsageError(`${key.setting} ${key.path} is not the private key of the certificate in ${cert.setting} ${cert.path}`);
    if (Date.parse(leaf.validTo) < Date.now()) throw new UsageError(`${cert.setting} ${cert.path}: the client certificate expired on ${leaf.validTo}`);
    settings.from.cert = `${cert.setting} ${cert.path}`;
    settings.from.key = `${key.setting} ${key.path}`;
  }
  return settings;
}

function readPem(file: { path: string; setting: string }): string {
  try {
    return readFileSync(file.path, 'utf8');
  } catch (e) {
    throw new UsageError(`${file.setting}: cannot read ${file.path}: ${(e as Error).message}`);
  }
}

/** The certificates of a PEM text, each parsed: none, or one that does not parse, is a usage error. */
function certificates(pem: string, from: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new UsageError(`${from} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (e) {
      throw new UsageError(`${from}: certificate ${i + 1} does not parse: ${(e as Error).message}`);
    }
  });
}

function parseKey(pem: string, from: string): KeyObject {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem))
    throw new UsageError(`${from} is an encrypted private key: give it unencrypted (e.g. openssl pkey -in key.pem -out plain.pem), readable only by you`);
  try {
    return createPrivateKey(pem);
  } catch (e) {
    throw new UsageError(`${from} holds no usable PEM private key: ${(e as Error).message}`);
  }
}

/**
 * The proxy of the standard variables (the lower-case spelling first, as curl reads them). A value without
 * a scheme is an http:// proxy (as curl takes "proxy:3128").
 */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const read = (base: string) => {
    for (const variable of [base.toLowerCase(), base]) {
      const value = env[variable]?.trim();
      if (value) return { value, from: `${variable} (environment)` };
    }
    return undefined;
  };
  const proxyUrl = (given: { value: string; from: string } | undefined) => {
    if (!given) return undefined;
    const value = /^[a-z][a-z0-9+.-]*:\/\//i.test(given.value) ? given.value : `http://${given.value}`;
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      throw new UsageError(`${given.from} is not a proxy URL: "${redactUrl(given.value)}"`);
    }
    if (!/^(https?|socks5?):$/.test(u.protocol))
      throw new UsageError(`${given.from} must be an http, https or socks5 proxy URL, got "${redactUrl(given.value)}"`);
    return value;
  };
  const https = read('HTTPS_PROXY');
  const http = read('HTTP_PROXY');
  if (!https && !http) return undefined;
  return {
    https: proxyUrl(https),
    http: proxyUrl(http),
    noProxy: read('NO_PROXY')?.value,
    from: { https: https?.from, http: http?.from },
  };
}
