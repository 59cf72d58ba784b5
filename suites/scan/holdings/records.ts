// The records of the holdings endpoints (ActiveContract in v1/v2, CreatedEvent in v0) and the promise that
// the three versions return the same contracts.
import { isObject, isStringArray, type Json } from '../../../common/json.ts';
import { SECTION, timeNanos } from '../common.ts';
import type { CheckContext, Requirement } from '../../model.ts';
import { defineRequirements, type RequirementInput } from '../../requirement.ts';
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
        ctx.fail(`${walk.version}: created_events[${k}] (${contractIdOf(e)}): ${found.join('; ')}`, {
          exchange: pageExchange(page),
          pointer: `/created_events/${k}`,
        });
    }
  }
}

/** The large-page walk: whole for rules about the set, any prefix for rules about each contract. */
const wholeWalk = async (ctx: CheckContext, v: HoldingsVersion) => usableWalk(ctx, await walkHoldings(ctx, v, baseQuery(ctx, LARGE_PAGE)));
const anyWalk = (ctx: CheckContext, v: HoldingsVersion) => walkHoldings(ctx, v, baseQuery(ctx, LARGE_PAGE));

const activeContractFields: RequirementInput = {
  id: 'SCAN-HOLDINGS-ACTIVE-CONTRACT-FIELDS',
  kind: 'rule',
  level: 'MUST',
  interface: 'scan',
  operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v2],
  section: SECTION.activeContract,
  sentence:
    'ActiveContract: contract_id, template_id, package_name, create_arguments, created_at, signatories, observers ... All required except `created_in_update_id`',
  needs: [...NEEDS],
  tags: ['holdings', 'records'],
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
};

const v0CreatedEvents: RequirementInput = {
  id: 'SCAN-HOLDINGS-V0-CREATED-EVENTS',
  kind: 'rule',
  level: 'MUST',
  interface: 'scan',
  operations: [HOLDINGS_OP.v0],
  section: SECTION.holdingsV0,
  sentence: '`created_events` elements are CreatedEvent (with `event_type` and `event_id`) ... All required',
  needs: [...NEEDS],
  tags: ['holdings', 'records'],
  async check(ctx) {
    eachContract(ctx, await anyWalk(ctx, 'v0'), (e) => {
      const out = contractFieldProblems(e);
      if (isObject(e)) for (const f of ['event_type', 'event_id']) if (typeof e[f] !== 'string') out.push(`${f} is not a string`);
      return out;
    });
  },
};

/** A check that the whole v1 walk and the whole walk of `other` hold the same contracts. */
function sameContractsCheck(other: HoldingsVersion): (ctx: CheckContext) => Promise<void> {
  return async (ctx) => {
    const [v1, w] = [await wholeWalk(ctx, 'v1'), await wholeWalk(ctx, other)];
    const ids = (walk: HoldingsWalk) => new Set(Array.from(walkEvents(walk), contractIdOf));
    const a = ids(v1);
    const b = ids(w);
    const onlyV1 = [...a].find((x) => !b.has(x));
    if (onlyV1)
      ctx.fail(`contract ${onlyV1} is in the v1 holdings but not in the ${other} holdings of the same request (${b.size} vs ${a.size} contracts)`, {
        exchange: pageExchange(w.pages[0]!),
      });
    const onlyOther = [...b].find((x) => !a.has(x));
    if (onlyOther) {
      ctx.fail(`contract ${onlyOther} is in the ${other} holdings (attached) but not in the v1 holdings of the same request`, {
        exchange: pageExchange(pageWith(w, onlyOther)!),
      });
    }
  };
}

const v0SameAsV1: RequirementInput = {
  id: 'SCAN-HOLDINGS-V0-MATCHES-V1',
  kind: 'rule',
  level: 'MUST',
  interface: 'scan',
  operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v0],
  section: SECTION.holdingsV0,
  sentence: 'POST /v0/holdings/state: Same body and behavior as v1',
  needs: [...NEEDS],
  tags: ['holdings', 'versions'],
  check: sameContractsCheck('v0'),
};

const v2SameAsV1: RequirementInput = {
  id: 'SCAN-HOLDINGS-V2-MATCHES-V1',
  kind: 'rule',
  level: 'MUST',
  interface: 'scan',
  operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v2],
  section: SECTION.holdingsV1,
  sentence: 'Use the v2 variant instead; it differs only in the type of the `after`/`next_page_token` token',
  needs: [...NEEDS],
  tags: ['holdings', 'versions'],
  check: sameContractsCheck('v2'),
};

export const HOLDINGS_RECORD_REQUIREMENTS: Requirement[] = defineRequirements(import.meta.url, [activeContractFields, v0CreatedEvents, v0SameAsV1, v2SameAsV1]);
