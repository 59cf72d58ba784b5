// A deployment as real ones are set up, for the command line's tests: the reference node behind a TLS
// terminator that requires a client certificate (mutual TLS), its ledger and wallet tokens issued by a
// real OpenID provider to client-credentials clients (the node trusts the provider's JWKS for its
// audience), and the full set of settings a run against it takes, any of which a test may change.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { cliInProcess, type CliOutcome } from './cli-in-process.ts';
import { startOpenIdProvider, type TestProvider } from './openid-provider.ts';
import { makePki, startTlsFront, type TestPki, type TlsFront } from './tls-front.ts';

export const AUDIENCE = 'https://daml.com/jwt/aud/participant/cn-conformance-test';
export const LEDGER_SECRET = 'ledger-admin-client-secret-7f3a';
export const WALLET_SECRET = 'wallet-user-client-secret-91bc';
export const GATEWAY_KEY = 'gateway-key-5e0d1c2b';
/** Requirements that use each interface with its token, two of them forging the token's signature. */
export const ONLY = [
  'LEDGER-VERSION-STATED',
  'LEDGER-UPDATES-AUTH-REQUIRED',
  'WALLET-AUTH-STATUS-REQUIRES-TOKEN',
  'GENERIC-SCAN-GET-FEATURE-SUPPORT-RESPONSES',
];

export interface Deployment {
  pki: TestPki;
  node: RunningReferenceNode;
  provider: TestProvider;
  front: TlsFront;
  walletUser: string;
  ledgerSecretFile: string;
  /**
   * `run` against the deployment with every setting, `change` applied (a flag's new value, or undefined to
   * leave it out); the wallet's client secret comes from the environment, no proxy unless `env` sets one.
   */
  run(change?: Record<string, string | undefined>, env?: Record<string, string | undefined>): Promise<CliOutcome & { dir: string }>;
  close(): Promise<void>;
}

/** `faults`: the reference node's (see `serve-reference --list-faults`). */
export async function startDeployment(faults: string[] = []): Promise<Deployment> {
  const pki = makePki();
  const ledgerSecretFile = join(pki.dir, 'ledger-secret');
  writeFileSync(ledgerSecretFile, `${LEDGER_SECRET}\n`);
  let node: RunningReferenceNode | undefined;
  let walletUser = '';
  const provider = await startOpenIdProvider(
    () => ({
      clients: [
        { id: 'ledger-admin', secret: LEDGER_SECRET },
        { id: walletUser, secret: WALLET_SECRET },
        // A client the provider knows and the node does not (no user of its).
        { id: 'stranger', secret: LEDGER_SECRET },
      ],
      audience: AUDIENCE,
    }),
    async (issuer) => {
      node = await startReferenceNode({ faults, trustedIssuer: { issuer, jwksUri: `${issuer}/jwks`, audience: AUDIENCE } });
      walletUser = node.credentials.walletUsers[0]!.user;
    },
  );
  const front = await startTlsFront(node!.urls.ledger, pki, { requireClientCert: true });
  const args = (dir: string, change: Record<string, string | undefined>) => {
    const settings: Record<string, string | undefined> = {
      '--ledger-url': front.url,
      '--wallet-url': `${front.url}/api/validator`,
      '--scan-url': `${front.url}/api/scan`,
      '--ca-file': pki.caFile,
      '--client-cert': pki.clientCert,
      '--client-key': pki.clientKey,
      '--ledger-oauth-issuer': provider.issuer,
      '--ledger-oauth-client-id': 'ledger-admin',
      '--ledger-oauth-client-secret-file': ledgerSecretFile,
      '--ledger-oauth-audience': AUDIENCE,
      '--wallet-oauth-token-url': provider.tokenUrl,
      '--wallet-oauth-client-id': walletUser,
      '--wallet-oauth-audience': AUDIENCE,
      '--header': `X-Gateway-Key: ${GATEWAY_KEY}`,
      '--timeout-ms': '5000',
      ...change,
    };
    const out = ['run', '--report-dir', dir, '--runs', '1', '--no-allure', ...ONLY.flatMap((id) => ['--only', id])];
    for (const [flag, value] of Object.entries(settings)) if (value !== undefined) out.push(flag, value);
    return out;
  };
  const noProxy = { HTTPS_PROXY: undefined, HTTP_PROXY: undefined, https_proxy: undefined, http_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };
  return {
    pki,
    node: node!,
    provider,
    front,
    walletUser,
    ledgerSecretFile,
    async run(change = {}, env = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'cn-access-'));
      const outcome = await cliInProcess(args(dir, change), { CN_CONFORMANCE_WALLET_OAUTH_CLIENT_SECRET: WALLET_SECRET, ...noProxy, ...env });
      return { ...outcome, dir };
    },
    async close() {
      await front.close();
      await provider.close();
      await node?.close();
    },
  };
}
