// A real OpenID provider (the oidc-provider package) on loopback, issuing JWT access tokens to
// client-credentials clients for one audience (an RFC 8707 resource indicator), as an identity provider of
// a deployment does. Its token endpoint, discovery document and JWKS are the package's own, never mocked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface TestProvider {
  issuer: string;
  tokenUrl: string;
  jwksUri: string;
  /** Token requests the provider answered (successes and refusals). */
  readonly tokenRequests: number;
  close(): Promise<void>;
}

export interface ProviderOptions {
  clients: Array<{ id: string; secret: string }>;
  /** The one resource tokens may be asked for; tokens without a resource get it too. */
  audience: string;
  /** Lifetime of an access token (default 300 s). */
  ttlSeconds?: number;
}

/**
 * Starts the provider. `clients` may be given late (a function), for clients named after users of a node
 * that itself needs the issuer first.
 */
export async function startOpenIdProvider(
  options: ProviderOptions | (() => ProviderOptions),
  listening?: (issuer: string) => Promise<void>,
): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await listening?.(issuer);
  const { clients, audience, ttlSeconds = 300 } = typeof options === 'function' ? options() : options;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({ client_id: c.id, client_secret: c.secret, grant_types: ['client_credentials'], redirect_uris: [], response_types: [] })),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' }] },
    cookies: { keys: ['cn-conformance-test-cookies'] },
    ttl: { ClientCredentials: ttlSeconds },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== audience) throw new errors.InvalidTarget();
          return { scope: 'daml_ledger_api', audience: resource, accessTokenTTL: ttlSeconds, accessTokenFormat: 'jwt' };
        },
      },
    },
  });
  let tokenRequests = 0;
  provider.on('grant.success', () => tokenRequests++);
  provider.on('grant.error', () => tokenRequests++);
  server.on('request', provider.callback());
  return {
    issuer,
    tokenUrl: `${issuer}/token`,
    jwksUri: `${issuer}/jwks`,
    get tokenRequests() {
      return tokenRequests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
