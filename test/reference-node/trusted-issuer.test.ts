// The reference node trusting an OpenID provider, as a participant configured with its JWKS URL does: the
// provider's tokens for the node's audience are accepted (their subject is the user), any other is refused.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { ClientCredentialsToken } from '../../engine/transport/oauth.ts';
import { startOpenIdProvider, type TestProvider } from '../support/openid-provider.ts';

const AUDIENCE = 'https://daml.com/jwt/aud/participant/trusting-node';
let provider: TestProvider;
let node: RunningReferenceNode;
let other: RunningReferenceNode;

beforeAll(async () => {
  provider = await startOpenIdProvider({ clients: [{ id: 'ledger-admin', secret: 'the-secret' }], audience: AUDIENCE }, async (issuer) => {
    node = await startReferenceNode({ trustedIssuer: { issuer, jwksUri: `${issuer}/jwks`, audience: AUDIENCE } });
    other = await startReferenceNode({ trustedIssuer: { issuer, jwksUri: `${issuer}/jwks`, audience: 'https://daml.com/jwt/aud/participant/another' } });
  });
});
afterAll(async () => {
  await node?.close();
  await other?.close();
  await provider?.close();
});

const version = async (n: RunningReferenceNode, token: string) => {
  const res = await fetch(`${n.urls.ledger}/v2/authenticated-user`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.text() };
};

describe('a reference node trusting an OpenID provider', () => {
  it("accepts the provider's token for its audience, as the token's subject; refuses it at another audience", async () => {
    const token = await new ClientCredentialsToken(
      {
        tokenUrl: provider.tokenUrl,
        clientId: 'ledger-admin',
        clientSecret: 'the-secret',
        audience: AUDIENCE,
        from: { endpoint: '', clientId: '', clientSecret: '' },
      },
      { timeoutMs: 5_000 },
    ).current();
    const ok = await version(node, token);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).user.id).toBe('ledger-admin');
    const refused = await version(other, token);
    expect(refused.status).toBe(401);
    expect(refused.body).toContain('its aud claim is not accepted');
  });

  it("refuses a token claiming the provider as issuer but signed with a shared secret, and still accepts the node's own", async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(provider.issuer)
      .setAudience(AUDIENCE)
      .setSubject('ledger-admin')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-secret-anyone-could-pick-0123456789'));
    expect((await version(node, forged)).status).toBe(401);
    expect((await version(node, node.credentials.ledgerAdminToken)).status).toBe(200);
  });
});
