// The OAuth2 client-credentials token source against a real OpenID provider (oidc-provider): the token
// endpoint given or discovered, the token renewed before it expires, and each failure told with its step.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientCredentialsToken, OAuthFailure, type OAuthSettings, renewal } from '../../engine/transport/oauth.ts';
import { Client } from '../../engine/transport/http.ts';
import { runRequirement } from '../../engine/engine.ts';
import { contextParts } from '../../engine/target.ts';
import { rule } from '../../engine/requirement.ts';
import type { Requirement } from '../../engine/model.ts';
import { RunLimits } from '../../engine/transport/limits.ts';
import { startOpenIdProvider, type TestProvider } from '../support/openid-provider.ts';

const AUDIENCE = 'https://daml.com/jwt/aud/participant/test';
const SECRET = 'client-secret-for-the-tests';

let provider: TestProvider;
beforeAll(async () => {
  provider = await startOpenIdProvider({ clients: [{ id: 'ledger-admin', secret: SECRET }], audience: AUDIENCE, ttlSeconds: 60 });
});
afterAll(() => provider.close());

const settings = (over: Partial<OAuthSettings> = {}): OAuthSettings => ({
  tokenUrl: provider.tokenUrl,
  clientId: 'ledger-admin',
  clientSecret: SECRET,
  audience: AUDIENCE,
  from: {
    endpoint: '--ledger-oauth-token-url',
    clientId: '--ledger-oauth-client-id "ledger-admin"',
    clientSecret: 'the secret file',
    audience: '--ledger-oauth-audience',
  },
  ...over,
});

/** A failure of `promise`, for its step, message and setting. */
async function failure(promise: Promise<unknown>): Promise<OAuthFailure> {
  const e = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(OAuthFailure);
  return e as OAuthFailure;
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('OAuth2 client credentials', () => {
  it('fetches a JWT access token for the client and audience from the token endpoint, once while it is fresh', async () => {
    const told: string[] = [];
    const source = new ClientCredentialsToken(settings({ scope: 'daml_ledger_api' }), { timeoutMs: 5_000, onToken: (t) => told.push(t) });
    expect(source.latest).toBeUndefined();
    const before = provider.tokenRequests;
    const token = await source.current();
    expect(decodeJwt(token)).toMatchObject({ iss: provider.issuer, sub: 'ledger-admin', aud: AUDIENCE, scope: 'daml_ledger_api' });
    expect(await source.current()).toBe(token);
    expect(provider.tokenRequests - before).toBe(1);
    expect(told).toEqual([token]);
    expect(source.latest).toBe(token);
    expect(source.issued(token)).toBe(true);
  });

  it("finds the token endpoint in the issuer's OpenID discovery document", async () => {
    const source = new ClientCredentialsToken(settings({ tokenUrl: undefined, issuer: `${provider.issuer}/` }), { timeoutMs: 5_000 });
    expect(await source.tokenEndpoint()).toBe(provider.tokenUrl);
    expect(decodeJwt(await source.current()).iss).toBe(provider.issuer);
  });

  it('renews the token before it expires, and keeps the held one while a renewal fails and it is still valid', async () => {
    let now = Date.now();
    const source = new ClientCredentialsToken(settings(), { timeoutMs: 5_000, now: () => now });
    const first = await source.current();
    // 60 s tokens: renewed 30 s before the end (80% would be 48 s, but 30 s before is sooner).
    now += 29_000;
    expect(await source.current()).toBe(first);
    now += 2_000;
    const second = await source.current();
    expect(second).not.toBe(first);
    expect(source.issued(first) && source.issued(second)).toBe(true);
    // The provider stops answering: the held token serves until it expires, then the failure is told.
    const broken = new ClientCredentialsToken(settings({ tokenUrl: `${provider.issuer}/no-token-endpoint` }), { timeoutMs: 5_000, now: () => now });
    expect((await failure(broken.current())).step).toBe('token endpoint');
  });

  it('serves the held token through a failed renewal until it expires', async () => {
    let now = Date.now();
    let answering = true;
    const real = new URL(provider.tokenUrl);
    // A relay that can be told to stop relaying: the same provider, then silence (a 503).
    const relay = createServer((req, res) => {
      if (!answering) return void res.writeHead(503).end('down');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? '' };
        const answer = await fetch(real, { method: 'POST', headers, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      });
    });
    const base = await listening(relay);
    try {
      const source = new ClientCredentialsToken(settings({ tokenUrl: `${base}/token` }), { timeoutMs: 5_000, now: () => now });
      const token = await source.current();
      answering = false;
      now += 40_000;
      expect(await source.current()).toBe(token);
      now += 25_000;
      const f = await failure(source.current());
      expect(f.message).toMatch(/answered 503 \(down\)/);
    } finally {
      relay.close();
    }
  });

  it("a wrong secret is the provider's 401 invalid_client, blamed on the client id and the secret, which it never quotes", async () => {
    const f = await failure(new ClientCredentialsToken(settings({ clientSecret: 'not-the-secret' }), { timeoutMs: 5_000 }).current());
    expect(f.step).toBe('token endpoint');
    expect(f.message).toMatch(new RegExp(`^POST ${provider.tokenUrl} answered 401 invalid_client: client authentication failed for client "ledger-admin"$`));
    expect(f.setting).toBe('--ledger-oauth-client-id "ledger-admin" and the client secret from the secret file');
    expect(f.message).not.toContain('not-the-secret');
  });

  it('an audience the provider does not serve is its invalid_target, blamed on the audience', async () => {
    const f = await failure(new ClientCredentialsToken(settings({ audience: 'https://elsewhere.example' }), { timeoutMs: 5_000 }).current());
    expect(f.message).toMatch(/answered 400 invalid_target/);
    expect(f.setting).toBe('--ledger-oauth-audience');
  });

  it('an issuer without a discovery document fails at discovery', async () => {
    const f = await failure(
      new ClientCredentialsToken(settings({ tokenUrl: undefined, issuer: `${provider.issuer}/realms/none` }), { timeoutMs: 5_000 }).current(),
    );
    expect(f.step).toBe('discovery');
    expect(f.message).toMatch(new RegExp(`^GET ${provider.issuer}/realms/none/\\.well-known/openid-configuration answered 404`));
  });

  it('a token endpoint that never answers fails within the timeout', async () => {
    const silent = createServer(() => {});
    const base = await listening(silent);
    try {
      const started = Date.now();
      const f = await failure(new ClientCredentialsToken(settings({ tokenUrl: `${base}/token` }), { timeoutMs: 300 }).current());
      expect(f.message).toBe(`POST ${base}/token: no answer within 300 ms`);
      expect(f.setting).toBe('--ledger-oauth-token-url');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('renewal: at 80% of the lifetime or 30 s before its end, whichever is sooner, never before half of it', () => {
    expect(renewal(0, 3600)).toEqual({ renewAt: 2_880_000, expiresAt: 3_600_000 });
    expect(renewal(0, 120)).toEqual({ renewAt: 90_000, expiresAt: 120_000 });
    expect(renewal(0, 20)).toEqual({ renewAt: 10_000, expiresAt: 20_000 });
    expect(renewal(0, undefined).renewAt).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('a client whose bearer is renewed', () => {
  it('sends the current token, also in place of an old one a check holds, and shows the variable in evidence', async () => {
    const seen: string[] = [];
    const echo = createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const base = await listening(echo);
    try {
      let now = Date.now();
      const source = new ClientCredentialsToken(settings(), { timeoutMs: 5_000, now: () => now });
      const client = new Client({
        origin: base,
        prefix: '',
        credentials: {
          get bearer() {
            return source.latest;
          },
        },
        credentialVariables: { bearer: 'CN_CONFORMANCE_LEDGER_TOKEN' },
        bearerSource: source,
        timeoutMs: 5_000,
        maxBodyBytes: 1024,
        limits: new RunLimits({ maxRequests: 10 }),
      });
      const first = await client.get('/v2/version');
      const old = source.latest!;
      now += 31_000;
      await client.get('/v2/version', { auth: { bearer: old, variable: 'CN_CONFORMANCE_LEDGER_LIMITED_TOKEN' } });
      expect(seen[0]).toBe(`Bearer ${old}`);
      expect(seen[1]).toBe(`Bearer ${source.latest}`);
      expect(source.latest).not.toBe(old);
      expect(first.shownHeaders?.authorization).toBe('Bearer $CN_CONFORMANCE_LEDGER_TOKEN');
      // A token nobody issued (a forged one) is sent as the check gave it.
      await client.get('/v2/version', { auth: { bearer: 'forged.token.value' } });
      expect(seen[2]).toBe('Bearer forged.token.value');
    } finally {
      echo.close();
    }
  });
});

describe('a token that cannot be renewed once the one held expired', () => {
  it("leaves the requirement not judged (skipped, kind credentials), never failed and never the suite's error", async () => {
    const target = {
      ledger: { url: 'http://127.0.0.1:9' },
      fixtures: {},
      allowMutations: false,
      seed: 1,
      runs: 1,
      timeoutMs: 1000,
      maxRequests: 10,
      maxPages: 1,
      maxBodyBytes: 1024,
    };
    const parts = contextParts(target, {});
    // A source whose renewal fails: the provider went away after the held token expired.
    const failing = { current: () => Promise.reject(new Error('token endpoint: connect ECONNREFUSED')), latest: undefined, issued: () => false };
    Object.assign(parts.clients.ledger!.config, { bearerSource: failing });
    const r = {
      ...rule({ operations: [], cites: [], needs: [], tags: [], check: async (ctx) => void (await ctx.ledger.get('/v2/version')) }),
      id: 'TEST-RENEWAL',
      interface: 'ledger',
      kind: 'rule',
      level: 'MUST',
      section: '',
      sentence: '',
      mutates: false,
      definedIn: 'test',
    } as unknown as Requirement;
    const result = await runRequirement(r, parts);
    expect({ status: result.status, skipKind: result.skipKind }).toEqual({ status: 'skipped', skipKind: 'credentials' });
    expect(result.reason).toMatch(/^not judged: no bearer token for GET \/v2\/version, its renewal failed \(token endpoint: connect ECONNREFUSED\)/);
  });
});
