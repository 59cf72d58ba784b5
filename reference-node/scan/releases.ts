// The scan routes a Splice release has or not, from the description's Versioning sentences: X.versioning.9
// ("Introduction versions: holdings state v1 in 0.6.0; bulk download in 0.5.16; bulk updates listing in
// 0.5.18; v1 party participant ids in 0.5.17; previous reward weight in 0.6.9") and X.versioning.7 (the
// reward-accounting root hash path moved in 0.6.5). A node playing a release outside a route's
// [since, until) does not register it, so it answers as any unknown path (server.ts). Routes not listed here
// are served at every release.
import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { releaseBefore } from '../../common/releases.ts';
import type { NodeContext } from '../context.ts';

interface DatedRoute {
  /** operationId in the built-in document. */
  operation: string;
  method: 'GET' | 'POST';
  /** As the scan routes register it (under /api/scan, fastify's parameter syntax). */
  path: string;
  /** The first release serving it. */
  since?: string;
  /** The first release no longer serving it. */
  until?: string;
}

export const ROOT_HASH_PATH = '/v0/internal/reward-accounting-process/rounds/:round_number/root-hash';
export const OLD_ROOT_HASH_PATH = '/v0/reward-accounting-process/rounds/:round_number/root-hash';

const DATED_ROUTES: readonly DatedRoute[] = [
  { operation: 'getHoldingsStateV1', method: 'POST', path: '/v1/holdings/state', since: '0.6.0' },
  { operation: 'downloadBulkHistoryObject', method: 'GET', path: '/v0/history/bulk/download/*', since: '0.5.16' },
  { operation: 'listBulkHistoryUpdates', method: 'POST', path: '/v0/history/bulk/updates', since: '0.5.18' },
  { operation: 'getPartyToParticipantV1', method: 'GET', path: '/v1/domains/:domain_id/parties/:party_id/participant-id', since: '0.5.17' },
  { operation: 'getPreviousSvRewardWeight', method: 'POST', path: '/v0/admin/sv/previous-sv-reward-weight', since: '0.6.9' },
  { operation: 'getRewardAccountingRootHash', method: 'GET', path: ROOT_HASH_PATH, since: '0.6.5' },
  { operation: 'getRewardAccountingRootHash', method: 'GET', path: OLD_ROOT_HASH_PATH, until: '0.6.5' },
];

/** Whether the scan release the node plays has the route; true for a route the description does not date. */
export function scanServes(ctx: NodeContext, method: 'GET' | 'POST', path: string): boolean {
  const dated = DATED_ROUTES.find((r) => r.method === method && r.path === path);
  if (!dated) return true;
  if (dated.operation === 'getPreviousSvRewardWeight' && ctx.faults.has('scan-previous-reward-weight-unserved')) return false;
  if (dated.operation === 'getRewardAccountingRootHash' && ctx.faults.has('scan-root-hash-old-path')) return path === OLD_ROOT_HASH_PATH;
  const release = ctx.release.scan;
  return (
    (dated.since === undefined || releaseBefore(release, dated.since) === false) && (dated.until === undefined || releaseBefore(release, dated.until) === true)
  );
}

/** `app.get` and `app.post` for the dated routes: each registers its route only when the release played has it. */
export function datedRoutes(app: FastifyInstance, ctx: NodeContext) {
  return {
    get: (path: string, handler: RouteHandlerMethod) => void (scanServes(ctx, 'GET', path) && app.get(path, handler)),
    post: (path: string, handler: RouteHandlerMethod) => void (scanServes(ctx, 'POST', path) && app.post(path, handler)),
  };
}
