// Reassignment items of the update history (UpdateHistoryReassignment): their records and the reassignment
// counter. Only the fixture reassignment ids are looked at, so the counter rules are checked where the
// fixtures give both halves of a pair or several unassignments of one contract. The record is the same on the
// three history endpoints; each endpoint the scan serves is judged on its own answers (history.ts).
import { isObject, type Json } from '../../common/json.ts';
import type { Exchange } from '../../engine/transport/http.ts';
import { exactIntegers, isInt64 } from '../../engine/int64.ts';
import type { CheckContext, Requirement } from '../../engine/model.ts';
import { defineRules, rule } from '../../engine/requirement.ts';
import { timeNanos } from '../../interfaces/scan/common.ts';
import { BASE, fetchServedUpdates, LABEL, OP, reassignmentOf, updateOf, WHERE, type Where } from './history.ts';
import { contractFieldProblems } from './holdings/records.ts';

interface Reassignment {
  id: string;
  exchange: Exchange;
  kind: 'assign' | 'unassign';
  event: Record<string, Json>;
  contractId: unknown;
  at: bigint | undefined;
  recordTime: unknown;
}

/** The fixture reassignments, per endpoint that answers with some (their counters are compared within one). */
async function reassignments(ctx: CheckContext<'reassignmentUpdateIds'>): Promise<Array<{ where: Where; items: Reassignment[] }>> {
  const out: Array<{ where: Where; items: Reassignment[] }> = [];
  for (const { where, updates } of await fetchServedUpdates(ctx, ctx.fixtures.reassignmentUpdateIds)) {
    const items: Reassignment[] = [];
    for (const u of updates) {
      const r = reassignmentOf(u.body, where);
      if (!r) continue;
      const ev = r.event as Record<string, Json>;
      const assign = isObject(ev.created_event);
      items.push({
        id: u.id,
        exchange: u.exchange,
        kind: assign ? 'assign' : 'unassign',
        event: ev,
        contractId: assign ? ev.created_event.contract_id : ev.contract_id,
        at: timeNanos(r.record_time),
        recordTime: r.record_time,
      });
    }
    if (items.length > 0) out.push({ where, items });
  }
  if (out.length === 0) ctx.skip('none of the fixture reassignment ids is answered with a reassignment item');
  return out;
}

const ASSIGN_FIELDS: Record<string, 'string' | 'int'> = {
  submitter: 'string',
  source_synchronizer: 'string',
  target_synchronizer: 'string',
  migration_id: 'int',
  unassign_id: 'string',
  reassignment_counter: 'int',
};
const UNASSIGN_FIELDS: Record<string, 'string' | 'int'> = { ...ASSIGN_FIELDS, contract_id: 'string' };

function reassignmentProblems(item: Json): string[] {
  if (!isObject(item)) return ['not an object'];
  const out: string[] = [];
  for (const f of ['update_id', 'offset', 'record_time']) if (typeof item[f] !== 'string') out.push(`${f} is not a string`);
  const ev = item.event;
  if (!isObject(ev)) return [...out, 'event is not an object'];
  const assign = 'created_event' in ev;
  for (const [f, t] of Object.entries(assign ? ASSIGN_FIELDS : UNASSIGN_FIELDS)) {
    if (t === 'string' ? typeof ev[f] !== 'string' : !isInt64(ev[f])) out.push(`event.${f} is not ${t === 'string' ? 'a string' : 'an integer'}`);
  }
  if (assign) {
    const ce = ev.created_event;
    out.push(...contractFieldProblems(ce).map((p) => `event.created_event: ${p}`));
    if (isObject(ce)) for (const f of ['event_type', 'event_id']) if (typeof ce[f] !== 'string') out.push(`event.created_event.${f} is not a string`);
  }
  return out;
}

const wellFormed = rule({
  id: 'SCAN-REASSIGNMENT-RECORDS',
  cites: ['R.scan.6', 'R.scan.20', 'R.scan.21', 'R.scan.22', 'C.updates-v0.4', 'X.events.7'],
  needs: ['reassignmentUpdateIds'],
  tags: ['history', 'reassignments'],
  async check(ctx) {
    let judged = 0;
    for (const { where, updates } of await fetchServedUpdates(ctx, ctx.fixtures.reassignmentUpdateIds)) {
      for (const u of updates) {
        const item = updateOf(u.body, where);
        if (!item || !('event' in item)) continue; // not a reassignment (the fixture may name other updates)
        judged++;
        const problems = reassignmentProblems(item);
        if (item.update_id !== u.id) problems.push(`update_id ${JSON.stringify(item.update_id)} is not the requested ${u.id}`);
        if (problems.length > 0) ctx.expect(u.exchange).fail(`${LABEL[where]} ${u.id}: ${problems.join('; ')}`, BASE[where]);
      }
    }
    if (judged === 0) ctx.skip('no answer for the fixture reassignment ids is a reassignment record (none carries event)');
  },
});

const pairCounter = rule({
  id: 'SCAN-REASSIGNMENT-PAIR-COUNTER',
  cites: ['R.scan.24', 'R.scan.25', 'X.events.8'],
  needs: ['reassignmentUpdateIds'],
  tags: ['history', 'reassignments'],
  async check(ctx) {
    let pairs = 0;
    for (const { where, items: all } of await reassignments(ctx)) {
      for (const a of all.filter((r) => r.kind === 'assign')) {
        for (const u of all.filter((r) => r.kind === 'unassign' && r.event.unassign_id === a.event.unassign_id)) {
          pairs++;
          if (a.event.reassignment_counter !== u.event.reassignment_counter) {
            ctx
              .expect(a.exchange)
              .fail(
                `${LABEL[where]}: assignment ${a.id} (attached) has reassignment_counter ${a.event.reassignment_counter} but its unassignment ${u.id} (same unassign_id ${a.event.unassign_id}) has ${u.event.reassignment_counter}`,
                `${BASE[where]}/event/reassignment_counter`,
              );
          }
          if (a.contractId !== u.contractId) {
            ctx
              .expect(a.exchange)
              .fail(
                `${LABEL[where]}: assignment ${a.id} (attached) moves contract ${a.contractId} but its unassignment ${u.id} (same unassign_id) moves ${u.contractId}`,
                `${BASE[where]}/event/created_event/contract_id`,
              );
          }
        }
      }
      pairs += unassignIdsShared(ctx, where, all);
    }
    if (pairs === 0)
      ctx.skip('the fixture reassignment ids hold no assignment together with its unassignment (same unassign_id, or same contract and counter)');
  },
});

/**
 * The pairs found by contract and counter where the assignment's unassign_id names none of the unassignments
 * looked at: the counter grows with every unassign of a contract, so the one unassignment of that contract with
 * the assignment's counter is the one it completes, and the two must name the same unassign_id. Several
 * unassignments with one counter break the counter rule (COUNTER-INCREASES), not this one, and are left out.
 * Returns how many such pairs were judged.
 */
function unassignIdsShared(ctx: CheckContext, where: Where, all: Reassignment[]): number {
  const unassigns = all.filter((r) => r.kind === 'unassign');
  let pairs = 0;
  for (const a of all.filter((r) => r.kind === 'assign')) {
    if (unassigns.some((u) => u.event.unassign_id === a.event.unassign_id)) continue; // paired by unassign_id
    const counter = a.event.reassignment_counter;
    // Counters beyond 2^53 may round to one value: equal counters would not show the same unassign (engine/int64.ts).
    const same = unassigns.filter(
      (u) =>
        typeof u.contractId === 'string' &&
        u.contractId === a.contractId &&
        exactIntegers(counter, u.event.reassignment_counter) &&
        u.event.reassignment_counter === counter,
    );
    if (same.length !== 1) continue;
    const u = same[0]!;
    pairs++;
    if (a.event.unassign_id !== u.event.unassign_id) {
      ctx
        .expect(a.exchange)
        .fail(
          `${LABEL[where]}: assignment ${a.id} (attached) of contract ${a.contractId} with reassignment_counter ${counter} has unassign_id ${JSON.stringify(a.event.unassign_id)}, but the unassignment ${u.id} of that contract with the same counter has unassign_id ${JSON.stringify(u.event.unassign_id)}`,
          `${BASE[where]}/event/unassign_id`,
        );
    }
  }
  return pairs;
}

const counterIncreases = rule({
  id: 'SCAN-REASSIGNMENT-COUNTER-INCREASES',
  cites: ['R.scan.26'],
  needs: ['reassignmentUpdateIds'],
  tags: ['history', 'reassignments'],
  async check(ctx) {
    for (const { where, items: all } of await reassignments(ctx)) counterRule(ctx, where, all);
  },
});

/** The counter rule on the reassignments one endpoint answered with. */
function counterRule(ctx: CheckContext, where: Where, all: Reassignment[]): void {
  // 0 at creation and +1 or more with every unassign: any reassignment of a contract carries at least 1.
  for (const r of all) {
    if (isInt64(r.event.reassignment_counter) && r.event.reassignment_counter < 1) {
      ctx
        .expect(r.exchange)
        .fail(
          `${LABEL[where]}: ${r.kind === 'assign' ? 'assignment' : 'unassignment'} ${r.id} has reassignment_counter ${r.event.reassignment_counter}; the counter is 0 at creation and increases with each unassign, so a reassigned contract's counter is at least 1`,
          `${BASE[where]}/event/reassignment_counter`,
        );
    }
  }
  const byContract = new Map<string, Reassignment[]>();
  for (const r of all)
    if (r.kind === 'unassign' && typeof r.contractId === 'string' && r.at !== undefined)
      byContract.set(r.contractId, [...(byContract.get(r.contractId) ?? []), r]);
  for (const [contract, list] of byContract) {
    list.sort((a, b) => (a.at! < b.at! ? -1 : a.at! > b.at! ? 1 : 0));
    for (let k = 1; k < list.length; k++) {
      const [prev, cur] = [list[k - 1]!, list[k]!];
      // Counters beyond 2^53 may round to one value: strict order cannot be judged on them (engine/int64.ts).
      if (prev.at === cur.at || !exactIntegers(prev.event.reassignment_counter, cur.event.reassignment_counter)) continue;
      if (cur.event.reassignment_counter <= prev.event.reassignment_counter) {
        ctx
          .expect(cur.exchange)
          .fail(
            `${LABEL[where]}: contract ${contract}: unassignment ${cur.id} (record_time ${cur.recordTime}, attached) has reassignment_counter ${cur.event.reassignment_counter}, not greater than ${prev.event.reassignment_counter} of the earlier unassignment ${prev.id} (record_time ${prev.recordTime})`,
            `${BASE[where]}/event/reassignment_counter`,
          );
      }
    }
  }
}

/** The rules of reassignment records: the fixture reassignments are asked for, a transaction has no reassignment event. */
const OF_REASSIGNMENTS = {
  'record-type': { transaction: 'a rule of UpdateHistoryReassignment (its event, counter and unassign id): a transaction carries no reassignment event' },
};

export const REASSIGNMENT_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  { interface: 'scan', operations: WHERE.map((w) => OP[w]), variants: OF_REASSIGNMENTS },
  [wellFormed, pairCounter, counterIncreases],
);
