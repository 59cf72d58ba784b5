// ActiveContracts checked against the update history: the update a holding names in created_in_update_id is
// looked up by id, and where its tree holds the contract's created event (so it is the creating transaction)
// the holding's migration, creation time and arguments are compared with it. Only the first contracts that
// name an update are looked at (lookups are cached per run), and an id the history does not answer is passed
// over: the scan may not hold (or not yet have backfilled) that part of its history.
import { isDeepStrictEqual } from 'node:util';
import { isObject, parseJson, type Json } from '../../../common/json.ts';
import type { Exchange } from '../../../engine/transport/http.ts';
import { isInt64 } from '../../../engine/int64.ts';
import type { CheckContext, Requirement } from '../../../engine/model.ts';
import { defineRules, rule } from '../../../engine/requirement.ts';
import { enc, timeNanos } from '../../../interfaces/scan/common.ts';
import { historyGet, LABEL, OP, PATH, transactionOf, type Where } from '../history.ts';
import { archivesUpTo } from './archives.ts';
import {
  baseQuery,
  HOLDINGS_NEEDS,
  HOLDINGS_OP,
  LARGE_PAGE,
  V0_HELD_TO_V1,
  pageEvents,
  pageExchange,
  walkHoldings,
  type HoldingsNeed,
  type HoldingsVersion,
} from './walk.ts';

/** Contracts per version whose creating update is looked up. */
const SAMPLE = 8;

/** The history endpoints tried for a creating update: /v0/events first, asked for the compact encoding. */
const SOURCES: ReadonlyArray<{ where: Where; query?: Record<string, string> }> = [
  { where: 'events', query: { daml_value_encoding: 'compact_json' } },
  { where: 'v2' },
  { where: 'v0' },
];

export interface Creation {
  version: HoldingsVersion;
  /** The holdings page and the contract's place on it. */
  exchange: Exchange;
  pointer: string;
  contract: Record<string, Json>;
  updateId: string;
  /** The update as the first endpoint that answers with a transaction renders it, if any does. */
  source?: { where: Where; exchange: Exchange; tx: Record<string, Json>; created?: Record<string, Json> };
}

async function creatingUpdate(ctx: CheckContext, updateId: string): Promise<Creation['source']> {
  for (const { where, query } of SOURCES) {
    const x = await historyGet(ctx, PATH[where] + enc(updateId), query);
    if (x.status !== 200) continue;
    const body = parseJson(x.text);
    const tx = isObject(body) ? transactionOf(body, where) : undefined;
    if (!tx) continue;
    return { where, exchange: x, tx };
  }
  return undefined;
}

/** The first contracts of the v1 and v2 holdings that name the update they were created in, with that update. */
export async function creations(ctx: CheckContext<HoldingsNeed>): Promise<Creation[]> {
  const out: Creation[] = [];
  for (const version of ['v1', 'v2'] as const) {
    const walk = await walkHoldings(ctx, version, baseQuery(ctx, LARGE_PAGE));
    let taken = 0;
    for (const page of walk.pages) {
      for (const [k, e] of pageEvents(page).entries()) {
        if (taken >= SAMPLE || !isObject(e) || typeof e.created_in_update_id !== 'string') continue;
        taken++;
        const c: Creation = { version, exchange: pageExchange(page), pointer: `/created_events/${k}`, contract: e, updateId: e.created_in_update_id };
        const source = await creatingUpdate(ctx, c.updateId);
        if (source) {
          const events = Object.values(source.tx.events_by_id as Record<string, Json>);
          const created = events.find((n) => isObject(n) && 'create_arguments' in n && n.contract_id === e.contract_id);
          c.source = isObject(created) ? { ...source, created } : source;
        }
        out.push(c);
      }
      if (taken >= SAMPLE) break;
    }
  }
  return out;
}

/** The creations a rule can judge; skipped when there are none. */
function judged(ctx: CheckContext, all: Creation[], creatingOnly: boolean): Array<Creation & { source: NonNullable<Creation['source']> }> {
  const out = all.filter((c): c is Creation & { source: NonNullable<Creation['source']> } => c.source !== undefined && (!creatingOnly || !!c.source.created));
  if (all.length === 0) ctx.skip('no contract of the v1 or v2 holdings carries created_in_update_id');
  if (out.length === 0)
    ctx.skip(
      creatingOnly
        ? 'no created_in_update_id of the holdings is answered by the update history with a transaction that creates the contract'
        : 'no created_in_update_id of the holdings is answered by the update history with a transaction',
    );
  return out;
}

const where = (c: Creation & { source: NonNullable<Creation['source']> }) =>
  `${c.version} holdings: contract ${c.contract.contract_id} (created_in_update_id ${c.updateId}; attached: the holdings page, ${LABEL[c.source.where]} ${c.updateId} says`;

const createdInMigration = rule({
  // The creating updates are looked up on the history endpoints (SOURCES), each tried in turn.
  needs: HOLDINGS_NEEDS,
  id: 'SCAN-HOLDINGS-CREATED-IN-MIGRATION',
  cites: ['R.scan.3'],
  tags: ['holdings', 'records', 'history'],
  async check(ctx) {
    const asked = ctx.fixtures.migrationId;
    for (const c of judged(ctx, await creations(ctx), false)) {
      const m = c.source.tx.migration_id;
      if (isInt64(m) && m < asked)
        ctx
          .expect(c.exchange)
          .fail(
            `${where(c)} migration_id ${m}): created in a migration before the requested ${asked}, so created_in_update_id must be absent`,
            `${c.pointer}/created_in_update_id`,
          );
    }
  },
});

const createdAtEffective = rule({
  // The creating updates are looked up on the history endpoints (SOURCES), each tried in turn.
  needs: HOLDINGS_NEEDS,
  id: 'SCAN-HOLDINGS-CREATED-AT-EFFECTIVE',
  cites: ['R.scan.5'],
  tags: ['holdings', 'records', 'time'],
  async check(ctx) {
    for (const c of judged(ctx, await creations(ctx), true)) {
      const [at, effective] = [timeNanos(c.contract.created_at), timeNanos(c.source.tx.effective_at)];
      // Unreadable times are the record rules' to report.
      if (at === undefined || effective === undefined || at === effective) continue;
      ctx
        .expect(c.exchange)
        .fail(
          `${where(c)} effective_at ${c.source.tx.effective_at}): created_at ${c.contract.created_at} is another instant than the creating transaction's effective time`,
          `${c.pointer}/created_at`,
        );
    }
  },
});

const createArgumentsCompact = rule({
  // The creating updates are looked up on the history endpoints (SOURCES), each tried in turn.
  needs: HOLDINGS_NEEDS,
  id: 'SCAN-HOLDINGS-CREATE-ARGUMENTS-COMPACT',
  cites: ['R.scan.4', 'C.events.2'],
  tags: ['holdings', 'records', 'encodings'],
  async check(ctx) {
    const all = judged(ctx, await creations(ctx), true).filter((c) => c.source.where === 'events');
    if (all.length === 0) ctx.skip('no creating transaction of the holdings is answered by /v0/events with daml_value_encoding=compact_json');
    for (const c of all) {
      const compact = c.source.created!.create_arguments;
      if (!isObject(c.contract.create_arguments) || isDeepStrictEqual(c.contract.create_arguments, compact)) continue;
      ctx
        .expect(c.exchange)
        .fail(
          `${where(c)} in compact_json): create_arguments differ from the compact encoding of the same contract's created event (${JSON.stringify(compact).slice(0, 200)})`,
          `${c.pointer}/create_arguments`,
        );
    }
  },
});

const activeAtSnapshot = rule({
  // The creating updates are looked up on the history endpoints (SOURCES), each tried in turn.
  needs: HOLDINGS_NEEDS,
  id: 'SCAN-HOLDINGS-ACTIVE-AT-SNAPSHOT',
  cites: ['C.holdings-v1.2'],
  tags: ['holdings', 'history'],
  async check(ctx) {
    const asked = { migration: ctx.fixtures.migrationId, at: timeNanos(ctx.fixtures.snapshotRecordTime)! };
    const found = judged(ctx, await creations(ctx), true);
    for (const c of found) {
      const [m, rt] = [c.source.tx.migration_id, timeNanos(c.source.tx.record_time)];
      if (m === asked.migration && rt !== undefined && rt > asked.at)
        ctx
          .expect(c.exchange)
          .fail(
            `${where(c)} record_time ${c.source.tx.record_time}): created after the snapshot at ${ctx.fixtures.snapshotRecordTime}, so not active in it`,
            c.pointer,
          );
    }
    // Archived by then: a consuming exercise of the contract between its creation and the snapshot, as far as
    // a bounded read of the update list reaches.
    const archives = await archivesUpTo(ctx, found, asked);
    for (const c of found) {
      const a = archives.get(String(c.contract.contract_id));
      if (a)
        ctx
          .expect(a.exchange)
          .fail(
            `${c.version} holdings: contract ${c.contract.contract_id} is returned for the snapshot at ${ctx.fixtures.snapshotRecordTime}, but update ${a.updateId} (record_time ${a.recordTime}, migration ${a.migration}) archived it before that (a consuming exercise, attached)`,
            a.pointer,
          );
    }
  },
});

export const HOLDINGS_CREATION_REQUIREMENTS: Requirement[] = defineRules(
  import.meta.url,
  {
    interface: 'scan',
    operations: [HOLDINGS_OP.v1, HOLDINGS_OP.v2, ...SOURCES.map((s) => OP[s.where])],
    // The history is asked only for the update a holding was created in, to compare the holding with it.
    variants: {
      ...V0_HELD_TO_V1,
      'record-type': {
        reassignment: 'a holding is compared with the transaction whose create event made it; a reassignment moves a contract and creates none',
      },
      'value-encoding': {
        protobuf_json:
          "the creating update is asked in compact_json, the encoding of the holdings' own create_arguments, so that the two compare; the event history's encodings are its own rules' (fetchRenderings)",
      },
    },
  },
  [createdInMigration, createdAtEffective, createArgumentsCompact, activeAtSnapshot],
);
