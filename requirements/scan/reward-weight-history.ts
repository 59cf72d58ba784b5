// POST /v0/admin/sv/previous-sv-reward-weight against a known history of weight changes (fixture
// rewardWeightChanges): at, just after and between the changes' effective times, the answer is the weight of
// the latest change strictly before effectiveBefore, or absent before the first.
import fc from 'fast-check';
import type { Json } from '../../common/json.ts';
import type { Fixtures } from '../../engine/fixtures.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { plusMicros, timeNanos } from '../../interfaces/scan/common.ts';

type Change = NonNullable<Fixtures['rewardWeightChanges']>[number];

/** SVs probed, and changes per SV whose boundaries are probed (the newest ones). */
const SVS = 3;
const CHANGES = 4;
/** Weights compare as integers when they are integers ("1000" and "01000" are one weight). */
const sameWeight = (a: string, b: string) => (/^-?\d+$/.test(a) && /^-?\d+$/.test(b) ? BigInt(a) === BigInt(b) : a === b);

/** One effective time of an SV: its microseconds, a text of it, and its weight (undefined when two changes of
 *  that time name different weights, so which one is latest is not known). */
interface Step {
  micros: bigint;
  at: string;
  weight: string | undefined;
}

/** The SV's changes as steps in time order, or undefined when a time is not a whole microsecond (no ledger time). */
function stepsOf(changes: Change[]): Step[] | undefined {
  const byTime = new Map<bigint, Step>();
  for (const c of changes) {
    const ns = timeNanos(c.effectiveAt);
    if (ns === undefined || ns % 1000n !== 0n) return undefined;
    const known = byTime.get(ns / 1000n);
    if (known) known.weight = known.weight !== undefined && sameWeight(known.weight, c.weight) ? known.weight : undefined;
    else byTime.set(ns / 1000n, { micros: ns / 1000n, at: c.effectiveAt, weight: c.weight });
  }
  return [...byTime.values()].sort((a, b) => (a.micros < b.micros ? -1 : 1));
}

/** A probe: effectiveBefore `offset` microseconds after step `from`'s time, which must see the weight of step
 *  `from + (offset > 0 ? 0 : -1)`, or none before the first. */
interface Probe {
  steps: Step[];
  from: number;
  offset: bigint;
}

async function probe(ctx: CheckContext, sv: string, { steps, from, offset }: Probe): Promise<void> {
  const before = plusMicros(steps[from]!.at, Number(offset))!;
  const expected = offset > 0n ? steps[from] : steps[from - 1];
  // Two changes at one time: which is latest is not known, so any of their weights may be the answer.
  if (expected && expected.weight === undefined) return;
  const x = await ctx.scan.post('/v0/admin/sv/previous-sv-reward-weight', { svParty: sv, effectiveBefore: before });
  if (x.status === 400) ctx.skip(`the target does not accept effectiveBefore as an ISO 8601 timestamp (${before}: 400)`);
  const body = ctx.expect(x, `previous reward weight of ${sv} before ${before}`).status(200).object();
  // Its type is SCAN-REWARD-WEIGHT-STRING-OR-ABSENT's concern; here only which weight it is.
  const got: Json = typeof body.rewardWeight === 'number' ? String(body.rewardWeight) : body.rewardWeight;
  const where = offset === 0n ? 'exactly at' : `${offset} µs ${offset > 0n ? 'after' : 'before'}`;
  const what = `${sv}, effectiveBefore ${where} the change effective at ${steps[from]!.at}`;
  if (!expected) {
    if (got !== undefined)
      ctx.expect(x).fail(`${what} (its first): rewardWeight ${JSON.stringify(body.rewardWeight)}, but no change took effect strictly before`, '/rewardWeight');
    return;
  }
  if (typeof got !== 'string' || !sameWeight(got, expected.weight!))
    ctx
      .expect(x)
      .fail(
        `${what}: rewardWeight ${JSON.stringify(body.rewardWeight)}, expected ${JSON.stringify(expected.weight)} (the latest change strictly before, effective at ${expected.at})`,
        '/rewardWeight',
      );
}

export const REWARD_WEIGHT_HISTORY_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'scan', operations: ['getPreviousSvRewardWeight'] },
  [
    rule({
      id: 'SCAN-REWARD-WEIGHT-LATEST-STRICTLY-BEFORE',
      cites: ['C.reward-weight.2', 'C.reward-weight.4'],
      needs: ['rewardWeightChanges'],
      tags: ['rewards', 'time'],
      async check(ctx) {
        const bySv = new Map<string, Change[]>();
        for (const c of ctx.fixtures.rewardWeightChanges) bySv.set(c.svParty, [...(bySv.get(c.svParty) ?? []), c]);
        const svs = [...bySv].map(([sv, changes]) => ({ sv, steps: stepsOf(changes) })).filter((s) => s.steps?.length);
        if (!svs.length) ctx.skip('no reward-weight change of the fixture has an effective time of whole microseconds');
        const picked = svs.slice(0, SVS) as Array<{ sv: string; steps: Step[] }>;
        for (const { sv, steps } of picked) {
          // At each change's time it does not count yet; one microsecond before neither; one after it does.
          for (let i = Math.max(0, steps.length - CHANGES); i < steps.length; i++)
            for (const offset of [0n, -1n, 1n]) await probe(ctx, sv, { steps, from: i, offset });
        }
        // Between two changes (up to the later one's time, which is still strictly after): the earlier weight.
        const gaps = picked.flatMap(({ sv, steps }) => steps.slice(0, -1).map((s, i) => ({ sv, steps, from: i, span: steps[i + 1]!.micros - s.micros })));
        if (!gaps.length) return;
        const between = fc.constantFrom(...gaps).chain((g) => fc.bigInt({ min: 1n, max: g.span }).map((offset) => ({ ...g, offset })));
        await ctx.property(between, (p) => probe(ctx, p.sv, p), { runs: 6 });
      },
    }),
  ],
);
