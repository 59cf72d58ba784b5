// --offset-shift: the same network with every offset on the wire N higher, read back in that numbering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../../common/json.ts';
import { injectedNode, type InjectedNode } from '../support/injected-node.ts';

const SHIFT = 1000;
let plain: InjectedNode;
let shifted: InjectedNode;

beforeAll(async () => {
  [plain, shifted] = await Promise.all([injectedNode({ defaultIdleTimeoutMs: 1 }), injectedNode({ defaultIdleTimeoutMs: 1, offsetShift: SHIFT })]);
});
afterAll(async () => {
  await plain?.app.close();
  await shifted?.app.close();
});

async function call(node: InjectedNode, method: 'GET' | 'POST', url: string, body?: object): Promise<Json> {
  const res = await node.app.inject({ method, url, headers: { authorization: `Bearer ${node.creds.ledgerAdminToken}` }, ...(body ? { payload: body } : {}) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const window = (beginExclusive: number, endInclusive: number) => ({
  beginExclusive,
  endInclusive,
  updateFormat: { includeTransactions: { eventFormat: { filtersForAnyParty: {}, verbose: false }, transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS' } },
});

/** Every `offset` number of a JSON value, moved down by `by`. */
const unshift = (v: Json, by: number): Json => JSON.parse(JSON.stringify(v, (k, x) => (k === 'offset' && typeof x === 'number' ? x - by : x)));

describe('offset shift', () => {
  it('the ledger end and the stream are the same network, every offset moved up', async () => {
    const end = (await call(plain, 'GET', '/v2/state/ledger-end')).offset as number;
    expect((await call(shifted, 'GET', '/v2/state/ledger-end')).offset).toBe(end + SHIFT);
    const first = await call(plain, 'POST', '/v2/updates?limit=5', window(0, end));
    const moved = await call(shifted, 'POST', '/v2/updates?limit=5', window(0, end + SHIFT));
    expect(moved).not.toEqual(first);
    expect(unshift(moved, SHIFT)).toEqual(first);
    // A window asked in the shifted numbering is the same window.
    const at = first[2].update.Transaction?.value.offset ?? first[2].update.OffsetCheckpoint.value.offset;
    expect(unshift(await call(shifted, 'POST', '/v2/updates?limit=3', window(at + SHIFT, end + SHIFT)), SHIFT)).toEqual(
      await call(plain, 'POST', '/v2/updates?limit=3', window(at, end)),
    );
    expect(await call(shifted, 'GET', '/v2/state/latest-pruned-offsets')).toEqual(await call(plain, 'GET', '/v2/state/latest-pruned-offsets'));
  });

  it("scan's update history offsets move, its ids and times do not", async () => {
    const id = plain.ctx.world.updateId(3);
    const a = await call(plain, 'GET', `/api/scan/v0/updates/${id}`);
    const b = await call(shifted, 'GET', `/api/scan/v0/updates/${id}`);
    expect(BigInt(b.offset) - BigInt(a.offset)).toBe(BigInt(SHIFT));
    expect(b.offset).toHaveLength(a.offset.length);
    expect({ ...b, offset: a.offset }).toEqual(a);
  });
});
