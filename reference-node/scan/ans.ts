// GET /v0/ans-entries: non-expired name-service entries whose name starts with the prefix, oldest first,
// at most page_size of them. Entries the operator provides for itself never expire and have no contract id.
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { AnsEntryRecord } from '../world/model.ts';
import { isoMicros } from '../world/time.ts';
import { badRequest } from './errors.ts';
import { int32Text, singleQuery } from './params.ts';

/** The page size of the scan-ans-page-size-defaulted fault. */
const DEFAULT_PAGE_SIZE = 20;

function renderEntry(e: AnsEntryRecord, ctx: NodeContext): JsonObject {
  // scan-ans-special-entry-contract-id: special entries get a contract id made from their name.
  const contractId = e.contractId ?? (ctx.faults.has('scan-ans-special-entry-contract-id') ? `00${Buffer.from(e.name).toString('hex')}` : undefined);
  return {
    ...(contractId !== undefined ? { contract_id: contractId } : {}),
    user: e.user,
    name: e.name,
    url: e.url,
    description: e.description,
    ...(e.expiresAtMicros !== undefined ? { expires_at: isoMicros(e.expiresAtMicros) } : {}),
  };
}

/** scan-ans-prefix-case-folded: the prefix is matched regardless of letter case. */
const startsWith = (name: string, prefix: string, folded: boolean) => (folded ? name.toLowerCase().startsWith(prefix.toLowerCase()) : name.startsWith(prefix));

export async function ansRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.get('/v0/ans-entries', async (req) => {
    const sizeText = singleQuery(req.query, 'page_size');
    // scan-ans-page-size-defaulted: what does not read as an int32 becomes the default page size.
    const defaulted =
      ctx.faults.has('scan-ans-page-size-defaulted') && (sizeText === undefined || !/^-?\d{1,10}$/.test(sizeText) || Math.abs(Number(sizeText)) >= 2 ** 31);
    if (sizeText === undefined && !defaulted) throw badRequest('Missing query parameter page_size');
    const size = defaulted ? DEFAULT_PAGE_SIZE : int32Text(sizeText!, 'page_size');
    if (size < 1) throw badRequest(`Invalid page_size: ${size} (must be at least 1)`);
    const given = singleQuery(req.query, 'name_prefix');
    const prefix = given ?? '';
    // scan-ans-empty-prefix-none: an empty prefix (not an absent one) keeps the special entries only.
    const emptyHides = given === '' && ctx.faults.has('scan-ans-empty-prefix-none');
    // scan-ans-prefix-lists-none: a non-empty prefix finds nothing.
    if (prefix !== '' && ctx.faults.has('scan-ans-prefix-lists-none')) return { entries: [] };
    const now = ctx.clock.now();
    // scan-ans-expiry-grace-hour: an entry stays listed for an hour after it expired.
    const grace = ctx.faults.has('scan-ans-expiry-grace-hour') ? 3_600_000_000 : 0;

    const matching = ctx.world.ansEntries
      .filter((e) => ctx.faults.has('scan-ans-prefix-ignored') || startsWith(e.name, prefix, ctx.faults.has('scan-ans-prefix-case-folded')))
      .filter((e) => ctx.faults.has('scan-ans-expired-listed') || e.expiresAtMicros === undefined || e.expiresAtMicros + grace > now)
      .filter((e) => !emptyHides || e.contractId === undefined)
      .sort((a, b) => a.createdAtMicros - b.createdAtMicros);
    // scan-ans-page-newest: a page smaller than the matches holds the newest of them, not the oldest.
    const newest = ctx.faults.has('scan-ans-page-newest') && size < matching.length;
    const entries = (newest ? matching.slice(-size) : matching.slice(0, size + (ctx.faults.has('scan-ans-too-many') ? 1 : 0))).map((e) => renderEntry(e, ctx));
    // scan-ans-bad-url: the first entry's url uses a scheme other than http/https.
    if (ctx.faults.has('scan-ans-bad-url') && entries[0]) entries[0].url = `ftp://${entries[0].name}`;
    // scan-ans-prefixed-bad-url: with a name_prefix, the last entry's url uses another scheme (the full list is right).
    const last = entries.at(-1);
    if (ctx.faults.has('scan-ans-prefixed-bad-url') && prefix !== '' && last) last.url = `ftp://${last.name}`;
    return { entries };
  });
}
