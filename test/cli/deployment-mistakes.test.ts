// Each mistake in reaching a deployment (test/support/deployment.ts: mutual TLS, OAuth2 tokens from a real
// OpenID provider) is exit 2 with one line naming the setting and the step that failed, and no check
// reaches the node.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '../support/connect-proxy.ts';
import { type Deployment, startDeployment } from '../support/deployment.ts';

let d: Deployment;
beforeAll(async () => {
  d = await startDeployment();
});
afterAll(() => d?.close());

/** The run's one line on stderr, after checking it is exit 2 and that only credential-less probes reached the node. */
async function refused(change: Record<string, string | undefined>): Promise<string> {
  const from = d.front.forwarded.length;
  const { code, stderr, stdout } = await d.run(change);
  expect(code, stdout).toBe(2);
  expect(d.front.forwarded.slice(from).every((r) => r.headers.authorization === undefined)).toBe(true);
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('mistakes in reaching a deployment', () => {
  it("a wrong client secret: the provider's 401 invalid_client, naming the client and the secret's setting", async () => {
    const wrong = join(d.pki.dir, 'wrong-secret');
    writeFileSync(wrong, 'not-the-secret-at-all');
    const line = await refused({ '--ledger-oauth-client-secret-file': wrong });
    expect(line).toBe(
      `cn-conformance: no ledger token: the token endpoint failed: POST ${d.provider.tokenUrl} answered 401 invalid_client: client authentication failed for client "ledger-admin"; check --ledger-oauth-client-id "ledger-admin" and the client secret from --ledger-oauth-client-secret-file ${wrong}`,
    );
  });

  it('a CA that did not sign the server certificate: naming --ca-file', async () => {
    const line = await refused({ '--ca-file': d.pki.otherCaFile });
    expect(line).toMatch(
      new RegExp(
        `^cn-conformance: cannot reach --ledger-url ${d.front.url}: .*\\(SELF_SIGNED_CERT_IN_CHAIN\\); the server's certificate is not signed by a CA of --ca-file ${d.pki.otherCaFile} nor by one Node trusts$`,
      ),
    );
  });

  it('no client certificate where the server requires one: naming --client-cert and --client-key', async () => {
    const line = await refused({ '--client-cert': undefined, '--client-key': undefined });
    expect(line).toBe(
      `cn-conformance: cannot reach --ledger-url ${d.front.url}: the TLS handshake failed (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); the server requires a client certificate: give --client-cert and --client-key (or --ledger-client-cert and --ledger-client-key)`,
    );
  });

  it('a token URL that does not answer: naming it, within the timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/oauth/token`;
    try {
      const line = await refused({ '--wallet-oauth-token-url': url, '--timeout-ms': '800' });
      expect(line).toBe(
        `cn-conformance: no wallet token: the token endpoint failed: POST ${url}: no answer within 800 ms; check --wallet-oauth-token-url ${url}`,
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('an issuer without a discovery document: the discovery step', async () => {
    const issuer = `${d.provider.issuer}/nowhere`;
    const line = await refused({ '--ledger-oauth-issuer': issuer });
    expect(line).toMatch(
      new RegExp(
        `^cn-conformance: no ledger token: the OpenID discovery of the issuer failed: GET ${issuer}/\\.well-known/openid-configuration answered 404 .*; check --ledger-oauth-issuer ${issuer}$`,
      ),
    );
  });

  it('a proxy that cannot connect to the node: naming the proxy variable', async () => {
    const proxy = await startConnectProxy();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const { code, stderr } = await d.run({ '--ledger-url': url }, { HTTPS_PROXY: proxy.url });
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([
        `cn-conformance: cannot reach --ledger-url ${url} through the proxy ${proxy.url} of HTTPS_PROXY (environment): the proxy answered 502 to CONNECT ${new URL(url).host}; check HTTPS_PROXY (environment) and NO_PROXY`,
      ]);
      expect(proxy.tunnels).toEqual([new URL(url).host]);
    } finally {
      await proxy.close();
    }
  });

  it('a token the node refuses (the client is no user of the node): naming the client and where the token came from', async () => {
    const from = d.front.forwarded.length;
    const { code, stderr } = await d.run({ '--ledger-oauth-client-id': 'stranger' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      `cn-conformance: the ledger token was refused (403) by GET ${d.front.url}/v2/version: check the token --ledger-oauth-issuer ${d.provider.issuer} issued to --ledger-oauth-client-id "stranger" for --ledger-oauth-audience "${'https://daml.com/jwt/aud/participant/cn-conformance-test'}" (does the node trust that issuer and know that user?)`,
    ]);
    // The preflight's one request with the token, and nothing after it.
    expect(
      d.front.forwarded
        .slice(from)
        .filter((r) => r.headers.authorization !== undefined)
        .map((r) => r.path),
    ).toEqual(['/v2/version']);
  });
});
