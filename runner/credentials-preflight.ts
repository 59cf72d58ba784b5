// Before a run: the credentials must be accepted. A refused token is the user's configuration, not a rule the
// node broke; without this check every answer would be a 401 and the failures would blame the node. One
// read per interface that any valid token may make: the ledger's version and the wallet's status lookup of
// a tracking id nobody uses (a valid user gets 404). Only 401 and 403 stop the run; anything else there is
// left for the requirements to judge.
import { randomUUID } from 'node:crypto';
import { type Client, RequestNotSent } from '../engine/transport/http.ts';
import { CREDENTIAL_VARIABLES } from '../engine/target.ts';
import { UsageError } from './usage-error.ts';

/** Where each configured credential came from, e.g. "--ledger-token"; undefined when none was given. */
export interface CredentialSources {
  ledger?: string;
  wallet?: string;
}

const HOW_TO_GIVE = {
  ledger: `--ledger-token, --ledger-token-file or --ledger-api-key (or ${CREDENTIAL_VARIABLES.ledger.bearer})`,
  wallet: `--wallet-token or --wallet-token-file (or ${CREDENTIAL_VARIABLES.wallet.bearer})`,
};

export async function checkCredentials(clients: { ledger?: Client; wallet?: Client }, sources: CredentialSources): Promise<void> {
  if (clients.ledger) judge('ledger', await sent('ledger', () => clients.ledger!.get('/v2/version', { unbudgeted: true }), sources.ledger), sources.ledger);
  if (clients.wallet) {
    const unused = `cn-conformance-preflight-${randomUUID()}`;
    const x = await sent('wallet', () => clients.wallet!.post(`/v0/wallet/transfer-offers/${unused}/status`, undefined, { unbudgeted: true }), sources.wallet);
    judge('wallet', x, sources.wallet);
  }
}

/** A request the HTTP client refuses to send carries what the user configured (a credential, a URL): a usage error. */
async function sent<T>(name: 'ledger' | 'wallet', send: () => Promise<T>, from: string | undefined): Promise<T> {
  try {
    return await send();
  } catch (e) {
    if (e instanceof RequestNotSent) throw new UsageError(`${e.message}; check the ${name} settings${from ? ` (the credential came from ${from})` : ''}`);
    throw e;
  }
}

function judge(name: 'ledger' | 'wallet', x: { status: number; method: string; url: string }, from: string | undefined): void {
  if (x.status !== 401 && x.status !== 403) return;
  const where = `${x.method} ${x.url}`;
  if (!from) throw new UsageError(`the ${name} interface refused a request without credentials (${x.status}) at ${where}: give ${HOW_TO_GIVE[name]}`);
  throw new UsageError(`the ${name} token was refused (${x.status}) by ${where}: check ${from}`);
}
