// The reference node's paged scan history (POST /v2/updates, POST /v0/events): a walk from the start visits
// every item exactly once in (migration id, record time) order, each item as the by-id route renders it; the
// rejected verdicts appear only in the event history; malformed bodies are answered 400.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json as AnyJson } from '../../common/json.ts';
import type { NodeContext } from '../../reference-node/context.ts';
import { buildContext, buildServer } from '../../reference-node/server.ts';
import { isoMicros } from '../../reference-node/world/time.ts';

type Json = Record<string, AnyJson>;

let ctx: NodeContext;
let app: FastifyInstance;
beforeAll(async () => {
  // A tenth of the bulk segment: both migrations, the rejected verdicts and some bulk updates, quickly.
  ctx = buildContext({ seed: 5, scale: 0.1 });
  app = await buildServer(ctx);
});
afterAll(() => app?.close());

const post = async (path: string, body: unknown, node = app) => {
  const res = await node.inject({ method: 'POST', url: `/api/scan${path}`, ...(body === undefined ? {} : { payload: body as Json }) });
  return { status: res.statusCode, json: () => res.json() as Json };
};
const get = async (path: string, node = app) => (await node.inject({ method: 'GET', url: `/api/scan${path}` })).json() as Json;

/** The history straight from the world: scan updates and rejected verdicts by (migration id, record time). */
function expectedHistory(withVerdicts: boolean): string[] {
  const w = ctx.world;
  const entries: Array<{ id: string; m: number; t: number }> = [];
  for (let i = 0; i < w.count; i++) {
    const u = w.getUpdate(i);
    if (u.kind !== 'topology') entries.push({ id: u.updateId, m: u.migrationId, t: u.recordTimeMicros });
  }
  if (withVerdicts) for (const v of w.rejectedVerdicts) entries.push({ id: v.updateId, m: v.migrationId, t: v.recordTimeMicros });
  return entries.sort((a, b) => a.m - b.m || a.t - b.t).map((e) => e.id);
}

/** The `after` position of a page's last item: an update's, or a verdict-only item's verdict. */
function positionOf(update: Json | undefined, verdict?: Json): Json {
  if (update) return { after_migration_id: update.migration_id ?? update.event.migration_id, after_record_time: update.record_time };
  return { after_migration_id: verdict!.migration_id, after_record_time: verdict!.record_time };
}

async function walk(path: '/v2/updates' | '/v0/events', pageSize: number, extra: Json = {}, node = app): Promise<{ items: Json[]; pages: number }> {
  const key = path === '/v2/updates' ? 'transactions' : 'events';
  const items: Json[] = [];
  let after: Json | undefined;
  for (let pages = 1; pages <= ctx.world.count + 10; pages++) {
    const res = await post(path, { page_size: pageSize, ...extra, ...(after ? { after } : {}) }, node);
    expect(res.status).toBe(200);
    const page = res.json()[key] as Json[];
    expect(page.length).toBeLessThanOrEqual(pageSize);
    items.push(...page);
    if (page.length < pageSize) return { items, pages };
    const last = page.at(-1)!;
    after = key === 'transactions' ? positionOf(last) : positionOf(last.update, last.verdict);
  }
  throw new Error(`${path}: the walk did not end`);
}

const eventId = (item: Json): string => item.update?.update_id ?? item.verdict.update_id;

describe('POST /v2/updates', () => {
  it('walks the update history exactly once in order, each item as GET /v2/updates/{id} renders it', async () => {
    const expected = expectedHistory(false);
    const { items, pages } = await walk('/v2/updates', 7);
    expect(items.map((i) => i.update_id)).toEqual(expected);
    expect(pages).toBe(Math.floor(expected.length / 7) + 1);
    for (const item of items) expect(item).toEqual(await get(`/v2/updates/${item.update_id}`));
    // Reassignments are part of it; the rejected verdicts are not.
    expect(items.some((i) => i.event !== undefined)).toBe(true);
    for (const v of ctx.world.rejectedVerdicts) expect(expected).not.toContain(v.updateId);
  });

  it('orders by migration id first, and an after past the end gives an empty page', async () => {
    const w = ctx.world;
    const farFuture = isoMicros(w.recordTimeMicros(w.count - 1) + 1e12);
    const fromMigration1 = (await post('/v2/updates', { page_size: 1, after: { after_migration_id: 0, after_record_time: farFuture } })).json();
    const first1 = expectedHistory(false).find((id) => w.getUpdate(w.indexOfUpdateId(id)!).migrationId === 1);
    expect((fromMigration1.transactions as Json[]).map((t) => t.update_id)).toEqual([first1]);
    const end = (await post('/v2/updates', { page_size: 5, after: { after_migration_id: 1, after_record_time: farFuture } })).json();
    expect(end).toEqual({ transactions: [] });
  });
});

describe('POST /v0/events', () => {
  it('walks the event history exactly once in order, verdict-only items included, each item as GET /v0/events/{id} renders it', async () => {
    const expected = expectedHistory(true);
    // Page size 1: every item, the verdict-only ones too, ends a page and opens the next.
    const { items } = await walk('/v0/events', 1);
    expect(items.map(eventId)).toEqual(expected);
    for (const item of items) expect(item).toEqual(await get(`/v0/events/${eventId(item)}`));
    const verdictOnly = items.filter((i) => i.update === undefined).map((i) => i.verdict.update_id);
    expect(verdictOnly).toEqual(
      ctx.world.rejectedVerdicts
        .slice()
        .sort((a, b) => a.recordTimeMicros - b.recordTimeMicros)
        .map((v) => v.updateId),
    );
  });

  it('renders protobuf_json items as the by-id route does with the same encoding', async () => {
    const { items } = await walk('/v0/events', 250, { daml_value_encoding: 'protobuf_json' });
    expect(items.map(eventId)).toEqual(expectedHistory(true));
    for (const item of items.slice(0, 40)) expect(item).toEqual(await get(`/v0/events/${eventId(item)}?daml_value_encoding=protobuf_json`));
  });
});

describe('rendering faults', () => {
  it('reach the list items as they reach the by-id renderings, and the walk still ends', async () => {
    const faults = ['scan-record-time-format', 'scan-events-update-record-time-nanos', 'scan-v2-updates-dangling-root', 'scan-events-null-update'];
    const faulty = await buildServer(buildContext({ seed: 5, scale: 0.1, faults }));
    try {
      const updates = await walk('/v2/updates', 60, {}, faulty);
      expect(updates.items.map((i) => i.update_id)).toEqual(expectedHistory(false));
      for (const item of updates.items.slice(0, 30)) expect(item).toEqual(await get(`/v2/updates/${item.update_id}`, faulty));
      const events = await walk('/v0/events', 60, {}, faulty);
      expect(events.items.map(eventId)).toEqual(expectedHistory(true));
      for (const item of events.items.slice(0, 30)) expect(item).toEqual(await get(`/v0/events/${eventId(item)}`, faulty));
      expect(events.items.filter((i) => i.update === null)).toHaveLength(ctx.world.rejectedVerdicts.length);
    } finally {
      await faulty.close();
    }
  });
});

describe('malformed list requests', () => {
  const at = { after_migration_id: 1, after_record_time: isoMicros(Date.UTC(2025, 0, 6, 9, 1) * 1000) };
  const bad: Array<[string, unknown]> = [
    ['no body', undefined],
    ['a body that is no object', [1]],
    ['no page_size', {}],
    ['page_size 0', { page_size: 0 }],
    ['page_size above the maximum', { page_size: 1001 }],
    ['page_size as text', { page_size: '10' }],
    ['a fractional page_size', { page_size: 1.5 }],
    ['after that is no object', { page_size: 5, after: 'x' }],
    ['after without a record time', { page_size: 5, after: { after_migration_id: 1 } }],
    ['after without a migration id', { page_size: 5, after: { after_record_time: at.after_record_time } }],
    ['a migration id as text', { page_size: 5, after: { ...at, after_migration_id: '1' } }],
    ['a record time that is no timestamp', { page_size: 5, after: { ...at, after_record_time: 'yesterday' } }],
    ['an unknown daml_value_encoding', { page_size: 5, daml_value_encoding: 'yaml' }],
  ];
  for (const path of ['/v2/updates', '/v0/events']) {
    it(`${path} answers 400 {error}`, async () => {
      for (const [what, body] of bad) {
        const res = await post(path, body);
        expect(res.status, what).toBe(400);
        expect(typeof res.json().error, what).toBe('string');
      }
      expect((await post(path, { page_size: 1000, after: at })).status).toBe(200);
    });
  }
});
