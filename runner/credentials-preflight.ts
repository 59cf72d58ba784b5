// Before a run: the credentials must be accepted. A refused token is the user's configuration, not a rule the
// node broke; without this check every answer would be a 401 and the failures would blame the node. One
// read per interface that any valid token may make: the ledger's version, the wallet's status lookup of a
// tracking id nobody uses (a valid user gets 404), and the scan's DSO info when the scan is sent a token.
// Only 401 and 403 stop the run; anything else there is left for the requirements to judge. An OAuth2 token
// is obtained first, and a failure names its step: the issuer's discovery, the token endpoint, or the node.
import { randomUUID } from 'node:crypto';
import { type Client, RequestNotSent } from '../engine/transport/http.ts';
import { OAuthFailure } from '../engine/transport/oauth.ts';
import { CREDENTIAL_VARIABLES } from '../engine/target.ts';
import type { InterfaceName } from '../engine/model.ts';
import { UsageError } from './usage-error.ts';

/** Where each configured credential came from, e.g. "--ledger-token"; undefined when none was given. */
export type CredentialSources = Partial<Record<InterfaceName, string>>;

const HOW_TO_GIVE: Record<InterfaceName, string> = {
  ledger: `--ledger-token, --ledger-token-file, --ledger-api-key (or ${CREDENTIAL_VARIABLES.ledger.bearer}) or the --ledger-oauth-* client credentials`,
  wallet: `--wallet-token or --wallet-token-file (or ${CREDENTIAL_VARIABLES.wallet.bearer}) or the --wallet-oauth-* client credentials`,
  scan: 'the --scan-oauth-* client credentials',
};

/** Every interface's OAuth2 token, obtained before the first request that carries it. */
export async function obtainTokens(clients: Partial<Record<InterfaceName, Client>>): Promise<void> {
  for (const [name, client] of Object.entries(clients) as Array<[InterfaceName, Client]>) {
    const source = client.config.bearerSource;
    if (!source) continue;
    try {
      await source.current();
    } catch (e) {
      if (!(e instanceof OAuthFailure)) throw e;
      const step = e.step === 'discovery' ? 'OpenID discovery of the issuer' : 'token endpoint';
      throw new UsageError(`no ${name} token: the ${step} failed: ${e.message}; check ${e.setting}`);
    }
  }
}

export async function checkCredentials(clients: Partial<Record<InterfaceName, Client>>, sources: CredentialSources): Promise<void> {
  if (clients.ledger) judge('ledger', await sent('ledger', () => clients.ledger!.get('/v2/version', { unbudgeted: true }), sources.ledger), sources.ledger);
  if (clients.wallet) {
    const unused = `cn-conformance-preflight-${randomUUID()}`;
    const x = await sent('wallet', () => clients.wallet!.post(`/v0/wallet/transfer-offers/${unused}/status`, undefined, { unbudgeted: true }), sources.wallet);
    judge('wallet', x, sources.wallet);
  }
  // A scan is public: only a token given for it (a gateway in front) is checked.
  if (clients.scan?.config.credentials.bearer)
    judge('scan', await sent('scan', () => clients.scan!.get('/v0/dso', { unbudgeted: true }), sources.scan), sources.scan);
}

/** A request the HTTP client refuses to send carries what the user configured (a credential, a URL): a usage error. */
async function sent<T>(name: InterfaceName, send: () => Promise<T>, from: string | undefined): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (e instanceof RequestNotSent) throw new UsageError(`${e.message}; check the ${name} settings${from ? ` (the credential came from ${from})` : ''}`);
    throw e;
  }
}

function judge(name: InterfaceName, x: { status: number; method: string; url: string }, from: string | undefined): void {
  if (x.status !== 401 && x.status !== 403) return;
  const where = `${x.method} ${x.url}`;
  if (!from) throw new UsageError(`the ${name} interface refused a request without credentials (${x.status}) at ${where}: give ${HOW_TO_GIVE[name]}`);
  throw new UsageError(`the ${name} token was refused (${x.status}) by ${where}: check ${from}`);
}
