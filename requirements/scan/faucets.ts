// GET /v0/validators/validator-faucets: the round arithmetic of each record, unknown ids ignored, and an
// answer that does not depend on the order of the arguments.
import fc from 'fast-check';
import { isObject, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { exactIntegers, isInt64 } from '../../engine/int64.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { acceptedObject } from '../../interfaces/scan/common.ts';

const OP = 'getValidatorFaucetsByValidator';
const UNKNOWN_VALIDATOR = 'no-such-validator::1220' + '0'.repeat(64);

/**
 * The faucets of `ids`: onboarded validators (fixtures.validatorIds; discovery: the validator licenses), and
 * unknown ids where a rule adds them. `positive`: the answer is judged as the positive request's (ctx.accepted).
 */
async function faucets(ctx: CheckContext, ids: string[], positive = false): Promise<{ x: Exchange; records: Json[] }> {
  const x = await ctx.scan.get('/v0/validators/validator-faucets', { query: { validator_ids: ids } });
  const why = `the faucets of ${ids.length === 1 ? 'the validator' : `${ids.length} validators`} ${ids.join(', ')} (fixtures.validatorIds: onboarded validators; discovery: the validator licenses)`;
  const body = positive ? acceptedObject(ctx, x, why) : ctx.expect(x, why).status(200).object();
  if (!Array.isArray(body.validatorsReceivedFaucets)) ctx.expect(x).fail('validatorsReceivedFaucets is not an array', '/validatorsReceivedFaucets');
  return { x, records: body.validatorsReceivedFaucets };
}

/** The records keyed by validator, so answers are compared whatever their order. */
const byValidator = (records: Json[]) =>
  Object.fromEntries(
    records
      .filter(isObject)
      .map((r): [string, string] => [String(r.validator), JSON.stringify(r)])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  );

const arithmetic = rule({
  id: 'SCAN-FAUCETS-ROUND-ARITHMETIC',
  cites: ['R.scan.37', 'R.scan.38', 'C.faucets.3'],
  needs: ['validatorIds'],
  tags: ['validators'],
  confirms: OP,
  async check(ctx) {
    const { x, records } = await faucets(ctx, ctx.fixtures.validatorIds, true);
    for (const [k, r] of records.entries()) {
      const f = ['numRoundsCollected', 'numRoundsMissed', 'firstCollectedInRound', 'lastCollectedInRound'];
      if (!isObject(r) || !f.every((n) => isInt64(r[n])))
        ctx.expect(x).fail(`validatorsReceivedFaucets[${k}] lacks one of the integer fields ${f.join(', ')}`, `/validatorsReceivedFaucets/${k}`);
      const { numRoundsCollected: c, numRoundsMissed: m, firstCollectedInRound: first, lastCollectedInRound: last } = r;
      if (c < 0 || m < 0 || first < 0 || last < 0)
        ctx.expect(x).fail(`${r.validator}: round counts and round numbers must not be negative`, `/validatorsReceivedFaucets/${k}`);
      if (first > last)
        ctx.expect(x).fail(`${r.validator}: firstCollectedInRound ${first} is after lastCollectedInRound ${last}`, `/validatorsReceivedFaucets/${k}`);
      if (!exactIntegers(c, m, first, last)) continue; // beyond 2^53 the sum cannot be computed exactly (engine/int64.ts)
      // One round collected is one collection round: the sum alone passes last = first + 1 with one round missed.
      if (c === 1 && first !== last)
        ctx
          .expect(x)
          .fail(
            `${r.validator}: numRoundsCollected is 1 (a single round), but firstCollectedInRound ${first} is not lastCollectedInRound ${last}`,
            `/validatorsReceivedFaucets/${k}/lastCollectedInRound`,
          );
      // A validator that never collected (real nodes report all four counters 0) has no rounds to add up.
      if (c === 0) continue;
      if (c + m !== last - first + 1)
        ctx
          .expect(x)
          .fail(
            `${r.validator}: numRoundsCollected ${c} + numRoundsMissed ${m} = ${c + m}, but lastCollectedInRound - firstCollectedInRound + 1 = ${last - first + 1}`,
            `/validatorsReceivedFaucets/${k}`,
          );
    }
  },
});

const unknownIgnored = rule({
  id: 'SCAN-FAUCETS-UNKNOWN-IGNORED',
  cites: ['C.faucets.2'],
  needs: ['validatorIds'],
  tags: ['validators'],
  async check(ctx) {
    const ids = ctx.fixtures.validatorIds;
    const plain = await faucets(ctx, ids);
    const mixed = await faucets(ctx, [...ids, UNKNOWN_VALIDATOR]);
    const k = mixed.records.findIndex((r) => isObject(r) && r.validator === UNKNOWN_VALIDATOR);
    if (k >= 0) ctx.expect(mixed.x).fail(`a record was returned for the unknown validator id ${UNKNOWN_VALIDATOR}`, `/validatorsReceivedFaucets/${k}`);
    if (JSON.stringify(byValidator(plain.records)) !== JSON.stringify(byValidator(mixed.records))) {
      ctx
        .expect(mixed.x)
        .fail(`adding the unknown validator id ${UNKNOWN_VALIDATOR} changed the records of the known validators`, '/validatorsReceivedFaucets');
    }
  },
});

const orderIndependent = rule({
  id: 'SCAN-FAUCETS-ORDER-INDEPENDENT',
  cites: ['C.faucets.1', 'C.faucets.4'],
  needs: ['validatorIds'],
  tags: ['validators'],
  async check(ctx) {
    const ids = ctx.fixtures.validatorIds;
    if (ids.length < 2) ctx.skip('fixtures.validatorIds names fewer than two validators: there is no other argument order');
    const baseline = byValidator((await faucets(ctx, ids)).records);
    await ctx.property(fc.shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length }), async (order) => {
      const { x, records } = await faucets(ctx, order);
      const got = byValidator(records);
      for (const v of new Set([...Object.keys(baseline), ...Object.keys(got)])) {
        if (baseline[v] !== got[v])
          ctx
            .expect(x)
            .fail(
              `with validator_ids in the order [${order.join(', ')}] the record of ${v} is ${got[v] ?? 'missing'}; in the fixture order it is ${baseline[v] ?? 'missing'}`,
              '/validatorsReceivedFaucets',
            );
      }
    });
  },
});

/** The first record that names a validator not among `asked`, with its index. */
const foreign = (records: Json[], asked: readonly string[]) => records.findIndex((r) => !isObject(r) || !asked.includes(String(r.validator)));

// The answer is about the validators asked: none of the onboarded validators asked is ignored, and no other
// validator is answered. A validator offboarded since discovery saw it may be left out, so only an answer
// without any of them fails for what it lacks.
const askedOnly = rule({
  id: 'SCAN-FAUCETS-ASKED-VALIDATORS',
  cites: ['C.faucets.1', 'C.faucets.2'],
  needs: ['validatorIds'],
  tags: ['validators'],
  async check(ctx) {
    const ids = ctx.fixtures.validatorIds;
    const all = await faucets(ctx, ids);
    if (all.records.length === 0)
      ctx
        .expect(all.x)
        .fail(
          `none of the ${ids.length} onboarded validators asked for (fixtures.validatorIds; discovery: the validator licenses) has a record: only ids matching no onboarded validator are ignored`,
          '/validatorsReceivedFaucets',
        );
    // One validator alone: an answer that names others is about more than was asked (with every fixture
    // validator asked at once, such an answer need not show).
    for (const asked of [ids, ids.slice(0, 1)]) {
      const { x, records } = asked === ids ? all : await faucets(ctx, asked);
      const k = foreign(records, asked);
      if (k >= 0)
        ctx
          .expect(x)
          .fail(
            `asked for the faucets of ${asked.length === 1 ? asked[0] : `${asked.length} validators`}, the answer holds a record of ${JSON.stringify(records[k]?.validator)}, which was not asked for`,
            `/validatorsReceivedFaucets/${k}/validator`,
          );
    }
  },
});

export const FAUCET_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan', operations: [OP] }, [
  arithmetic,
  unknownIgnored,
  orderIndependent,
  askedOnly,
]);
