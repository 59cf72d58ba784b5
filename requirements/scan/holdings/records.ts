// The records of the holdings endpoints (ActiveContract in v1/v2, CreatedEvent in v0) and the promise that
// the three versions return the same contracts, alike in every field the versions share.
import { firstDifference, isObject, isStringArray, parsePointer, pointer, resolvePointer, type Json } from '../../../common/json.ts';
import { timeNanos } from '../../../interfaces/scan/common.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import {
  baseQuery,
  contractIdOf,
  HOLDINGS_NEEDS,
  HOLDINGS_OP,
  LARGE_PAGE,
  pageEvents,
  pageExchange,
  pageWith,
  usableWalk,
  walkEvents,
  walkHoldings,
  type HoldingsNeed,
  type HoldingsVersion,
  type HoldingsWalk,
} from './walk.ts';

const NEEDS = HOLDINGS_NEEDS;

/** Problems of the fields ActiveContract and CreatedEvent share (all required). */
export function contractFieldProblems(e: Json): string[] {
  if (!isObject(e)) return ['not an object'];
  const out: string[] = [];
  for (const f of ['contract_id', 'template_id', 'package_name']) if (typeof e[f] !== 'string') out.push(`${f} is not a string`);
  if (!isObject(e.create_arguments)) out.push('create_arguments is not a JSON object');
  if (timeNanos(e.created_at) === undefined) out.push('created_at is not an ISO 8601 timestamp');
  for (const f of ['signatories', 'observers']) if (!isStringArray(e[f])) out.push(`${f} is not an array of party ids`);
  return out;
}

function eachContract(ctx: CheckContext, walk: HoldingsWalk, problems: (e: Json) => string[]): void {
  for (const page of walk.pages) {
    for (const [k, e] of pageEvents(page).entries()) {
      const found = problems(e);
      if (found.length > 0)
        ctx.expect(pageExchange(page)).fail(`${walk.version}: created_events[${k}] (${contractIdOf(e)}): ${found.join('; ')}`, `/created_events/${k}`);
    }
  }
}

/** The large-page walk: whole for rules about the set, any prefix for rules about each contract. */
const wholeWalk = async (ctx: CheckContext<HoldingsNeed>, v: HoldingsVersion) => usableWalk(ctx, await walkHoldings(ctx, v, baseQuery(ctx, LARGE_PAGE)));
const anyWalk = (ctx: CheckContext<HoldingsNeed>, v: HoldingsVersion) => walkHoldings(ctx, v, baseQuery(ctx, LARGE_PAGE));

const activeContractFields = rule({
  id: 'SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS',
  operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v2],
  cites: ['R.scan.1', 'R.scan.2', 'C.holdings-v1.13'],
  needs: [...NEEDS],
  tags: ['holdings', 'records'],
  // The same fields, less created_in_update_id and plus event_type and event_id, are v0's (SCAN-HOLDINGS-V0-CREATED-EVENTS).
  variants: {
    version: { [HOLDINGS_OP.v0]: 'v0 answers CreatedEvent, not ActiveContract (C.holdings-v0.2): SCAN-HOLDINGS-V0-CREATED-EVENTS judges its records' },
  },
  async check(ctx) {
    for (const v of ['v1', 'v2'] as const) {
      eachContract(ctx, await anyWalk(ctx, v), (e) => {
        const out = contractFieldProblems(e);
        if (isObject(e) && e.created_in_update_id !== undefined && typeof e.created_in_update_id !== 'string')
          out.push('created_in_update_id is present but not a string');
        return out;
      });
    }
  },
});

const v0CreatedEvents = rule({
  id: 'SCAN-HOLDINGS-V0-CREATED-EVENTS',
  operations: [HOLDINGS_OP.v0],
  cites: ['R.scan.6', 'C.holdings-v0.2'],
  needs: [...NEEDS],
  tags: ['holdings', 'records'],
  variants: {
    version: Object.fromEntries(
      [HOLDINGS_OP.v1, HOLDINGS_OP.v2].map((op) => [
        op,
        'answers ActiveContract, not CreatedEvent (C.holdings-v0.2): SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS judges its records',
      ]),
    ),
  },
  async check(ctx) {
    eachContract(ctx, await anyWalk(ctx, 'v0'), (e) => {
      const out = contractFieldProblems(e);
      if (isObject(e)) for (const f of ['event_type', 'event_id']) if (typeof e[f] !== 'string') out.push(`${f} is not a string`);
      return out;
    });
  },
});

/** Fields of CreatedEvent v0 shares with v1 ("the same fields as ActiveContract without created_in_update_id"). */
const V0_SHARED = ['contract_id', 'template_id', 'package_name', 'create_arguments', 'created_at', 'signatories', 'observers'];
/** v2 "differs only in the type of the token": every ActiveContract field. */
const V2_SHARED = [...V0_SHARED, 'created_in_update_id'];
const PARTY_LISTS = new Set(['signatories', 'observers']);

/** What two renderings of one contract must agree on: the shared fields, created_at as an instant (not its
 *  text), party lists as sets (the description gives them no order). */
function comparable(e: Json, fields: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (!isObject(e)) return out;
  for (const f of fields) {
    const v = e[f];
    if (v === undefined) continue;
    if (f === 'created_at') out[f] = timeNanos(v)?.toString() ?? v;
    else out[f] = PARTY_LISTS.has(f) && isStringArray(v) ? [...v].sort() : v;
  }
  return out;
}

const shown = (v: Json) => (v === undefined ? 'absent' : JSON.stringify(v));

/** The first field where two renderings of one contract differ (a party list as a whole), with both values. */
function difference(mine: Json, theirs: Json, fields: readonly string[]): { at: string; mine: Json; theirs: Json } | undefined {
  let at = firstDifference(comparable(mine, fields), comparable(theirs, fields));
  if (at === undefined) return undefined;
  const field = parsePointer(at)[0];
  if (field !== undefined && PARTY_LISTS.has(field)) at = pointer(field);
  return { at, mine: resolvePointer(mine, at), theirs: resolvePointer(theirs, at) };
}

/** A check that the whole v1 walk and the whole walk of `other` hold the same contracts, each alike in `fields`. */
function sameContractsCheck(other: HoldingsVersion, fields: readonly string[]): (ctx: CheckContext<HoldingsNeed>) => Promise<void> {
  return async (ctx) => {
    const [v1, w] = [await wholeWalk(ctx, 'v1'), await wholeWalk(ctx, other)];
    // The v1 contracts the other walk has not shown yet; what is left at the end is missing there.
    const unseen = new Map<string, Json>();
    for (const e of walkEvents(v1)) unseen.set(contractIdOf(e), e);
    const seen = new Set<string>();
    for (const page of w.pages) {
      for (const [k, e] of pageEvents(page).entries()) {
        const id = contractIdOf(e);
        const mine = unseen.get(id);
        if (mine === undefined && !seen.has(id))
          ctx
            .expect(pageExchange(page))
            .fail(`contract ${id} is in the ${other} holdings (attached) but not in the v1 holdings of the same request`, `/created_events/${k}`);
        const d = mine === undefined ? undefined : difference(mine, e, fields);
        if (d)
          ctx
            .expect(pageExchange(page))
            .fail(
              `${other} holdings: contract ${id} differs from its v1 rendering in the same request at ${d.at}: ${shown(d.theirs)} on ${other}, ${shown(d.mine)} on v1 (attached: the ${other} page)`,
              `/created_events/${k}${d.at}`,
            );
        unseen.delete(id);
        seen.add(id);
      }
    }
    const [onlyV1] = unseen.keys();
    if (onlyV1)
      ctx
        .expect(pageExchange(pageWith(v1, onlyV1)!))
        .fail(`contract ${onlyV1} is in the v1 holdings (attached) but not in the ${other} holdings of the same request`);
  };
}

const v0SameAsV1 = rule({
  id: 'SCAN-HOLDINGS-V0-MATCHES-V1',
  operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v0],
  cites: ['R.scan.6', 'C.holdings-v0.1'],
  needs: [...NEEDS],
  tags: ['holdings', 'versions'],
  variants: { version: { [HOLDINGS_OP.v2]: 'a relation of v0 to v1; v2 to v1 is SCAN-HOLDINGS-V2-MATCHES-V1' } },
  check: sameContractsCheck('v0', V0_SHARED),
});

const v2SameAsV1 = rule({
  id: 'SCAN-HOLDINGS-V2-MATCHES-V1',
  operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v2],
  cites: ['C.holdings-v1.1', 'X.versioning.5'],
  needs: [...NEEDS],
  tags: ['holdings', 'versions'],
  variants: { version: { [HOLDINGS_OP.v0]: 'a relation of v2 to v1; v0 to v1 is SCAN-HOLDINGS-V0-MATCHES-V1' } },
  check: sameContractsCheck('v2', V2_SHARED),
});

export const HOLDINGS_RECORD_REQUIREMENTS: Requirement[] = defineRules(import.meta.url, { interface: 'scan' }, [
  activeContractFields,
  v0CreatedEvents,
  v0SameAsV1,
  v2SameAsV1,
]);
