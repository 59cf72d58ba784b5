// GET /version of the scan and of the validator (Splice apps serve it beside their APIs; the description does
// not show it, the official documents do: `{version, commit_ts}`). The reference node plays the earliest
// release that has everything the description names: holdings v2 came with 0.7.5.
import type { FastifyInstance } from 'fastify';

export const SPLICE_RELEASE = '0.7.5';
const COMMIT_TS = '2026-01-15T00:00:00Z';

export async function spliceVersionRoute(app: FastifyInstance): Promise<void> {
  app.get('/version', async () => ({ version: SPLICE_RELEASE, commit_ts: COMMIT_TS }));
}
