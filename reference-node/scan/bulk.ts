// POST /v0/history/bulk/updates and GET /v0/history/bulk/download/{object_key}.
// The world cuts the history into consecutive objects of a fixed number of updates; a range (start, end]
// maps to the run of objects holding its first and last update, so a page costs page_size objects however
// long the history is.
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { NodeContext } from '../context.ts';
import type { World } from '../world/world.ts';
import { badRequest, notFound } from './errors.ts';
import { bodyObject, integerField, pageSize, requiredField, stringField, timestamp } from './params.ts';

export const MAX_BULK_PAGE_SIZE = 1000;
const DOWNLOAD_PATH = '/v0/history/bulk/download/';

interface ObjectRef {
  key: string;
  digest: string;
}

/** Updates per object, and a bounded memo of object keys and digests (making an object's bytes is the cost). */
interface BulkGeometry {
  perObject: number;
  refs: Map<number, ObjectRef>;
}
const geometries = new WeakMap<World, BulkGeometry>();
const MEMO_LIMIT = 20_000;

function geometry(world: World): BulkGeometry {
  let g = geometries.get(world);
  if (!g) {
    const first = world.bulkObject(0);
    // Object 0 ends with the update just before the first update of object 1.
    g = { perObject: first ? Math.max(1, world.firstIndexAfter(first.toMicros)) : 1, refs: new Map() };
    geometries.set(world, g);
  }
  return g;
}

function objectRef(world: World, k: number): ObjectRef {
  const g = geometry(world);
  let ref = g.refs.get(k);
  if (!ref) {
    const obj = world.bulkObject(k)!;
    ref = { key: obj.key, digest: obj.digest };
    if (g.refs.size >= MEMO_LIMIT) g.refs.clear();
    g.refs.set(k, ref);
  }
  return ref;
}

const encodeToken = (k: number) => Buffer.from(`bulk:${k}`).toString('base64url');

function decodeToken(token: string): number {
  const m = /^bulk:(\d{1,12})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!m) throw badRequest(`Invalid next_page_token: ${token}`);
  return Number(m[1]);
}

function bulkUpdates(ctx: NodeContext, raw: unknown, base: string): Record<string, unknown> {
  const { world } = ctx;
  const body = bodyObject(raw);
  const start = timestamp(stringField(body, 'start_record_time', true), 'start_record_time');
  const end = timestamp(stringField(body, 'end_record_time', true), 'end_record_time');
  const size = ctx.faults.has('scan-bulk-page-size-unchecked')
    ? Math.max(1, integerField(body, 'page_size', true))
    : pageSize(requiredField(body, 'page_size'), 'page_size', MAX_BULK_PAGE_SIZE);
  if (end < start) throw badRequest('Invalid request: end_record_time is before start_record_time');
  const token = stringField(body, 'next_page_token', false);

  // Updates in (start, end]: from the first after start to the last at or before end.
  const firstUpdate = world.firstIndexAfter(start);
  const lastUpdate = world.firstIndexAfter(end) - 1;
  if (firstUpdate > lastUpdate) {
    if (token !== undefined) throw badRequest('Invalid next_page_token: the range holds no objects');
    return { object_refs: [] };
  }
  const { perObject } = geometry(world);
  const firstObject = Math.floor(firstUpdate / perObject);
  const lastObject = Math.floor(lastUpdate / perObject);
  let from = token === undefined ? firstObject : decodeToken(token);
  if (from < firstObject || from > lastObject) throw badRequest('Invalid next_page_token: it belongs to other arguments');
  // scan-bulk-token-skips-object: a page opened by a token starts one object late.
  if (token !== undefined && ctx.faults.has('scan-bulk-token-skips-object')) from = Math.min(lastObject, from + 1);
  const to = Math.min(lastObject, from + size - 1);

  const object_refs: Array<{ url: string; digest: string }> = [];
  for (let k = from; k <= to; k++) {
    const ref = objectRef(world, k);
    // scan-bulk-digest-mismatch: the digest of the bytes with one more newline than the object holds.
    const digest = ctx.faults.has('scan-bulk-digest-mismatch') ? createHash('sha256').update(world.bulkObject(k)!.bytes).update('\n').digest('hex') : ref.digest;
    object_refs.push({ url: `${base}/api/scan${DOWNLOAD_PATH}${encodeURIComponent(ref.key)}`, digest });
  }
  return to < lastObject ? { object_refs, next_page_token: encodeToken(to + 1) } : { object_refs };
}

export async function bulkRoutes(app: FastifyInstance, ctx: NodeContext): Promise<void> {
  app.post('/v0/history/bulk/updates', async (req) => bulkUpdates(ctx, req.body, `${req.protocol}://${req.host}`));

  // A wildcard, so a key with unescaped slashes finds its object as well as an escaped one.
  app.get(`${DOWNLOAD_PATH}*`, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    const obj = ctx.world.bulkObjectByKey(key);
    if (!obj) throw notFound(`Object ${key} not found`);
    return reply.type(ctx.faults.has('scan-bulk-download-json-type') ? 'application/json' : 'application/octet-stream').send(obj.bytes);
  });
}
