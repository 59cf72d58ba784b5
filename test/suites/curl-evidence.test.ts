// Curl lines of evidence run as pasted: the configured token is referenced as the environment variable the
// command line reads it from (never shown), and a forged or broken token, which is no secret, is shown as
// sent so that the failure it provoked reproduces.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envName } from '../../cli/config-layers.ts';
import { startReferenceNode, type RunningReferenceNode } from '../../reference-node/index.ts';
import { LIMITED_TOKEN_VARIABLE } from '../../engine/fixtures.ts';
import { summarise, type Exchange } from '../../engine/transport/http.ts';
import { contextParts, CREDENTIAL_VARIABLES } from '../../engine/target.ts';
import { referenceNodeTarget } from '../../runner/reference-target.ts';

let node: RunningReferenceNode;
beforeAll(async () => {
  node = await startReferenceNode({});
});
afterAll(async () => {
  await node?.close();
});

const clients = () => contextParts(referenceNodeTarget(node), {}).clients;

/** Runs a curl line in bash with the given environment; the HTTP status it got. */
async function paste(curl: string, env: Record<string, string> = {}): Promise<number> {
  const { stdout } = await promisify(execFile)('bash', ['-c', `${curl} -o /dev/null -w '%{http_code}'`], { env: { PATH: process.env.PATH, ...env } });
  return Number(stdout);
}

const ledgerRead = (auth?: { bearer: string; variable?: string }) =>
  clients().ledger!.post(
    '/v2/updates',
    {
      beginExclusive: 0,
      endInclusive: 1,
      updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' } },
    },
    auth ? { auth } : {},
  );

describe('curl lines', () => {
  it('name the variables the command line reads the credentials from', () => {
    expect(CREDENTIAL_VARIABLES.ledger.bearer).toBe(envName('ledgerToken'));
    expect(CREDENTIAL_VARIABLES.ledger.apiKey).toBe(envName('ledgerApiKey'));
    expect(CREDENTIAL_VARIABLES.wallet.bearer).toBe(envName('walletToken'));
  });

  it('refer to the configured token as $CN_CONFORMANCE_LEDGER_TOKEN and run as pasted once it is exported', async () => {
    const x: Exchange = await ledgerRead();
    expect(x.status).toBe(200);
    const { curl, request } = summarise(x);
    expect(curl).toContain(`-H "authorization: Bearer $CN_CONFORMANCE_LEDGER_TOKEN"`);
    expect(request.headers.authorization).toBe('Bearer $CN_CONFORMANCE_LEDGER_TOKEN');
    expect(curl).not.toContain(node.credentials.ledgerAdminToken);
    expect(await paste(curl, { CN_CONFORMANCE_LEDGER_TOKEN: node.credentials.ledgerAdminToken })).toBe(200);
    expect(await paste(curl)).toBe(401);
  });

  it('show a forged token as sent, so that the refusal it provoked reproduces with it', async () => {
    const [h, p] = node.credentials.ledgerAdminToken.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    const x = await ledgerRead({ bearer: forged });
    expect(x.status).toBe(401);
    const { curl } = summarise(x);
    expect(curl).toContain(`-H 'authorization: Bearer ${forged}'`);
    expect(await paste(curl, { CN_CONFORMANCE_LEDGER_TOKEN: node.credentials.ledgerAdminToken })).toBe(401);
  });

  it("refer to another user's real token by its variable", async () => {
    const x = await ledgerRead({ bearer: node.credentials.ledgerUserToken.token, variable: LIMITED_TOKEN_VARIABLE });
    const { curl } = summarise(x);
    expect(curl).toContain(`-H "authorization: Bearer $${LIMITED_TOKEN_VARIABLE}"`);
    expect(curl).not.toContain(node.credentials.ledgerUserToken.token);
    expect(await paste(curl, { [LIMITED_TOKEN_VARIABLE]: node.credentials.ledgerUserToken.token })).toBe(x.status);
  });

  it('of the wallet refer to $CN_CONFORMANCE_WALLET_TOKEN', async () => {
    const x = await clients().wallet!.post('/v0/wallet/transfer-offers/offer-created-1/status');
    expect(x.status).toBe(200);
    const { curl } = summarise(x);
    expect(curl).toContain(`-H "authorization: Bearer $CN_CONFORMANCE_WALLET_TOKEN"`);
    expect(await paste(curl, { CN_CONFORMANCE_WALLET_TOKEN: node.credentials.walletUsers[0]!.token })).toBe(200);
  });
});
