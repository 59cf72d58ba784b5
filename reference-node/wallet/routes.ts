import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';

export async function walletRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  void app;
  void ctx;
}
