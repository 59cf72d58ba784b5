// What a node's stated release makes of an operation it does not serve (engine/release-applicability.ts): not
// applicable before the release that introduced it, a failure from that release on, and nothing of either
// when the node states no release or the operation is undated; only an answer no handler of the operation
// gives counts as missing (engine/served.ts certainlyAbsent).
import { describe, expect, it } from 'vitest';
import { unservedByRelease } from '../../engine/release-applicability.ts';
import { certainlyAbsent } from '../../engine/served.ts';
import type { OperationSpec } from '../../generators/index.ts';

const scan = (version: string) => ({ scan: { version, request: 'GET http://scan/api/scan/version' } });

describe("an unserved operation and the node's release", () => {
  it('is not applicable before the release that introduced it, and owed from that release on', () => {
    expect(unservedByRelease('getHoldingsStateV1', scan('0.5.13'))).toEqual({
      applies: false,
      reason: 'not applicable: getHoldingsStateV1 came in 0.6.0, and the scan states release 0.5.13 (GET http://scan/api/scan/version)',
    });
    expect(unservedByRelease('getHoldingsStateV1', scan('0.6.0'))?.applies).toBe(true);
    expect(unservedByRelease('getPreviousSvRewardWeight', scan('0.6.8'))?.applies).toBe(false);
    expect(unservedByRelease('getPreviousSvRewardWeight', scan('v0.6.10-rc1'))?.applies).toBe(true);
    expect(unservedByRelease('getCommandCompletions', { ledger: { version: '3.4.9', request: 'GET /v2/version' } })?.applies).toBe(false);
    expect(unservedByRelease('getCommandCompletions', { ledger: { version: '3.5.0', request: 'GET /v2/version' } })?.applies).toBe(true);
  });

  it('says nothing of an undated operation, a node that states no release, or one that states no release number', () => {
    expect(unservedByRelease('getUpdateByIdV2', scan('0.5.5'))).toBeUndefined();
    expect(unservedByRelease('getHoldingsStateV1', {})).toBeUndefined();
    expect(unservedByRelease('getHoldingsStateV1', undefined)).toBeUndefined();
    expect(unservedByRelease('getHoldingsStateV1', scan('main-snapshot'))).toBeUndefined();
  });

  it('counts as certainly absent only a 405, or a 404 of an operation that documents none', () => {
    const op = (...statuses: string[]) => ({ responses: statuses.map((status) => ({ status, description: '', content: [] })) }) as unknown as OperationSpec;
    expect(certainlyAbsent(op('200', '400', 'default'), { status: 404 })).toBe(true);
    expect(certainlyAbsent(op('200', '404'), { status: 404 })).toBe(false);
    expect(certainlyAbsent(op('200', '4XX'), { status: 404 })).toBe(false);
    expect(certainlyAbsent(op('200', '404'), { status: 405 })).toBe(true);
    expect(certainlyAbsent(op('200'), { status: 501 })).toBe(false);
  });
});
