// A reference node that tests reach through fastify's inject, listening on no port: its context, server and
// test credentials.
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../../reference-node/context.ts';
import { testCredentials, type ReferenceNodeCredentials, type ReferenceNodeOptions } from '../../reference-node/index.ts';
import { buildContext, buildServer } from '../../reference-node/server.ts';

export interface InjectedNode {
  ctx: NodeContext;
  app: FastifyInstance;
  creds: ReferenceNodeCredentials;
}

export async function injectedNode(options: ReferenceNodeOptions = {}): Promise<InjectedNode> {
  const ctx = buildContext(options);
  return { ctx, app: await buildServer(ctx), creds: await testCredentials(ctx) };
}
