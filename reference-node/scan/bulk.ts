// POST /v0/history/bulk/updates and GET /v0/history/bulk/download/{object_key}.
// The world cuts the history into consecutive objects of a fixed number of updates; a range (start, end]
// maps to the run of objects holding its first and last update, so a page costs page_size objects however
// long the history is.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { JsonObject } from '../../common/json.ts';
import type { NodeContext } from '../context.ts';
import type { World } from '../world/world.ts';
import { badRequest, notFound } from './errors.ts';
import { bodyObject, integerField, pageSize, requiredField, stringField, timestamp } from './params.ts';
import { datedRoutes } from './releases.ts';

export const MAX_BULK_PAGE_SIZE = 1000;
const DOWNLOAD_PATH = '/v0/history/bulk/download/';

interface ObjectRef {
  key: string;
  digest: string;
}

const MEMO_LIMIT = 20_000;

/**
 * The node's view of its world's bulk objects: updates per object (measured on first use) and a bounded memo
 * of object keys and digests (making an object's bytes is the cost). One per node, made with its routes.
 */
class BulkObjects {
  private updatesPerObject: number | undefined;
  private readonly refs = new Map<number, ObjectRef>();

  constructor(private readonly world: World) {}

  get perObject(): number {
    if (this.updatesPerObject === undefined) {
      const first = this.world.bulkObject(0);
      // Object 0 ends with the update just before the first update of object 1.
      this.updatesPerObject = first ? Math.max(1, this.world.firstIndexAfter(first.toMicros)) : 1;
    }
    return this.updatesPerObject;
  }

  /** Key and digest of object number `k`. */
  ref(k: number): ObjectRef {
    let ref = this.refs.get(k);
    if (!ref) {
      const obj = this.world.bulkObject(k)!;
      ref = { key: obj.key, digest: obj.digest };
      if (this.refs.size >= MEMO_LIMIT) this.refs.clear();
      this.refs.set(k, ref);
    }
    return ref;
  }
}

const encodeToken = (k: number) => Buffer.from(`bulk:${k}`).toString('base64url');

function decodeToken(token: string): number {
  const m = /^bulk:(\d{1,12})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw badRequest(`Invalid next_page_token: ${token}`);
  return Number(m[1]);
}

function bulkUpdates(ctx: NodeContext, objects: BulkObjects, raw: unknown, base: string): JsonObject {
  const { world } = ctx;
  const body = bodyObject(raw);
  const start = timestamp(stringField(body, 'start_record_time', true), 'start_record_time');
  const end = timestamp(stringField(body, 'end_record_time', true), 'end_record_time');
  const size = ctx.faults.has('scan-bulk-page-size-unchecked')
    ? Math.max(1, integerField(body, 'page_size', true))
    : // scan-bulk-page-max-refused: the upper bound itself is refused.
      pageSize(requiredField(body, 'page_size'), 'page_size', MAX_BULK_PAGE_SIZE - (ctx.faults.has('scan-bulk-page-max-refused') ? 1 : 0));
  if (end < start) throw badRequest('Invalid request: end_record_time is before start_record_time');
  const token = stringField(body, 'next_page_token', false);

  // Updates in (start, end]: from the first after start to the last at or before end.
  const firstUpdate = world.firstIndexAfter(start);
  // scan-bulk-end-exclusive: an update recorded exactly at end_record_time is left out.
  const lastUpdate = world.firstIndexAfter(ctx.faults.has('scan-bulk-end-exclusive') ? end - 1 : end) - 1;
  if (firstUpdate > lastUpdate) {
    if (token !== undefined) throw badRequest('Invalid next_page_token: the range holds no objects');
    return { object_refs: [] };
  }
  const { perObject } = objects;
  const firstObject = Math.floor(firstUpdate / perObject);
  const lastObject = Math.floor(lastUpdate / perObject);
  let from = token === undefined ? firstObject : decodeToken(token);
  // scan-bulk-token-on-last-page: the last page carries a token, and the page it opens is empty.
  const tokenPastEnd = ctx.faults.has('scan-bulk-token-on-last-page');
  if (tokenPastEnd && from === lastObject + 1) return { object_refs: [] };
  if (from < firstObject || from > lastObject) throw badRequest('Invalid next_page_token: it belongs to other arguments');
  // scan-bulk-token-skips-object: a page opened by a token starts one object late.
  if (token !== undefined && ctx.faults.has('scan-bulk-token-skips-object')) from = Math.min(lastObject, from + 1);
  const to = Math.min(lastObject, from + size - 1);

  const object_refs: Array<{ url: string; digest: string }> = [];
  for (let k = from; k <= to; k++) {
    const ref = objects.ref(k);
    // scan-bulk-digest-mismatch: the digest of the bytes with one more newline than the object holds.
    const digest = ctx.faults.has('scan-bulk-digest-mismatch')
      ? createHash('sha256').update(world.bulkObject(k)!.bytes).update('\n').digest('hex')
      : ref.digest;
    object_refs.push({ url: `${base}/api/scan${DOWNLOAD_PATH}${encodeURIComponent(ref.key)}`, digest });
  }
  // scan-bulk-full-last-page-token-refused: a full last page carries a token too, whose page the check above refuses.
  const fullLast = to === lastObject && to - from + 1 === size && ctx.faults.has('scan-bulk-full-last-page-token-refused');
  return to < lastObject || tokenPastEnd || fullLast ? { object_refs, next_page_token: encodeToken(to + 1) } : { object_refs };
}

export async function bulkRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  const objects = new BulkObjects(ctx.world);
  const dated = datedRoutes(app, ctx);
  dated.post('/v0/history/bulk/updates', async (req) => bulkUpdates(ctx, objects, req.body, `${req.protocol}://${req.host}`));

  // A wildcard, so a key with unescaped slashes finds its object as well as an escaped one.
  dated.get(`${DOWNLOAD_PATH}*`, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const obj = ctx.world.bulkObjectByKey(key);
    if (!obj) throw notFound(`Object ${key} not found`);
    return reply.type(ctx.faults.has('scan-bulk-download-json-type') ? 'application/json' : 'application/octet-stream').send(obj.bytes);
  });
}
