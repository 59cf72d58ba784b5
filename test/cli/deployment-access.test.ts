// A run against a deployment set up as real ones are (test/support/deployment.ts: mutual TLS, OAuth2
// client-credentials tokens from a real OpenID provider, a gateway's header), directly and through a
// forward proxy. No secret (client secrets, fetched tokens, header values) reaches any output.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '../support/connect-proxy.ts';
import { AUDIENCE, type Deployment, GATEWAY_KEY, LEDGER_SECRET, ONLY, startDeployment, WALLET_SECRET } from '../support/deployment.ts';

let d: Deployment;
beforeAll(async () => {
  d = await startDeployment();
});
afterAll(() => d?.close());

/** The claims of a JWT, or undefined for anything else (a check's "not-a-jwt"). */
function claims(token: string): Record<string, unknown> | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

/** Bearer tokens the TLS front forwarded since `from`. */
const bearers = (from: number) => [
  ...new Set(
    d.front.forwarded
      .slice(from)
      .map((r) => /^Bearer (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1])
      .filter((t): t is string => Boolean(t)),
  ),
];

/** The console and every file of a report dir. */
const everything = (dir: string, stdout: string) =>
  [stdout, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => readFileSync(join(dir, f), 'utf8'))].join('\n');

describe('a deployment behind mutual TLS with OAuth2 client-credentials tokens', () => {
  it('passes: the tokens come from the provider, the client certificate and the header are sent, nothing secret is written', async () => {
    const from = d.front.forwarded.length;
    // With a bundle, whose HAR file (every exchange, headers as sent) lands in the report dir: judged below with the rest.
    const { code, stdout, stderr, dir } = await d.run({ '--bundle': join(mkdtempSync(join(tmpdir(), 'cn-access-bundle-')), 'certification.tar.gz') });
    expect(stderr).toBe('');
    expect(code, stdout).toBe(0);
    expect(readFileSync(join(dir, 'exchanges.har'), 'utf8')).toContain('Bearer $CN_CONFORMANCE_LEDGER_TOKEN');
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.requirements.map((r: { id: string; status: string }) => `${r.id} ${r.status}`).sort()).toEqual(ONLY.map((id) => `${id} passed`).sort());
    const forwarded = d.front.forwarded.slice(from);
    expect(forwarded.length).toBeGreaterThan(10);
    expect(forwarded.every((r) => r.clientName === 'client' && r.headers['x-gateway-key'] === GATEWAY_KEY)).toBe(true);
    // Every token sent is the provider's, one per client: the node accepted them, and refused their forgeries.
    const fromProvider = bearers(from).filter((t) => claims(t)?.iss === d.provider.issuer);
    expect(new Set(fromProvider.map((t) => claims(t)?.sub))).toEqual(new Set(['ledger-admin', d.walletUser]));
    // The secrets among them are the tokens the provider signed; a forgery (its claims, another signature) is
    // shown as sent, so that its curl line reproduces it.
    const keys = createLocalJWKSet((await (await fetch(d.provider.jwksUri)).json()) as Parameters<typeof createLocalJWKSet>[0]);
    const signed = (await Promise.all(fromProvider.map(async (t) => ((await jwtVerify(t, keys).catch(() => undefined)) ? t : undefined)))).filter(Boolean);
    expect(signed.length).toBeGreaterThanOrEqual(2);
    const written = everything(dir, stdout);
    for (const secret of [LEDGER_SECRET, WALLET_SECRET, GATEWAY_KEY, ...signed]) expect(written).not.toContain(secret);
    expect(report.config.access).toEqual({
      ledger: {
        oauth: { issuer: d.provider.issuer, clientId: 'ledger-admin', clientSecret: '***', audience: AUDIENCE },
        headers: { 'x-gateway-key': '***' },
        tls: { ca: `--ca-file ${d.pki.caFile}`, clientCert: `--client-cert ${d.pki.clientCert}`, clientKey: `--client-key ${d.pki.clientKey}` },
      },
      wallet: expect.objectContaining({ oauth: { tokenUrl: d.provider.tokenUrl, clientId: d.walletUser, clientSecret: '***', audience: AUDIENCE } }),
      scan: expect.objectContaining({ headers: { 'x-gateway-key': '***' } }),
    });
  });

  it("shows the fetched token in a failure's curl line as the interface's token variable, never as sent", async () => {
    const faulty = await startDeployment(['ledger-limit-plus-one']);
    try {
      const from = faulty.front.forwarded.length;
      const { code, stdout, dir } = await faulty.run({ '--only': 'LEDGER-UPDATES-LIMIT' });
      expect(code, stdout).toBe(1);
      const report = readFileSync(join(dir, 'report.json'), 'utf8');
      const curl = JSON.parse(report).requirements.find((r: { id: string }) => r.id === 'LEDGER-UPDATES-LIMIT').evidence.exchange.curl as string;
      expect(curl).toMatch(
        /^curl -sS -X POST 'https:\/\/127\.0\.0\.1:\d+\/v2\/updates\?limit=\d+[^']*' -H 'x-gateway-key: \*\*\*' -H "authorization: Bearer \$CN_CONFORMANCE_LEDGER_TOKEN" /,
      );
      const sent = [...new Set(faulty.front.forwarded.slice(from).map((r) => String(r.headers.authorization ?? '')))].filter((a) => a.startsWith('Bearer ey'));
      expect(sent.length).toBeGreaterThan(0);
      for (const a of sent) expect(everything(dir, stdout)).not.toContain(a.slice('Bearer '.length));
    } finally {
      await faulty.close();
    }
  });

  it('goes through the proxy of HTTPS_PROXY and HTTP_PROXY: to the node and to the token endpoint', async () => {
    const proxy = await startConnectProxy();
    try {
      const { code, stdout } = await d.run({}, { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url });
      expect(code, stdout).toBe(0);
      expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(d.front.url).host, new URL(d.provider.issuer).host]));
      expect(stdout).not.toContain(WALLET_SECRET);
    } finally {
      await proxy.close();
    }
  });

  it('NO_PROXY sends the listed hosts around the proxy', async () => {
    const proxy = await startConnectProxy();
    try {
      const { code, stdout } = await d.run({}, { HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url, NO_PROXY: `localhost,${new URL(d.provider.issuer).host}` });
      expect(code, stdout).toBe(0);
      expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(d.front.url).host]));
    } finally {
      await proxy.close();
    }
  });
});
