// GET /version of the scan and of the validator (Splice apps serve it beside their APIs; the description does
// not show it, the official documents do: `{version, commit_ts}`). By default the reference node plays the
// earliest release the description shows with everything it names: holdings v1 is deprecated since 0.7.5 in
// favour of v2, which that release therefore serves. The scan may play an older one (releases.ts).
import type { FastifyInstance } from 'fastify';

export const SPLICE_RELEASE = '0.7.5';
const COMMIT_TS = '2026-01-15T00:00:00Z';

/** `version`: the release this app states. */
export async function spliceVersionRoute(app: FastifyInstance, { version }: { version: string }): Promise<void> {
  app.get('/version', async () => ({ version, commit_ts: COMMIT_TS }));
}
