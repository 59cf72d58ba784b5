// Start the reference node in-process: `const node = await startReferenceNode({ faults: [...] })`.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from './context.ts';
import { buildContext, buildServer, type ReferenceNodeOptions } from './server.ts';

export interface ReferenceNodeCredentials {
  /** Bearer token of the ledger user that may read as every party. */
  ledgerAdminToken: string;
  /** Bearer token of a ledger user that may read as one party only. */
  ledgerUserToken: { token: string; user: string; readAs: string[] };
  /** Wallet users with their parties and bearer tokens. */
  walletUsers: Array<{ user: string; party: string; token: string }>;
}

export interface RunningReferenceNode {
  urls: { ledger: string; validator: string; scan: string };
  credentials: ReferenceNodeCredentials;
  context: NodeContext;
  server: FastifyInstance;
  close(): Promise<void>;
}

export async function startReferenceNode(options: ReferenceNodeOptions = {}): Promise<RunningReferenceNode> {
  const context = buildContext(options);
  const server = await buildServer(context);
  await server.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  const { port, address } = server.server.address() as AddressInfo;
  const base = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  return {
    urls: { ledger: base, validator: `${base}/api/validator`, scan: `${base}/api/scan` },
    credentials: await testCredentials(context),
    context,
    server,
    close: () => server.close(),
  };
}

export async function testCredentials(ctx: NodeContext): Promise<ReferenceNodeCredentials> {
  const limited = [...ctx.world.ledgerUsers].find(([, u]) => u.readAs !== 'any')!;
  return {
    ledgerAdminToken: await ctx.auth.issue('ledger-admin'),
    ledgerUserToken: { token: await ctx.auth.issue(limited[0]), user: limited[0], readAs: limited[1].readAs as string[] },
    walletUsers: await Promise.all([...ctx.world.walletUsers].map(async ([user, party]) => ({ user, party, token: await ctx.auth.issue(user) }))),
  };
}

export { FAULT_CATALOG, FaultSet } from './faults.ts';
export type { ReferenceNodeOptions } from './server.ts';
