// The settings of how to reach a deployment, refused before the first request with one line naming the
// setting: extra headers, TLS files, the proxy variables, OAuth2 client credentials. And what evidence
// shows of them: never a header's value.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oauthFor } from '../../cli/oauth-settings.ts';
import { buildTarget, type RunOptions, runBounds } from '../../cli/run-settings.ts';
import { headersFor, parseHeader, proxyFromEnvironment, tlsFor } from '../../cli/transport-settings.ts';
import { Client, summarise } from '../../engine/transport/http.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { Scrubber } from '../../runner/redaction.ts';
import { makePki } from '../support/tls-front.ts';

const pki = makePki();
const HTTPS = 'https://ledger.example';

describe('--header and --<interface>-header', () => {
  it('are "Name: value", names kept in lower case; an interface\'s own wins over the one for all', () => {
    expect(parseHeader('X-Tenant:  acme ', '--header')).toEqual(['x-tenant', 'acme']);
    expect(headersFor({ header: ['X-Tenant: all', 'X-Env: prod'], ledgerHeader: ['x-tenant: ledger'] }, 'ledger')).toEqual({
      'x-tenant': 'ledger',
      'x-env': 'prod',
    });
    expect(headersFor({ header: ['X-Tenant: all'] }, 'scan')).toEqual({ 'x-tenant': 'all' });
    expect(headersFor({ header: [] }, 'wallet')).toBeUndefined();
  });

  it('refuse what cannot be sent or what the suite sets itself, without quoting a value', () => {
    expect(() => parseHeader('s3cr3t-without-a-name', '--header')).toThrow(
      /^--header expects "Name: value", got text without a name before a colon \(21 characters, not shown\)$/,
    );
    expect(() => parseHeader('Bad Name: x', '--ledger-header')).toThrow(/^--ledger-header: "bad name" is not a header name/);
    expect(() => parseHeader('Authorization: Bearer s3cr3t', '--header')).toThrow(
      /^--header: the suite does not take authorization as an extra header: the bearer comes from the token settings/,
    );
    expect(() => parseHeader('Content-Type: text/plain', '--header')).toThrow(/each check sets the content type/);
    expect(() => parseHeader('X-Key: s3cr3t\nmore', '--header')).toThrow(/^--header: the value of x-key cannot be sent in an HTTP header: it has a line break/);
    expect(() => headersFor({ header: ['X-A: 1', 'x-a: 2'] }, 'ledger')).toThrow(/^--header gives the header x-a twice$/);
    try {
      parseHeader('X-Key: s3cr3t\u0001', 'CN_CONFORMANCE_HEADER (environment)');
    } catch (e) {
      expect((e as Error).message).not.toContain('s3cr3t');
      expect((e as Error).message).toMatch(/^CN_CONFORMANCE_HEADER \(environment\): the value of x-key/);
    }
  });

  it("are sent, and shown as *** in evidence and curl lines (a check's own header of the same name is the check's)", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new Client({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        prefix: '',
        credentials: {},
        headers: { 'x-gateway-key': 'gateway-s3cr3t', 'x-tenant': 'acme' },
        timeoutMs: 5_000,
        maxBodyBytes: 1024,
        limits: new RunLimits({ maxRequests: 10 }),
      });
      const x = await client.get('/v2/version');
      const y = await client.get('/v2/version', { headers: { 'X-Tenant': 'the-check-s' } });
      expect(seen[0]).toMatchObject({ 'x-gateway-key': 'gateway-s3cr3t', 'x-tenant': 'acme' });
      expect(seen[1]).toMatchObject({ 'x-gateway-key': 'gateway-s3cr3t', 'x-tenant': 'the-check-s' });
      const shown = summarise(x);
      expect(shown.request.headers).toMatchObject({ 'x-gateway-key': '***', 'x-tenant': '***' });
      expect(shown.curl).toContain("-H 'x-gateway-key: ***' -H 'x-tenant: ***'");
      expect(JSON.stringify(shown)).not.toContain('gateway-s3cr3t');
      expect(summarise(y).request.headers).toMatchObject({ 'x-gateway-key': '***', 'X-Tenant': 'the-check-s' });
    } finally {
      server.close();
    }
  });
});

describe('--ca-file, --client-cert and --client-key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cn-tls-'));

  it('read and check the files: the CA and the certificate parse, and the key belongs to the certificate', () => {
    const tls = tlsFor({ caFile: pki.caFile, clientCert: pki.clientCert, clientKey: pki.clientKey }, 'ledger', HTTPS);
    expect(tls?.from).toEqual({ ca: `--ca-file ${pki.caFile}`, cert: `--client-cert ${pki.clientCert}`, key: `--client-key ${pki.clientKey}` });
    expect(tls?.ca).toContain('BEGIN CERTIFICATE');
    // An interface's own file wins over the one for all.
    expect(tlsFor({ caFile: pki.caFile, walletCaFile: pki.otherCaFile }, 'wallet', HTTPS)?.from.ca).toBe(`--wallet-ca-file ${pki.otherCaFile}`);
    expect(tlsFor({}, 'ledger', HTTPS)).toBeUndefined();
  });

  it('refuse a mistake with one line naming the setting', () => {
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'hello');
    const encrypted = join(dir, 'encrypted.key');
    writeFileSync(encrypted, '-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n');
    expect(() => tlsFor({ caFile: join(dir, 'missing.pem') }, 'ledger', HTTPS)).toThrow(/^--ca-file: cannot read .*missing\.pem: ENOENT/);
    expect(() => tlsFor({ caFile: notPem }, 'ledger', HTTPS)).toThrow(new RegExp(`^--ca-file ${notPem} holds no PEM certificate`));
    expect(() => tlsFor({ clientCert: pki.clientCert }, 'ledger', HTTPS)).toThrow(
      /^--client-cert needs its private key: give --client-key or --ledger-client-key$/,
    );
    expect(() => tlsFor({ scanClientKey: pki.clientKey }, 'scan', HTTPS)).toThrow(/^--scan-client-key needs its certificate/);
    expect(() => tlsFor({ clientCert: pki.clientCert, clientKey: pki.strangerKey }, 'ledger', HTTPS)).toThrow(
      new RegExp(`^--client-key ${pki.strangerKey} is not the private key of the certificate in --client-cert ${pki.clientCert}$`),
    );
    expect(() => tlsFor({ clientCert: pki.clientCert, clientKey: encrypted }, 'ledger', HTTPS)).toThrow(/is an encrypted private key: give it unencrypted/);
    // Nothing would use an interface's own TLS file on http; the ones for all apply to the https interfaces only.
    expect(() => tlsFor({ ledgerCaFile: pki.caFile }, 'ledger', 'http://ledger.example')).toThrow(/^--ledger-ca-file is given but the ledger URL is not https/);
    expect(tlsFor({ caFile: pki.caFile }, 'ledger', 'http://ledger.example')).toBeUndefined();
  });
});

describe('HTTPS_PROXY, HTTP_PROXY and NO_PROXY', () => {
  it('are read as curl reads them: the lower-case spelling first, a bare host:port as an http proxy', () => {
    expect(proxyFromEnvironment({})).toBeUndefined();
    expect(proxyFromEnvironment({ https_proxy: 'http://a:3128', HTTPS_PROXY: 'http://b:3128', NO_PROXY: 'localhost,.internal' })).toEqual({
      https: 'http://a:3128',
      http: undefined,
      noProxy: 'localhost,.internal',
      from: { https: 'https_proxy (environment)', http: undefined },
    });
    expect(proxyFromEnvironment({ HTTP_PROXY: 'proxy.corp:8080' })?.http).toBe('http://proxy.corp:8080');
  });

  it('refuse a value that is no proxy URL, without its password', () => {
    expect(() => proxyFromEnvironment({ HTTPS_PROXY: 'ftp://user:pw@proxy:2121' })).toThrow(
      /^HTTPS_PROXY \(environment\) must be an http, https or socks5 proxy URL, got "ftp:\/\/\*\*\*:\*\*\*@proxy:2121\/"$/,
    );
  });
});

describe('--<interface>-oauth-*', () => {
  const secretFile = join(pki.dir, 'client-secret');
  writeFileSync(secretFile, 'the-client-secret\n');
  const full = { ledgerOauthTokenUrl: 'https://idp.example/oauth/token', ledgerOauthClientId: 'suite', ledgerOauthClientSecretFile: secretFile };

  it('take the secret from its file or the environment, never from a flag', () => {
    expect(oauthFor({}, 'ledger', {})).toBeUndefined();
    expect(oauthFor(full, 'ledger', {})).toMatchObject({ tokenUrl: full.ledgerOauthTokenUrl, clientId: 'suite', clientSecret: 'the-client-secret' });
    const fromEnv = oauthFor({ ...full, ledgerOauthClientSecretFile: undefined }, 'ledger', { CN_CONFORMANCE_LEDGER_OAUTH_CLIENT_SECRET: 'env-secret' });
    expect(fromEnv?.clientSecret).toBe('env-secret');
    expect(fromEnv?.from.clientSecret).toBe('the environment variable CN_CONFORMANCE_LEDGER_OAUTH_CLIENT_SECRET');
  });

  it('refuse an incomplete or contradictory set with one line naming the setting', () => {
    expect(() => oauthFor({ ...full, ledgerOauthIssuer: 'https://idp.example' }, 'ledger', {})).toThrow(
      /^--ledger-oauth-token-url and --ledger-oauth-issuer: give one of them/,
    );
    expect(() => oauthFor({ walletOauthClientId: 'x' }, 'wallet', {})).toThrow(
      /^--wallet-oauth-client-id given, but no --wallet-oauth-token-url or --wallet-oauth-issuer/,
    );
    expect(() => oauthFor({ ...full, ledgerOauthClientId: undefined }, 'ledger', {})).toThrow(/^--ledger-oauth-token-url needs --ledger-oauth-client-id/);
    expect(() => oauthFor({ ...full, ledgerOauthClientSecretFile: undefined }, 'ledger', {})).toThrow(
      /^the ledger OAuth2 client "suite" needs its secret: give --ledger-oauth-client-secret-file or CN_CONFORMANCE_LEDGER_OAUTH_CLIENT_SECRET$/,
    );
    expect(() => oauthFor({ ...full, ledgerOauthTokenUrl: 'idp.example/token' }, 'ledger', {})).toThrow(/^--ledger-oauth-token-url is not an http\(s\) URL/);
    expect(() => oauthFor({ ...full, ledgerOauthClientSecretFile: join(pki.dir, 'none') }, 'ledger', {})).toThrow(
      /^--ledger-oauth-client-secret-file: cannot read/,
    );
  });

  it('contradict a token given by flag, leave one in the environment unused, and need the interface URL', async () => {
    const opts = (over: Partial<RunOptions>): RunOptions =>
      ({ spec: [], reportDir: '', runs: '1', seed: '1', timeoutMs: '1000', maxRequests: '10', only: [], skip: [], ...full, ...over }) as RunOptions;
    const bounds = runBounds(opts({}));
    await expect(buildTarget(opts({ ledgerUrl: HTTPS, ledgerToken: 'abcd.efgh.ijkl' }), bounds, {})).rejects.toThrow(
      /^--ledger-token and the --ledger-oauth-\* client credentials both give the ledger token: give one of them$/,
    );
    const { target, sources } = await buildTarget(
      opts({ ledgerUrl: HTTPS, ledgerToken: 'left.in.env', origins: { ledgerToken: 'CN_CONFORMANCE_LEDGER_TOKEN (environment)' } }),
      bounds,
      {},
    );
    expect(target.ledger?.credentials?.bearer).toBeUndefined();
    expect(target.ledger?.oauth?.clientId).toBe('suite');
    expect(sources.ledger).toMatch(/^the token --ledger-oauth-token-url https:\/\/idp\.example\/oauth\/token issued to --ledger-oauth-client-id "suite"/);
    await expect(buildTarget(opts({ scanUrl: HTTPS }), bounds, {})).rejects.toThrow(
      /^the --ledger-oauth-\* settings are given but --ledger-url is not: nothing would use them$/,
    );
    await expect(buildTarget(opts({ ...Object.fromEntries(Object.keys(full).map((k) => [k, undefined])), header: ['X-A: b'] }), bounds, {})).rejects.toThrow(
      /^--header applies to targets given by URL; the embedded reference node/,
    );
  });
});

describe('the scrubber', () => {
  it('learns a secret obtained during the run (a fetched token) and scrubs it from then on', () => {
    const scrubber = new Scrubber(['configured-secret']);
    expect(scrubber.scrub('a fetched.token.value here')).toBe('a fetched.token.value here');
    scrubber.add('fetched.token.value');
    expect(scrubber.scrub('configured-secret and fetched.token.value')).toBe('*** and ***');
  });
});
