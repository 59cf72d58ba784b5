// GET /version of the scan and of the validator (Splice apps serve it beside their APIs; the description does
// not show it, the official documents do: `{version, commit_ts}`). The reference node plays the earliest
// release the description shows with everything it names: holdings v1 is deprecated since 0.7.5 in favour of
// v2, which that release therefore serves.
import type { FastifyInstance } from 'fastify';

export const SPLICE_RELEASE = '0.7.5';
const COMMIT_TS = '2026-01-15T00:00:00Z';

export async function spliceVersionRoute(app: FastifyInstance): Promise<void> {
  app.get('/version', async () => ({ version: SPLICE_RELEASE, commit_ts: COMMIT_TS }));
}
